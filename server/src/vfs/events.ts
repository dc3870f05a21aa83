// Who hears about the tree: writes made through it (the listing cache, folder ETags, the search index) and
// folders read from their storage (what the search index learns from). A listener's failure never fails the
// write or the listing that already happened.
import type { VfsChange, VfsListed, VfsListedListener, VfsListener } from './types.js';

export class VfsEvents {
  private readonly listeners = new Set<VfsListener>();
  private readonly listedListeners = new Set<VfsListedListener>();

  onChange(listener: VfsListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(change: VfsChange): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch {
        // see the file's comment
      }
    }
  }

  /** Whether anyone listens to folders read (sparing the work of telling them). */
  get hasListedListeners(): boolean {
    return this.listedListeners.size > 0;
  }

  onListed(listener: VfsListedListener): () => void {
    this.listedListeners.add(listener);
    return () => this.listedListeners.delete(listener);
  }

  emitListed(listed: VfsListed): void {
    for (const listener of this.listedListeners) {
      try {
        listener(listed);
      } catch {
        // see the file's comment
      }
    }
  }
}

import type { PasteType } from '@clipnest/contract';
import { useEffect, useState } from 'react';
import { safeStorage } from '../../lib/storageKeys';

/** localStorage key of the unsaved editor text (kept across reloads). */
export const DRAFT_STORAGE_KEY = 'clipnest_paste_draft';

export interface Draft {
  content: string;
  type: PasteType;
}

export function readDraft(): Draft {
  try {
    const raw = safeStorage.get(DRAFT_STORAGE_KEY);
    if (raw) {
      const parsed = JSON.parse(raw) as Partial<Draft>;
      return {
        content: typeof parsed.content === 'string' ? parsed.content : '',
        type: parsed.type === 'text' ? 'text' : 'markdown',
      };
    }
  } catch {
    // a corrupt draft is dropped
  }
  return { content: '', type: 'markdown' };
}

/** The editor's text and mode, saved to localStorage a moment after each change. */
export function useDraft() {
  const [draft, setDraft] = useState<Draft>(readDraft);
  useEffect(() => {
    const timer = window.setTimeout(() => {
      if (!draft.content) safeStorage.remove(DRAFT_STORAGE_KEY);
      else safeStorage.set(DRAFT_STORAGE_KEY, JSON.stringify(draft));
    }, 300);
    return () => window.clearTimeout(timer);
  }, [draft]);
  return [draft, setDraft] as const;
}

/**
 * Replaces all text of `editor` the way typing would, so the browser's own undo (Ctrl/⌘+Z) restores what was
 * there before in one step. The input event it fires reaches React's onChange. False when the browser cannot
 * (the editor is hidden, or no `insertText` command): the caller then sets the text itself.
 */
export function replaceUndoably(editor: HTMLTextAreaElement, text: string): boolean {
  if (editor.offsetParent === null || typeof document.execCommand !== 'function') return false;
  const active = document.activeElement;
  editor.focus();
  editor.select();
  let done: boolean;
  try {
    // Deprecated but still the only way to write into a field's undo history (Chromium, Firefox, Safari).
    done = text === '' ? document.execCommand('delete') : document.execCommand('insertText', false, text);
  } catch {
    done = false;
  }
  if (!done || editor.value !== text) {
    if (active instanceof HTMLElement && active !== editor) active.focus();
    return false;
  }
  editor.setSelectionRange(0, 0);
  editor.scrollTop = 0;
  return true;
}

/** Files (and whole folders) from a drop, a paste or a picker, each with its path relative to the drop. */
export interface PickedFile {
  file: File;
  /** `a/b/c.txt` for a file inside a dropped folder, else the file name. */
  relativePath: string;
}

interface FsEntryLike {
  isFile: boolean;
  isDirectory: boolean;
  name: string;
  file?: (ok: (f: File) => void, fail: (e: unknown) => void) => void;
  createReader?: () => { readEntries: (ok: (entries: FsEntryLike[]) => void, fail: (e: unknown) => void) => void };
}

async function walk(entry: FsEntryLike, prefix: string, out: PickedFile[]): Promise<void> {
  const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
  if (entry.isFile && entry.file) {
    const file = await new Promise<File>((ok, fail) => entry.file!(ok, fail));
    out.push({ file, relativePath: rel });
    return;
  }
  if (entry.isDirectory && entry.createReader) {
    const reader = entry.createReader();
    // readEntries answers in batches until it answers an empty one.
    for (;;) {
      const batch = await new Promise<FsEntryLike[]>((ok, fail) => reader.readEntries(ok, fail));
      if (batch.length === 0) break;
      for (const child of batch) await walk(child, rel, out);
    }
  }
}

export async function filesFromDataTransfer(data: DataTransfer): Promise<PickedFile[]> {
  const entries: FsEntryLike[] = [];
  for (const item of Array.from(data.items ?? [])) {
    if (item.kind !== 'file') continue;
    const entry = (item as DataTransferItem & { webkitGetAsEntry?: () => FsEntryLike | null }).webkitGetAsEntry?.();
    if (entry) entries.push(entry);
  }
  if (entries.length === 0) return Array.from(data.files ?? []).map((file) => ({ file, relativePath: file.name }));
  const out: PickedFile[] = [];
  for (const entry of entries) await walk(entry, '', out);
  return out;
}

export function filesFromList(list: FileList | null): PickedFile[] {
  return Array.from(list ?? []).map((file) => ({
    file,
    relativePath: (file as File & { webkitRelativePath?: string }).webkitRelativePath || file.name,
  }));
}

import { FolderPicker } from '../fs/components/FolderPicker';
// The picker shows the fs texts (up, no folders); they are not in the shell.

/** Picks a key's base path in the mount tree: any folder, "All mounts" included. */
export default function BasePathPicker({
  start,
  title,
  pickLabel,
  onPick,
  onClose,
}: {
  start: string;
  title: string;
  pickLabel: string;
  onPick: (folder: string) => void;
  onClose: () => void;
}) {
  return (
    <FolderPicker
      open
      onOpenChange={(open) => !open && onClose()}
      title={title}
      start={start}
      busy={false}
      pickLabel={pickLabel}
      allowVirtual
      onPick={(folder) => onPick(folder)}
    />
  );
}

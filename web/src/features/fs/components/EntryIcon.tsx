import type { FsEntryView } from '@clipnest/contract';
import {
  Cloud,
  File,
  FileArchive,
  FileAudio,
  FileCode,
  FileImage,
  FileText,
  FileVideo,
  Folder,
  FolderSync,
  Globe,
  HardDrive,
  Server,
  ServerCog,
  type LucideIcon,
} from 'lucide-react';
import type { StorageType } from '@clipnest/contract';
import { createElement } from 'react';
import { cn } from '../../../lib/cn';
import { entryKind } from '../kinds';

const ARCHIVE = /\.(zip|tar|gz|tgz|7z|rar|bz2|xz)$/i;
const CODE = /\.(js|ts|tsx|jsx|py|go|rs|java|c|cpp|h|sh|json|yaml|yml|toml|css|html)$/i;

/** A mount point's icon by its storage type (a folder leading to mounts, or an unknown type: a drive). */
const STORAGE_ICONS: Record<string, LucideIcon> = {
  local: HardDrive,
  s3: Cloud,
  webdav: Globe,
  sftp: Server,
  ftp: ServerCog,
  rclone: FolderSync,
} satisfies Partial<Record<StorageType | 'ftp' | 'rclone', LucideIcon>>;

function entryIcon(entry: FsEntryView): LucideIcon {
  if (entry.isMount) return (entry.storage_type && STORAGE_ICONS[entry.storage_type]) || HardDrive;
  if (entry.isDirectory) return Folder;
  if (ARCHIVE.test(entry.name)) return FileArchive;
  if (CODE.test(entry.name)) return FileCode;
  switch (entryKind(entry)) {
    case 'image':
      return FileImage;
    case 'video':
      return FileVideo;
    case 'audio':
      return FileAudio;
    case 'text':
    case 'markdown':
    case 'pdf':
    case 'office':
      return FileText;
    default:
      return File;
  }
}

export function EntryIcon({ entry, className }: { entry: FsEntryView; className?: string }) {
  return createElement(entryIcon(entry), {
    className: cn('shrink-0', entry.isDirectory ? 'text-primary' : 'text-muted-foreground', className),
    'aria-hidden': true,
  });
}

import type { FsEntryView } from '@clipnest/contract';
import {
  File,
  FileArchive,
  FileAudio,
  FileCode,
  FileImage,
  FileText,
  FileVideo,
  Folder,
  HardDrive,
  type LucideIcon,
} from 'lucide-react';
import { createElement } from 'react';
import { cn } from '../../../lib/cn';
import { entryKind } from '../kinds';

const ARCHIVE = /\.(zip|tar|gz|tgz|7z|rar|bz2|xz)$/i;
const CODE = /\.(js|ts|tsx|jsx|py|go|rs|java|c|cpp|h|sh|json|yaml|yml|toml|css|html)$/i;

function entryIcon(entry: FsEntryView): LucideIcon {
  if (entry.isMount) return HardDrive;
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

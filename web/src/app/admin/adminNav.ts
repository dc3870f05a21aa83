import {
  ArchiveRestore,
  Database,
  Eye,
  FileText,
  Files,
  Globe,
  HardDrive,
  KeyRound,
  LayoutDashboard,
  Network,
  ScrollText,
  SlidersHorizontal,
  UserCog,
  type LucideIcon,
} from 'lucide-react';
import type { AdminPage } from '../../lib/access';

export const ADMIN_NAV: { page: AdminPage; icon: LucideIcon; group: 'main' | 'settings' }[] = [
  { page: 'dashboard', icon: LayoutDashboard, group: 'main' },
  { page: 'text-management', icon: FileText, group: 'main' },
  { page: 'file-management', icon: Files, group: 'main' },
  { page: 'key-management', icon: KeyRound, group: 'main' },
  { page: 'mount-management', icon: HardDrive, group: 'main' },
  { page: 'storage-config', icon: Database, group: 'main' },
  { page: 'account', icon: UserCog, group: 'main' },
  { page: 'backup', icon: ArchiveRestore, group: 'main' },
  { page: 'audit-log', icon: ScrollText, group: 'main' },
  { page: 'settings/global', icon: SlidersHorizontal, group: 'settings' },
  { page: 'settings/webdav', icon: Network, group: 'settings' },
  { page: 'settings/preview', icon: Eye, group: 'settings' },
  { page: 'settings/site', icon: Globe, group: 'settings' },
];

/** GET /api/admin/dashboard/stats (admin only). */

/** The tables the dashboard counts; a feature not installed yet reports zero and `false` here. */
export const DASHBOARD_TABLES = ['pastes', 'files', 'api_keys', 'mounts', 'storage_configs'] as const;
export type DashboardTable = (typeof DASHBOARD_TABLES)[number];

/** Days shown by the chart, today included. */
export const DASHBOARD_DAYS = 7;
/** Entries of the recent-activity list. */
export const DASHBOARD_RECENT_LIMIT = 8;

export interface DashboardStorageUsage {
  id: string;
  name: string;
  storage_type: string;
  is_default: boolean;
  /** SUM(files.size) of the file shares stored with this config. */
  used_bytes: number;
  file_count: number;
  /** Bytes; null when the config sets no capacity. */
  total_capacity: number | null;
  /** used / capacity × 100, rounded to one decimal; null without a capacity. */
  usage_percent: number | null;
}

export interface DashboardDay {
  /** YYYY-MM-DD (UTC). */
  day: string;
  paste_views: number;
  file_views: number;
  file_downloads: number;
  pastes_created: number;
  files_created: number;
}

export interface DashboardActivity {
  type: 'paste' | 'file';
  id: string;
  slug: string;
  /** The file name for files; null for pastes. */
  filename: string | null;
  size: number | null;
  created_by: string | null;
  /** Who `created_by` is: the admin's username or the API key's name; null when unknown or deleted. */
  created_by_name: string | null;
  created_at: string;
}

/** Shares of more than one file and upload requests (the dashboard's share card). */
export interface DashboardShares {
  /** Folder shares and bundles. */
  folder_shares: number;
  upload_requests: number;
  /** The newest files received through upload requests, newest first. */
  received: {
    id: string;
    request_id: string;
    request_slug: string;
    name: string;
    size: number;
    path: string;
    created_at: string;
  }[];
}

export interface DashboardStats {
  counts: Record<DashboardTable, number>;
  /** Which counted tables exist in this install. */
  available: Record<DashboardTable, boolean>;
  storage: DashboardStorageUsage[];
  /** The last DASHBOARD_DAYS days, oldest first, zero-filled. */
  daily: DashboardDay[];
  /** Newest first. */
  recent: DashboardActivity[];
  shares: DashboardShares;
  generated_at: string;
}

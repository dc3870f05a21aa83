/** Row types of every table, as Kysely sees them. Times are ISO 8601 UTC strings; flags are 0/1. */
export interface AdminsTable {
  id: string;
  username: string;
  password_hash: string;
  created_at: string;
  updated_at: string;
}

export interface AdminTokensTable {
  token_hash: string;
  admin_id: string;
  created_at: string;
  expires_at: string;
}

export interface ApiKeysTable {
  id: string;
  name: string;
  key_hash: string;
  key_encrypted: string;
  key_prefix: string;
  permissions: number;
  role: string;
  basic_path: string;
  is_guest: number;
  enabled: number;
  expires_at: string | null;
  created_at: string;
  updated_at: string;
  last_used: string | null;
}

export interface SettingsTable {
  key: string;
  value: string;
  group_id: number;
  updated_at: string;
}

export interface DailyStatsTable {
  day: string;
  metric: string;
  value: number;
}

export interface PastesTable {
  id: string;
  slug: string;
  content: string;
  type: string;
  remark: string;
  password_hash: string | null;
  expires_at: string | null;
  max_views: number;
  views: number;
  created_by: string;
  created_at: string;
  updated_at: string;
}

export interface Database {
  admins: AdminsTable;
  admin_tokens: AdminTokensTable;
  api_keys: ApiKeysTable;
  settings: SettingsTable;
  daily_stats: DailyStatsTable;
  pastes: PastesTable;
}

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
  /** The session's public id (the sessions list names it); null only on rows older than the sessions list. */
  id: string | null;
  user_agent: string | null;
  address: string | null;
  /** How it signed in: password, totp, recovery_code, passkey. */
  auth_method: string | null;
  last_used_at: string | null;
}

export interface AdminSecondFactorTable {
  admin_id: string;
  totp_secret_encrypted: string | null;
  totp_pending_encrypted: string | null;
  totp_pending_at: string | null;
  totp_enabled_at: string | null;
  totp_last_step: number | null;
  updated_at: string;
}

export interface AdminRecoveryCodesTable {
  id: string;
  admin_id: string;
  code_hash: string;
  created_at: string;
  used_at: string | null;
}

export interface AdminPasskeysTable {
  id: string;
  admin_id: string;
  credential_id: string;
  public_key: string;
  counter: number;
  transports: string;
  name: string;
  device_type: string;
  backed_up: number;
  created_at: string;
  last_used_at: string | null;
}

export interface AdminChallengesTable {
  id: string;
  admin_id: string | null;
  purpose: string;
  challenge: string;
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
  /** 0016: E2eeParams as JSON for an end-to-end encrypted paste (content is ciphertext), else null. */
  encryption: string | null;
}

export interface StorageConfigsTable {
  id: string;
  name: string;
  /** 'local' | 's3' */
  storage_type: string;
  provider: string | null;
  endpoint: string;
  bucket: string;
  region: string;
  access_key_id: string;
  /** SecretCipher output, '' when none. */
  secret_encrypted: string;
  path_style: number;
  default_folder: string;
  custom_host: string;
  signature_expires_in: number;
  /** Bytes (bigint); null = unlimited. */
  total_capacity: number | null;
  is_default: number;
  /** Local configs: real path of the root folder; '' = the built-in DATA_DIR/storage/local (and S3 rows). */
  root_path: string;
  /** Type-specific fields that are not secret (an SFTP port, an FTP TLS mode…), one JSON object; '{}' for none. */
  options_json: string;
  created_at: string;
  updated_at: string;
}

export interface FilesTable {
  id: string;
  slug: string;
  filename: string;
  mimetype: string;
  /** Bytes (bigint). */
  size: number;
  storage_config_id: string;
  storage_path: string;
  etag: string | null;
  remark: string;
  password_hash: string | null;
  expires_at: string | null;
  max_views: number;
  views: number;
  use_proxy: number;
  created_by: string;
  created_at: string;
  updated_at: string;
  /** 0010: the mount a share made from the fs tree points into (the object is the mount's, never deleted with the share). */
  mount_id: string | null;
  /** 0016: E2eeParams as JSON for an end-to-end encrypted file (the object is a CNF1 stream), else null. */
  encryption: string | null;
}

/** A direct upload in progress (0006). `share_json`: the share's fields (password already hashed). */
export interface UploadSessionsTable {
  id: string;
  /** 'presign' | 'multipart' (file shares) | 'fs-presign' | 'fs-multipart' (direct uploads into a mount) */
  kind: string;
  storage_config_id: string;
  storage_path: string;
  upload_id: string | null;
  filename: string;
  mimetype: string;
  /** Bytes (bigint). */
  size: number;
  part_size: number;
  part_count: number;
  share_json: string;
  source_url: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}

export interface UploadPartsTable {
  session_id: string;
  part_number: number;
  etag: string;
  size: number;
  created_at: string;
}

/** Mount points (0010). Flags are 0/1; `sign_expires` seconds or null (the default expiry). */
export interface MountsTable {
  id: string;
  name: string;
  /** Normalised virtual path `/a/b`, unique. */
  path: string;
  storage_type: string;
  storage_config_id: string;
  remark: string;
  sort_order: number;
  cache_ttl: number;
  is_active: number;
  web_proxy: number;
  enable_sign: number;
  sign_expires: number | null;
  /** '302_redirect' | 'native_proxy' */
  webdav_policy: string;
  created_by: string;
  created_at: string;
  updated_at: string;
}

/** Trigger-maintained counters (0007, db/counters.ts): derived, never written by the app, never backed up. */
export interface RowCountsTable {
  table_name: string;
  n: number;
}

export interface DailyCreatedTable {
  table_name: string;
  /** YYYY-MM-DD (UTC) of created_at. */
  day: string;
  n: number;
}

export interface StorageUsageTable {
  storage_config_id: string;
  bytes: number;
  files: number;
}

/** One bucket of the secret-attempt limiter (see migration 0008). */
export interface SecretAttemptsTable {
  /** sha256 hex of kind, client and target. */
  bucket: string;
  failures: number;
  pending: number;
  /** 1 when the last reservation was granted. */
  granted: number;
  window_ends_at: string;
  pending_at: string;
  /** Once blocked (failures reached the limit; migration 0018): the client's address bucket, else null. */
  client: string | null;
  /** Once blocked: the door of the last wrong secret (login, webdav, api_key, paste, file). */
  door: string | null;
  /** Once blocked: when the block began (ISO). */
  blocked_at: string | null;
}

/** Server-side jobs (0011). type: copy | upload | delete | download; status: see contract/src/tasks.ts. */
export interface TasksTable {
  id: string;
  type: string;
  status: string;
  name: string;
  options_json: string;
  total_files: number;
  done_files: number;
  failed_files: number;
  total_bytes: number;
  bytes_done: number;
  /** Bytes per second over the last run. */
  speed: number;
  error: string | null;
  /** Id of the process running it (null when not running). */
  runner: string | null;
  /** ISO time until which `runner` holds a running task (0017); renewed while it runs. */
  lease_until: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** One file (or folder to create) of a task; status: pending | downloading | completed | failed. */
export interface TaskItemsTable {
  task_id: string;
  seq: number;
  /** Virtual paths (or a URL for URL fetches). */
  source: string;
  target: string;
  is_dir: number;
  size: number;
  bytes_done: number;
  status: string;
  /** 1 when the target existed and skipExisting left it alone. */
  skipped: number;
  error: string | null;
  updated_at: string;
}

/** The name index the fs search answers from (0011). id = hash of mount_id + rel_path. */
export interface FsIndexTable {
  id: string;
  mount_id: string;
  /** Driver-relative path inside the mount ('a/b.txt'). */
  rel_path: string;
  /** rel_path of the parent folder ('' for the mount root). */
  parent: string;
  name: string;
  name_lower: string;
  is_dir: number;
  size: number;
  last_modified: string | null;
  indexed_at: string;
}

/** A WebDAV dead property (migration 0013). */
export interface DavPropertiesTable {
  path: string;
  ns: string;
  name: string;
  /** The property element as XML. */
  value: string;
}

/** A WebDAV lock (migration 0013). */
export interface DavLocksTable {
  token: string;
  path: string;
  /** '0' | 'infinity' */
  depth: string;
  /** 'exclusive' | 'shared' */
  scope: string;
  /** The lock's DAV:owner element as XML ('' when none). */
  owner: string;
  /** creatorId() of who took it. */
  principal: string;
  timeout_seconds: number;
  expires_at: string;
  created_at: string;
}

export interface Database {
  admins: AdminsTable;
  admin_tokens: AdminTokensTable;
  admin_second_factor: AdminSecondFactorTable;
  admin_recovery_codes: AdminRecoveryCodesTable;
  admin_passkeys: AdminPasskeysTable;
  admin_challenges: AdminChallengesTable;
  api_keys: ApiKeysTable;
  settings: SettingsTable;
  daily_stats: DailyStatsTable;
  pastes: PastesTable;
  storage_configs: StorageConfigsTable;
  files: FilesTable;
  upload_sessions: UploadSessionsTable;
  upload_parts: UploadPartsTable;
  mounts: MountsTable;
  row_counts: RowCountsTable;
  daily_created: DailyCreatedTable;
  storage_usage: StorageUsageTable;
  secret_attempts: SecretAttemptsTable;
  tasks: TasksTable;
  task_items: TaskItemsTable;
  fs_index: FsIndexTable;
  dav_properties: DavPropertiesTable;
  dav_locks: DavLocksTable;
  job_runs: JobRunsTable;
  audit_log: AuditLogTable;
  folder_shares: FolderSharesTable;
  login_flows: LoginFlowsTable;
  bundle_files: BundleFilesTable;
  upload_requests: UploadRequestsTable;
  upload_request_files: UploadRequestFilesTable;
}

/** Periodic background jobs: last run, by which instance, how many runs (0017). */
export interface JobRunsTable {
  name: string;
  last_run_at: string;
  last_instance: string;
  runs: number;
}

/** The audit log (0021): append-only, swept by age only. */
export interface AuditLogTable {
  id: string;
  at: string;
  actor: string;
  actor_name: string | null;
  action: string;
  target: string | null;
  outcome: string;
  status: number;
  client: string | null;
  request_id: string | null;
  detail: string | null;
}

/** 0020: shares of more than one file (a folder of the tree). */
export interface FolderSharesTable {
  id: string;
  slug: string;
  type: string;
  name: string;
  path: string;
  remark: string;
  password_hash: string | null;
  expires_at: string | null;
  max_downloads: number;
  downloads: number;
  views: number;
  created_by: string;
  created_at: string;
  updated_at: string;
}

/** Nextcloud Login Flow v2 (0024): tokens hashed, the app password encrypted until the app collects it. */
export interface LoginFlowsTable {
  id: string;
  /** Cleared once the admin answered (the browser's link is single use). */
  login_token_hash: string | null;
  poll_token_hash: string;
  status: 'pending' | 'approved' | 'denied' | 'collected';
  client_name: string;
  user_agent: string;
  address: string;
  api_key_id: string | null;
  login_name: string | null;
  app_password_encrypted: string | null;
  created_at: string;
  expires_at: string;
}

/** 0023: the files of a bundle (a `folder_shares` row of type 'bundle'). */
export interface BundleFilesTable {
  id: string;
  share_id: string;
  file_id: string;
  name: string;
  position: number;
}

/** 0023: links others upload into. 0 in a limit: none. */
export interface UploadRequestsTable {
  id: string;
  slug: string;
  /** A folder of the tree; '' = file shares owned by the creator. */
  target_path: string;
  note: string;
  password_hash: string | null;
  max_files: number;
  max_bytes: number;
  max_file_bytes: number;
  files_received: number;
  bytes_received: number;
  expires_at: string | null;
  revoked_at: string | null;
  last_upload_at: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}

/** 0023: what arrived through an upload request. */
export interface UploadRequestFilesTable {
  id: string;
  request_id: string;
  name: string;
  size: number;
  /** Where it went: a path of the tree, or '' with `file_id` a file share. */
  path: string;
  file_id: string | null;
  created_at: string;
}

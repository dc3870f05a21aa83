export interface VersionInfo {
  name: string;
  version: string;
  node: string;
  database: 'sqlite' | 'postgres';
}

export interface HealthInfo {
  status: 'ok';
  database: 'ok';
  uptime_seconds: number;
  time: string;
}

/** One storage config as readiness sees it: listed within a few seconds (ok) or not (degraded). */
export interface StorageReadiness {
  id: string;
  name: string;
  status: 'ok' | 'degraded';
  error?: string;
}

/**
 * GET /api/health/ready: for load balancers. 200 with `ok` or `degraded` (a storage config failed its check;
 * the rest of the app works); 503 (in the error envelope's `data`) when the database is unreachable or the
 * instance is stopping (SIGTERM).
 */
export interface ReadinessInfo {
  status: 'ok' | 'degraded' | 'unavailable';
  database: 'ok' | 'unavailable';
  stopping: boolean;
  instance: string;
  storages: StorageReadiness[];
  time: string;
}

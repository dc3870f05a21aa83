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

// The ftp storage type: its options and how they map to a config's columns.
//   host + port → endpoint (`ftp://host:port`, so the one endpoint guard checks the host everywhere it checks
//   endpoints: API, backup restore, driver build), username → access_key_id, password → secret_encrypted,
//   tls_insecure → path_style, tls → options_json.
import { FTP_DEFAULT_PORT, FTP_TLS_MODES, STORAGE_TYPE_SPECS, type FtpTlsMode } from '@clipnest/contract';
import net from 'node:net';
import type { StorageConfigsTable } from '../db/schema.js';
import type { StorageDriver } from './types.js';
import { assertEndpointAllowed, decryptOrBlank, unavailableDriver } from './storageTypeHelpers.js';
import type { ConfigColumns, DriverConfig, StorageTypeContext, StorageTypeDefinition } from './storageTypes.js';

/** What the ftp driver factory takes. */
export interface FtpDriverSettings {
  host: string;
  port: number;
  username: string;
  password: string;
  tls: FtpTlsMode;
  tlsInsecure: boolean;
}

/** The endpoint column of a host and port. */
export function ftpEndpoint(host: string, port: number): string {
  return `ftp://${net.isIPv6(host) ? `[${host}]` : host}:${port}`;
}

/** Host and port of an ftp row's endpoint (blank host when it is none). */
export function ftpAddress(endpoint: string): { host: string; port: number } {
  try {
    const url = new URL(endpoint);
    return { host: url.hostname.replace(/^\[|\]$/g, ''), port: url.port ? Number(url.port) : FTP_DEFAULT_PORT };
  } catch {
    return { host: '', port: FTP_DEFAULT_PORT };
  }
}

/** The non-secret options kept in options_json (unknown or malformed JSON reads as defaults). */
export function ftpOptions(optionsJson: string | undefined): { tls: FtpTlsMode } {
  try {
    const parsed = JSON.parse(optionsJson || '{}') as { tls?: unknown };
    const tls = (FTP_TLS_MODES as readonly unknown[]).includes(parsed.tls) ? (parsed.tls as FtpTlsMode) : 'explicit';
    return { tls };
  } catch {
    return { tls: 'explicit' };
  }
}

/** The view fields of an ftp row (the password never). */
export function ftpView(row: Pick<StorageConfigsTable, 'endpoint' | 'access_key_id' | 'path_style' | 'options_json'>) {
  const { host, port } = ftpAddress(row.endpoint);
  return {
    host,
    port,
    tls: ftpOptions(row.options_json).tls,
    username: row.access_key_id,
    tls_insecure: row.path_style === 1,
  };
}

function parseJsonObject(text: string | undefined): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text || '{}');
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

export const ftpType: StorageTypeDefinition = {
  type: 'ftp',
  spec: STORAGE_TYPE_SPECS.ftp,
  secretColumns: { password: 'secret_encrypted' },
  async columns(options, ctx: StorageTypeContext, current?: Readonly<StorageConfigsTable>) {
    const o = options as Partial<Record<string, string | number | boolean>>;
    const out: ConfigColumns = {};
    if (o.host !== undefined || o.port !== undefined) {
      const was = ftpAddress(current?.endpoint ?? '');
      const host = o.host !== undefined ? String(o.host) : was.host;
      const port = o.port !== undefined ? Number(o.port) : was.port;
      const endpoint = ftpEndpoint(host, port);
      assertEndpointAllowed(ctx, 'host', endpoint);
      out.endpoint = endpoint;
    }
    if (o.username !== undefined) out.access_key_id = String(o.username);
    if (o.tls_insecure !== undefined) out.path_style = o.tls_insecure ? 1 : 0;
    if (o.tls !== undefined) {
      const kept = parseJsonObject(current?.options_json);
      out.options_json = JSON.stringify({ ...kept, tls: o.tls });
    }
    return out;
  },
  build(config: DriverConfig, ctx: StorageTypeContext): StorageDriver {
    const blocked = ctx.endpointGuard.endpointBlocked(config.endpoint);
    if (blocked) return unavailableDriver('ftp', `storage endpoint refused: ${blocked}`);
    const { host, port } = ftpAddress(config.endpoint);
    if (!host) return unavailableDriver('ftp', 'the ftp config names no host');
    return ctx.factories.ftp({
      host,
      port,
      username: config.access_key_id,
      password: decryptOrBlank(ctx.cipher, config.secret_encrypted),
      tls: ftpOptions(config.options_json).tls,
      tlsInsecure: config.path_style === 1,
    });
  },
};

// The sftp storage type: its options live in `options_json` (host, port, username, host_key_sha256, root_folder),
// its secrets (password, private_key, passphrase) in `secret_encrypted` as one encrypted JSON object.
// `endpoint` (sftp://host:port) and `access_key_id` (the username) are filled too, so views blanked for key
// holders and listings that show an endpoint need no special case.
import { STORAGE_TYPE_SPECS, type StorageConfigView } from '@clipnest/contract';
import type { StorageConfigsTable } from '../db/schema.js';
import { AppError } from '../errors.js';
import { ssh2 } from '../lib/optionalModules.js';
import type { SecretCipher } from '../security/cipher.js';
import type { ConfigColumns, StorageTypeContext, StorageTypeDefinition } from './storageTypes.js';
import { decryptOrBlank, unavailableDriver } from './storageTypeHelpers.js';

export interface SftpOptions {
  host: string;
  port: number;
  username: string;
  host_key_sha256: string;
  root_folder: string;
}

interface SftpSecrets {
  password?: string;
  private_key?: string;
  passphrase?: string;
}

const OPTION_KEYS = ['host', 'port', 'username', 'host_key_sha256', 'root_folder'] as const;
const SECRET_KEYS = ['password', 'private_key', 'passphrase'] as const;

export function sftpOptionsOf(json: string | undefined): SftpOptions {
  let parsed: Partial<SftpOptions> = {};
  try {
    parsed = JSON.parse(json || '{}') as Partial<SftpOptions>;
  } catch {
    // a damaged row: every field blank, the driver answers 503
  }
  return {
    host: typeof parsed.host === 'string' ? parsed.host : '',
    port: typeof parsed.port === 'number' ? parsed.port : 22,
    username: typeof parsed.username === 'string' ? parsed.username : '',
    host_key_sha256: typeof parsed.host_key_sha256 === 'string' ? parsed.host_key_sha256 : '',
    root_folder: typeof parsed.root_folder === 'string' ? parsed.root_folder : '',
  };
}

function secretsOf(cipher: SecretCipher, encrypted: string): SftpSecrets {
  const clear = decryptOrBlank(cipher, encrypted);
  if (!clear) return {};
  try {
    const parsed = JSON.parse(clear) as SftpSecrets;
    return typeof parsed === 'object' && parsed !== null ? parsed : {};
  } catch {
    return {};
  }
}

/** `host` as a URL host: IPv6 literals in brackets (what the endpoint guard parses). */
function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

function assertHostAllowed(ctx: StorageTypeContext, host: string): void {
  const blocked = ctx.endpointGuard.endpointBlocked(`sftp://${urlHost(host)}`);
  if (blocked)
    throw AppError.validation(`host refused: ${blocked}`, [{ path: 'host', message: `refused: ${blocked}` }]);
}

/** The view fields of an sftp config (secrets only as whether they are stored). */
export function sftpView(
  row: Pick<StorageConfigsTable, 'options_json' | 'secret_encrypted'>,
  cipher: SecretCipher,
): Partial<StorageConfigView> {
  const options = sftpOptionsOf(row.options_json);
  const secrets = secretsOf(cipher, row.secret_encrypted);
  return {
    host: options.host,
    port: options.port,
    username: options.username,
    root_folder: options.root_folder,
    host_key_sha256: options.host_key_sha256,
    has_password: !!secrets.password,
    has_private_key: !!secrets.private_key,
    has_secret: !!(secrets.password || secrets.private_key),
    secret_access_key_masked: secrets.password || secrets.private_key ? '••••' : '',
  };
}

export const sftpType: StorageTypeDefinition = {
  type: 'sftp',
  spec: STORAGE_TYPE_SPECS.sftp,
  secretColumns: { password: 'secret_encrypted', private_key: 'secret_encrypted', passphrase: 'secret_encrypted' },
  async columns(options, ctx, current) {
    const next: SftpOptions = sftpOptionsOf(current?.options_json);
    const before = { ...next };
    const sent = options as Partial<SftpOptions>;
    for (const key of OPTION_KEYS) {
      if (sent[key] !== undefined) (next as unknown as Record<string, unknown>)[key] = sent[key];
    }
    if (sent.host !== undefined) assertHostAllowed(ctx, next.host);
    // Another server: the key pinned for the old one means nothing there; the next test pins the new one.
    if (current && sent.host_key_sha256 === undefined && (next.host !== before.host || next.port !== before.port)) {
      next.host_key_sha256 = '';
    }
    const out: ConfigColumns = {
      options_json: JSON.stringify(next),
      endpoint: `sftp://${urlHost(next.host)}:${next.port}`,
      access_key_id: next.username,
    };
    return out;
  },
  secrets(input, cipher, current) {
    const next: SftpSecrets = current ? secretsOf(cipher, current.secret_encrypted) : {};
    let changed = false;
    for (const key of SECRET_KEYS) {
      const value = input[key];
      if (typeof value === 'string' && value !== '') {
        next[key] = key === 'private_key' ? `${value.trim()}\n` : value;
        changed = true;
      }
    }
    if (!changed) return {};
    if (next.private_key) {
      const parsed = ssh2().utils.parseKey(next.private_key, next.passphrase || undefined);
      if (parsed instanceof Error) {
        const field = /passphrase|encrypted|decrypt/i.test(parsed.message) ? 'passphrase' : 'private_key';
        const message =
          field === 'passphrase'
            ? 'the private key is encrypted: its passphrase is missing or wrong'
            : `the private key cannot be read: ${parsed.message}`;
        throw AppError.validation(message, [{ path: field, message }]);
      }
    }
    return { secret_encrypted: cipher.encrypt(JSON.stringify(next)) };
  },
  build(config, ctx) {
    const options = sftpOptionsOf(config.options_json);
    if (!options.host) return unavailableDriver('sftp', 'the sftp config has no host');
    // A literal address is connected to without the guarded lookup: refused here (a row restored or made by hand).
    const blocked = ctx.endpointGuard.endpointBlocked(`sftp://${urlHost(options.host)}`);
    if (blocked) return unavailableDriver('sftp', `storage endpoint refused: ${blocked}`);
    const secrets = secretsOf(ctx.cipher, config.secret_encrypted);
    return ctx.factories.sftp({
      host: options.host,
      port: options.port,
      username: options.username,
      password: secrets.password ?? '',
      privateKey: secrets.private_key ?? '',
      passphrase: secrets.passphrase ?? '',
      hostKeySha256: options.host_key_sha256,
      root: options.root_folder,
      // The first connection to an unpinned server pins its key for good, not only for this process's life.
      onHostKeyPinned: (seen) =>
        ctx.remember(config.id, (row) => {
          const stored = sftpOptionsOf(row.options_json);
          if (stored.host_key_sha256 || stored.host !== options.host || stored.port !== options.port) return undefined;
          return { options_json: JSON.stringify({ ...stored, host_key_sha256: seen }) };
        }),
    });
  },
  afterTest(driver, row) {
    const options = sftpOptionsOf(row.options_json);
    const seen = (driver as { seenHostKey?: unknown }).seenHostKey;
    if (options.host_key_sha256 || typeof seen !== 'string' || seen === '') return undefined;
    return { options_json: JSON.stringify({ ...options, host_key_sha256: seen }) };
  },
};

// One `rclone serve webdav` child process for one rclone config section, started on first use.
//
// - Bound to 127.0.0.1 on a port the kernel picks (read back from rclone's "started on" line), behind Basic
//   auth with a random user and password passed in the environment (not on the command line).
// - The section goes to rclone in a temp rclone.conf (mode 0600, in the server's tmp dir), removed when the
//   process stops. rclone may write a refreshed OAuth token into it; that copy lives as long as the process.
// - Supervised: when the process dies, the next call starts a new one; a start that failed is remembered for a
//   moment so a broken config does not spawn rclone on every request. `stop()` kills it for good.
// - No rclone binary: every call fails with StorageError('unavailable', 'rclone is not installed').
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, unwatchFile, watchFile, writeFileSync } from 'node:fs';
import path from 'node:path';
import { StorageError } from '../types.js';
import { parseRcloneSection } from '@clipnest/contract';

export interface RcloneServeOptions {
  /** The rclone binary (default `rclone` on PATH). */
  binary?: string;
  /** Where the temp rclone.conf goes (created 0700 when missing). */
  tmpDir: string;
  /** Names the temp file; any text (the config's id). */
  id: string;
  /** One rclone.conf section. */
  section: string;
  /** The remote's name in `section`. */
  remote: string;
  /**
   * rclone rewrote the temp config (it refreshed an OAuth token): the new section and the one it replaced. The
   * next process starts from the new one too, so a restart never goes back to a stale token.
   */
  onSectionChanged?: (section: string, previous: string) => void;
  /** How often the temp config is looked at for such a rewrite (default 1 s). */
  watchIntervalMs?: number;
  /** How long a start may take (default 20 s). */
  startTimeoutMs?: number;
  /** How long a failed start is answered without retrying (default 3 s). */
  retryAfterMs?: number;
}

export interface RcloneEndpoint {
  url: string;
  username: string;
  password: string;
}

interface Running {
  child: ChildProcess;
  endpoint: RcloneEndpoint;
  /** Its temp rclone.conf (one per process: an old one exiting never removes a new one's). */
  confPath: string;
}

/** The last lines rclone wrote, for an error message (ERROR/NOTICE lines, or whatever came). */
function lastLines(log: string): string {
  const lines = log
    .split('\n')
    .map((l) => l.replace(/^\d{4}\/\d\d\/\d\d \d\d:\d\d:\d\d /, '').trim())
    .filter(Boolean);
  const wanted = lines.filter((l) => /ERROR|Failed|CRITICAL/i.test(l));
  return (wanted.length > 0 ? wanted : lines).slice(-2).join('; ').slice(0, 500);
}

/** Every rclone child alive: killed when this process exits, even without a clean close. */
const alive = new Set<ChildProcess>();
let exitHook = false;
function track(child: ChildProcess): void {
  alive.add(child);
  child.once('exit', () => alive.delete(child));
  if (exitHook) return;
  exitHook = true;
  process.once('exit', () => {
    for (const c of alive) c.kill('SIGKILL');
  });
}

export class RcloneServe {
  private running: Running | undefined;
  private starting: Promise<Running> | undefined;
  private failed: { at: number; error: StorageError } | undefined;
  private stopped = false;
  private readonly tag: string;
  /** How many times a process was started (tests watch restarts). */
  starts = 0;

  constructor(private readonly options: RcloneServeOptions) {
    this.tag = options.id.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 40) || 'config';
  }

  /** The process's pid while one runs (tests kill it to prove the restart). */
  get pid(): number | undefined {
    return this.running?.child.pid;
  }

  /** The running server's address, starting it when none runs. */
  async endpoint(): Promise<RcloneEndpoint> {
    if (this.stopped) throw new StorageError('unavailable', 'the rclone storage was closed');
    if (this.running && this.running.child.exitCode === null && this.running.child.signalCode === null) {
      return this.running.endpoint;
    }
    const failed = this.failed;
    if (failed && Date.now() - failed.at < (this.options.retryAfterMs ?? 3000)) throw failed.error;
    this.starting ??= this.start().finally(() => {
      this.starting = undefined;
    });
    return (await this.starting).endpoint;
  }

  /**
   * `rclone about REMOTE: --json` with the running process's config (so a token it refreshed is used): the
   * backend's figures, 'unsupported' when the backend tells none (WebDAV without RFC 4331, FTP, …).
   */
  async about(): Promise<{ total?: number; used?: number; free?: number }> {
    await this.endpoint();
    const confPath = this.running?.confPath;
    if (!confPath) throw new StorageError('unavailable', 'rclone stopped');
    const out = await new Promise<string>((resolve, reject) => {
      execFile(
        this.options.binary ?? 'rclone',
        ['about', `${this.options.remote}:`, '--json', '--log-level', 'ERROR'],
        {
          timeout: 15_000,
          maxBuffer: 64 * 1024,
          env: {
            PATH: process.env.PATH ?? '/usr/bin:/bin',
            HOME: this.options.tmpDir,
            RCLONE_CONFIG: confPath,
            RCLONE_ASK_PASSWORD: 'false',
          },
        },
        (err, stdout, stderr) => {
          if (err) reject(new StorageError('unsupported', `rclone about: ${lastLines(String(stderr)) || err.message}`));
          else resolve(String(stdout));
        },
      );
    });
    const parsed = JSON.parse(out) as Record<string, unknown>;
    const figure = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined);
    return { total: figure(parsed.total), used: figure(parsed.used), free: figure(parsed.free) };
  }

  /** Kills the process and removes the temp config; later calls fail. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.starting?.catch(() => undefined);
    const running = this.running;
    this.running = undefined;
    if (!running) return;
    const { child } = running;
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    }
    this.takeRewrite(running.confPath);
    rmSync(running.confPath, { force: true });
  }

  /** Keeps what rclone wrote into the temp config when it is another valid section of the same remote. */
  private takeRewrite(confPath: string): void {
    let text: string;
    try {
      text = readFileSync(confPath, 'utf8');
    } catch {
      return;
    }
    const previous = this.options.section;
    if (text.trim() === previous.trim()) return;
    const parsed = parseRcloneSection(text);
    if (!parsed.ok || parsed.section.name !== this.options.remote) return;
    this.options.section = text;
    this.options.onSectionChanged?.(text, previous);
  }

  private async start(): Promise<Running> {
    try {
      const running = await this.spawnServer();
      this.failed = undefined;
      if (this.stopped) {
        running.child.kill('SIGKILL');
        rmSync(running.confPath, { force: true });
        throw new StorageError('unavailable', 'the rclone storage was closed');
      }
      this.running = running;
      return running;
    } catch (err) {
      const error =
        err instanceof StorageError ? err : new StorageError('unavailable', `rclone failed to start: ${String(err)}`);
      this.failed = { at: Date.now(), error };
      throw error;
    }
  }

  private spawnServer(): Promise<Running> {
    mkdirSync(this.options.tmpDir, { recursive: true, mode: 0o700 });
    const confPath = path.join(this.options.tmpDir, `rclone-${this.tag}-${randomBytes(6).toString('hex')}.conf`);
    writeFileSync(confPath, this.options.section, { mode: 0o600 });
    // By path, not inode: rclone saves its config through a temp file renamed over the old one.
    const check = () => this.takeRewrite(confPath);
    watchFile(confPath, { interval: this.options.watchIntervalMs ?? 1000, persistent: false }, check);
    const removeConf = () => {
      unwatchFile(confPath, check);
      check();
      rmSync(confPath, { force: true });
    };
    const username = `clipnest-${randomBytes(4).toString('hex')}`;
    const password = randomBytes(24).toString('base64url');
    this.starts++;
    const child = spawn(
      this.options.binary ?? 'rclone',
      [
        'serve',
        'webdav',
        `${this.options.remote}:`,
        '--addr',
        '127.0.0.1:0',
        // Changes made outside (the provider's own app) show at once: Clipnest's mounts cache listings themselves.
        '--dir-cache-time',
        '0s',
        '--log-level',
        'NOTICE',
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: this.options.tmpDir,
          RCLONE_CONFIG: confPath,
          RCLONE_USER: username,
          RCLONE_PASS: password,
          // No interactive prompt ever (a config password would otherwise be asked for).
          RCLONE_ASK_PASSWORD: 'false',
        },
      },
    );
    track(child);
    return new Promise<Running>((resolve, reject) => {
      let log = '';
      let settled = false;
      const settle = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        fn();
      };
      const timer = setTimeout(() => {
        settle(() => {
          child.kill('SIGKILL');
          reject(new StorageError('unavailable', `rclone did not start in time: ${lastLines(log)}`));
        });
      }, this.options.startTimeoutMs ?? 20_000);
      const onData = (chunk: Buffer) => {
        if (log.length < 64 * 1024) log += chunk.toString('utf8');
        const url = /WebDav Server started on (http:\/\/127\.0\.0\.1:\d+\/)/i.exec(log)?.[1];
        if (url) settle(() => resolve({ child, endpoint: { url, username, password }, confPath }));
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      child.once('error', (err: NodeJS.ErrnoException) => {
        removeConf();
        settle(() =>
          reject(
            err.code === 'ENOENT'
              ? new StorageError('unavailable', 'rclone is not installed')
              : new StorageError('unavailable', `rclone failed to start: ${err.message}`),
          ),
        );
      });
      child.once('exit', (code, signal) => {
        // The process is gone: the next call starts another one (the temp config is written again).
        removeConf();
        if (this.running?.child === child) this.running = undefined;
        settle(() =>
          reject(
            new StorageError(
              'unavailable',
              `rclone stopped (${signal ?? `exit ${code}`}): ${lastLines(log) || 'no output'}`,
            ),
          ),
        );
      });
    });
  }
}

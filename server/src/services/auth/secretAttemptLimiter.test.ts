import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../db/database.js';
import { AppError } from '../../errors.js';
import { SecretAttemptRepository } from '../../repositories/secretAttemptRepository.js';
import { clientBucketOf, SecretAttemptLimiter, type SecretAttempt } from './secretAttemptLimiter.js';

function fakeClock(start = Date.parse('2026-01-01T00:00:00Z')) {
  let t = start;
  return { now: () => new Date(t), advance: (ms: number) => (t += ms) };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const WINDOW = 15 * 60_000;

/** Lets the event loop run until `done()` holds (the checks under test start asynchronously). */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !done(); i++) await new Promise((r) => setImmediate(r));
  if (!done()) throw new Error('condition never held');
}
const paste = (client: string, target = 'paste-1'): SecretAttempt => ({ kind: 'paste', client, target });

async function outcome(promise: Promise<unknown>): Promise<string> {
  try {
    return String(await promise);
  } catch (error) {
    if (error instanceof AppError) return `${error.status} ${error.headers?.['Retry-After'] ?? ''}`.trim();
    throw error;
  }
}

describe('SecretAttemptLimiter (on SQLite)', () => {
  let database: DatabaseHandle;
  let store: SecretAttemptRepository;
  let clock: ReturnType<typeof fakeClock>;
  let limiter: SecretAttemptLimiter;

  beforeEach(async () => {
    database = openDatabase('sqlite::memory:');
    await migrateToLatest(database);
    store = new SecretAttemptRepository(database.db);
    clock = fakeClock();
    limiter = new SecretAttemptLimiter({ store, clock });
  });
  afterEach(async () => {
    await database.close();
  });

  const guess = (attempt: SecretAttempt, right: boolean) => limiter.attempt(attempt, async () => right);

  it('refuses the 11th attempt in a row with 429 and Retry-After, right secret included', async () => {
    for (let i = 0; i < 10; i++) expect(await guess(paste('1.1.1.1'), false)).toBe(false);
    expect(await outcome(guess(paste('1.1.1.1'), true))).toBe('429 900');
    clock.advance(10 * 60_000);
    expect(await outcome(guess(paste('1.1.1.1'), true))).toBe('429 300');
    // Another client and another target are counted apart.
    expect(await guess(paste('2.2.2.2'), true)).toBe(true);
    expect(await guess(paste('1.1.1.1', 'paste-2'), true)).toBe(true);
    // The window ends: the owner is never locked out for good.
    clock.advance(5 * 60_000);
    expect(await guess(paste('1.1.1.1'), true)).toBe(true);
  });

  it('a right secret clears the failures where the policy says so, and only gives its slot back for API keys', async () => {
    for (let i = 0; i < 9; i++) await guess(paste('c'), false);
    expect(await guess(paste('c'), true)).toBe(true);
    for (let i = 0; i < 10; i++) expect(await guess(paste('c'), false)).toBe(false);
    expect(await outcome(guess(paste('c'), true))).toBe('429 900');

    const key: SecretAttempt = { kind: 'api_key', client: 'c', target: '*' };
    for (let i = 0; i < 9; i++) await guess(key, false);
    expect(await guess(key, true)).toBe(true);
    expect(await guess(key, false)).toBe(false);
    expect(await outcome(guess(key, true))).toBe('429 900');
  });

  it('counts logins per client whatever the username', async () => {
    for (let i = 0; i < 10; i++) {
      await guess({ kind: 'login', client: '9.9.9.9', target: `user-${i}` }, false);
    }
    expect(await outcome(guess({ kind: 'login', client: '9.9.9.9', target: 'admin' }, true))).toMatch(/^429 /);
    expect(await guess({ kind: 'login', client: '8.8.8.8', target: 'admin' }, true)).toBe(true);
  });

  it('judges checks sent at once like checks sent in a row: later ones wait for those in flight', async () => {
    const checks = Array.from({ length: 20 }, () => deferred<boolean>());
    const started: number[] = [];
    const results = checks.map((d, i) =>
      outcome(
        limiter.attempt(paste('p'), () => {
          started.push(i);
          return d.promise;
        }),
      ),
    );
    await until(() => started.length === 10);
    // Ten slots: ten checks run, the rest wait for their outcome.
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for (let i = 0; i < 10; i++) checks[i]!.resolve(false);
    // The right secret was last: refused like every other guess past the tenth.
    expect(await Promise.all(results)).toEqual([...Array(10).fill('false'), ...Array(10).fill('429 900')]);
    expect(started).toHaveLength(10);
  });

  it('lets a waiting check run when one in flight turns out right (no 429 for parallel right secrets)', async () => {
    const checks = Array.from({ length: 15 }, () => deferred<boolean>());
    const started: number[] = [];
    const results = checks.map((d, i) =>
      limiter.attempt(paste('ok'), () => {
        started.push(i);
        return d.promise;
      }),
    );
    await until(() => started.length === 10);
    for (const d of checks) d.resolve(true);
    expect(await Promise.all(results)).toEqual(Array(15).fill(true));
  });

  it('does not count a check that throws, and gives its slot back', async () => {
    for (let i = 0; i < 10; i++) {
      await expect(
        limiter.attempt(paste('t'), async () => {
          throw new Error('storage down');
        }),
      ).rejects.toThrow('storage down');
    }
    expect(await guess(paste('t'), true)).toBe(true);
  });

  it('treats a slot held longer than a minute as lost (a crashed process) and sweeps ended windows', async () => {
    const stuck = Array.from({ length: 10 }, () => deferred<boolean>());
    let running = 0;
    const held = stuck.map((d) =>
      limiter.attempt(paste('s'), () => {
        running++;
        return d.promise;
      }),
    );
    await until(() => running === 10);
    clock.advance(61_000);
    expect(await guess(paste('s'), true)).toBe(true);
    for (const d of stuck) d.resolve(false);
    await Promise.all(held);
    clock.advance(WINDOW);
    expect(await limiter.sweep()).toBeGreaterThan(0);
    expect(await database.db.selectFrom('secret_attempts').selectAll().execute()).toEqual([]);
  });

  it('stores only a hash of client and target', async () => {
    await guess({ kind: 'login', client: '5.6.7.8', target: 'someone' }, false);
    const rows = await database.db.selectFrom('secret_attempts').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toMatch(/5\.6\.7\.8|someone/);
    expect(rows[0]?.bucket).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('clientBucketOf', () => {
  it.each([
    ['203.0.113.9', '203.0.113.9'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    ['2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:DB8:0001:0002:0:0:0:9', '2001:db8:1:2::/64'],
    ['2001:db8::7', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['unknown', 'unknown'],
  ])('%s counts as %s', (address, bucket) => {
    expect(clientBucketOf(address)).toBe(bucket);
  });
});

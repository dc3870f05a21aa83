import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../lib/logger.js';
import type { AuditLogRepository, AuditRow } from '../../../repositories/auditLogRepository.js';
import { actorOf, AuditLog, outcomeOf, storable } from './auditLog.js';

function fakeRepo(options: { failures?: number } = {}) {
  const rows: AuditRow[] = [];
  let failures = options.failures ?? 0;
  let inserts = 0;
  const repo = {
    async insertMany(batch: AuditRow[]) {
      inserts++;
      if (failures > 0) {
        failures--;
        throw new Error('database down');
      }
      rows.push(...batch);
    },
  } as unknown as AuditLogRepository;
  return { repo, rows, inserts: () => inserts };
}

const settings = { get: async () => 180 } as never;
const clock = { now: () => new Date('2026-01-01T00:00:00Z') };

describe('AuditLog', () => {
  it('queues without writing, then writes one batch', async () => {
    const { repo, rows, inserts } = fakeRepo();
    const audit = new AuditLog({ repo, settings, clock, logger: createLogger('silent'), flushDelayMs: 60_000 });
    for (let i = 0; i < 3; i++) audit.record({ action: 'paste.create', target: `id=${i}`, status: 201 });
    expect(rows).toEqual([]);
    expect(audit.pending).toBe(3);
    await audit.flush();
    expect(inserts()).toBe(1);
    expect(rows.map((r) => r.target)).toEqual(['id=0', 'id=1', 'id=2']);
    // ids sort in the order entries were made, even within one millisecond
    expect([...rows.map((r) => r.id)].sort()).toEqual(rows.map((r) => r.id));
    await audit.close();
  });

  it('bounds the queue and records how many entries it dropped', async () => {
    const { repo, rows } = fakeRepo();
    const audit = new AuditLog({
      repo,
      settings,
      clock,
      logger: createLogger('silent'),
      maxQueue: 5,
      flushDelayMs: 60_000,
    });
    for (let i = 0; i < 8; i++) audit.record({ action: 'fs.write' });
    expect(audit.pending).toBe(5);
    await audit.close();
    expect(rows.filter((r) => r.action === 'fs.write')).toHaveLength(5);
    expect(rows.find((r) => r.action === 'audit.dropped')?.detail).toBe('3 entries dropped: the queue was full');
  });

  it('keeps a batch the database refused and writes it on the next flush', async () => {
    const { repo, rows } = fakeRepo({ failures: 1 });
    const audit = new AuditLog({ repo, settings, clock, logger: createLogger('silent'), flushDelayMs: 60_000 });
    audit.record({ action: 'mount.delete' });
    await audit.flush();
    expect(rows).toEqual([]);
    expect(audit.pending).toBe(1);
    await audit.close();
    expect(rows.map((r) => r.action)).toEqual(['mount.delete']);
  });

  it('scrubs secrets that slip into a target or detail and clips long text', async () => {
    const { repo, rows } = fakeRepo();
    const audit = new AuditLog({ repo, settings, clock, logger: createLogger('silent'), flushDelayMs: 60_000 });
    audit.record({ action: 'x.y', target: 'url=https://h/x?password=hunter2', detail: 'ApiKey cn_abcdefghijkl' });
    audit.record({ action: 'x.y', target: 'p'.repeat(5000) });
    await audit.close();
    expect(JSON.stringify(rows)).not.toMatch(/hunter2|cn_abcdefghijkl/);
    expect(rows[1]?.target?.length).toBe(1024);
  });

  it('names actors and outcomes', () => {
    expect(actorOf(null)).toEqual({ actor: 'anonymous', actor_name: null });
    expect(actorOf({ type: 'admin', adminId: 'a1', username: 'root', tokenHash: '', expiresAt: '' }).actor).toBe(
      'admin:root',
    );
    expect(
      actorOf({
        type: 'apikey',
        keyId: 'k1',
        name: 'ci',
        permissions: 1,
        basicPath: '/',
        isGuest: 0,
        role: 'GENERAL',
        expiresAt: null,
      }),
    ).toEqual({ actor: 'apikey:k1', actor_name: 'ci' });
    expect([200, 201, 302, 400, 401, 403, 404, 409, 429, 500, 503].map(outcomeOf)).toEqual([
      'success',
      'success',
      'success',
      'failure',
      'denied',
      'denied',
      'failure',
      'failure',
      'denied',
      'error',
      'error',
    ]);
  });

  it('stores text every database takes: NUL and lone surrogates become U+FFFD', () => {
    expect(storable('a\u0000b')).toBe('a\uFFFDb');
    expect(storable('x\uD800y\uDC00')).toBe('x\uFFFDy\uFFFD');
    expect(storable('ok 😀')).toBe('ok 😀');
    const { repo, rows } = fakeRepo();
    const audit = new AuditLog({ repo, settings, clock, logger: createLogger('silent'), flushDelayMs: 60_000 });
    audit.record({ action: 'fs.write', target: 'path=/a\u0000b' });
    return audit.close().then(() => expect(rows[0]?.target).toBe('path=/a\uFFFDb'));
  });

  it('a row the database refuses does not hold up the others, and the gap is on record', async () => {
    const rows: AuditRow[] = [];
    const repo = {
      async insertMany(batch: AuditRow[]) {
        if (batch.some((r) => r.target?.includes('poison')))
          throw Object.assign(new Error('bad data'), { code: '22021' });
        rows.push(...batch);
      },
    } as unknown as AuditLogRepository;
    const audit = new AuditLog({ repo, settings, clock, logger: createLogger('silent'), flushDelayMs: 60_000 });
    audit.record({ action: 'fs.write', target: 'one' });
    audit.record({ action: 'fs.write', target: 'poison' });
    audit.record({ action: 'fs.write', target: 'three' });
    await audit.flush();
    audit.record({ action: 'fs.write', target: 'four' });
    await audit.close();
    expect(rows.filter((r) => r.action === 'fs.write').map((r) => r.target)).toEqual(['one', 'three', 'four']);
    expect(rows.find((r) => r.action === 'audit.dropped')?.detail).toBe('1 entries dropped: the database refused them');
  });
});

import { describe, expect, it } from 'vitest';
import { ConcurrencyGate } from './concurrencyGate.js';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('ConcurrencyGate', () => {
  it('runs at most max tasks at once, queues the next ones in order, refuses beyond the queue', async () => {
    const gate = new ConcurrencyGate({ max: 2, queue: 2, onFull: () => new Error('full') });
    const order: number[] = [];
    const blockers = [deferred(), deferred(), deferred(), deferred()];
    const runs = blockers.map((b, i) =>
      gate.run(async () => {
        order.push(i);
        await b.promise;
        return i;
      }),
    );
    await Promise.resolve();
    expect(gate.active).toBe(2);
    expect(gate.queued).toBe(2);
    expect(order).toEqual([0, 1]);
    await expect(gate.run(async () => 9)).rejects.toThrow('full');
    blockers[1]!.resolve();
    await runs[1];
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual([0, 1, 2]);
    expect(gate.active).toBe(2);
    for (const b of blockers) b.resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3]);
    expect(gate.active).toBe(0);
    expect(gate.queued).toBe(0);
  });

  it('frees the slot when a task throws', async () => {
    const gate = new ConcurrencyGate({ max: 1, queue: 0, onFull: () => new Error('full') });
    await expect(
      gate.run(async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await gate.run(async () => 'ok')).toBe('ok');
  });
});

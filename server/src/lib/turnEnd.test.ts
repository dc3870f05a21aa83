import { describe, expect, it } from 'vitest';
import { releaseAtTurnEnd, writeAtTurnEnd } from './turnEnd.js';

const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('turnEnd', () => {
  it('sends an answer made after a write of this turn in this turn, before what the turn queued after it', async () => {
    const order: string[] = [];
    writeAtTurnEnd(() => {
      order.push('write');
      // A handler resumed by the write builds its answer a few microtasks later.
      void Promise.resolve()
        .then(() => Promise.resolve())
        .then(() => releaseAtTurnEnd(() => order.push('answer')));
    });
    setImmediate(() => order.push('queued after, same turn'));
    await nextTurn();
    expect(order).toEqual(['write', 'answer', 'queued after, same turn']);
  });

  it('runs the answers of a turn in the order they were made, after its writes', async () => {
    const order: string[] = [];
    releaseAtTurnEnd(() => order.push('a'));
    writeAtTurnEnd(() => order.push('w'));
    releaseAtTurnEnd(() => order.push('b'));
    await nextTurn();
    expect(order).toEqual(['w', 'a', 'b']);
  });

  it('keeps work asked for between the two steps for the next turn', async () => {
    const order: string[] = [];
    writeAtTurnEnd(() => {
      order.push('first write');
      // After this step: too late for this turn's writes.
      void Promise.resolve().then(() => writeAtTurnEnd(() => order.push('second write')));
    });
    releaseAtTurnEnd(() => order.push('answer'));
    await nextTurn();
    expect(order).toEqual(['first write', 'answer', 'second write']);
  });
});

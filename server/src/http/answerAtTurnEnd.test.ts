import { describe, expect, it } from 'vitest';
import { answerAtTurnEnd } from './answerAtTurnEnd.js';
import type { Fetch } from './sendfileEdge.js';

const env = {} as Parameters<Fetch>[1];
const request = (path: string) => new Request(`http://127.0.0.1${path}`);

describe('answerAtTurnEnd', () => {
  it('hands over the answers of one turn together, at its end, in the order they were made', async () => {
    const order: string[] = [];
    const fetch = answerAtTurnEnd((req) => new Response(new URL(req.url).pathname));
    const answers = ['/a', '/b', '/c'].map(async (path) => {
      const res = await fetch(request(path), env);
      order.push(await res.text());
    });
    // Still this turn: nothing handed over yet.
    await Promise.resolve();
    await Promise.resolve();
    expect(order).toEqual([]);
    await Promise.all(answers);
    expect(order).toEqual(['/a', '/b', '/c']);
  });

  it('hands over an answer made in a later turn at the end of that turn', async () => {
    const fetch = answerAtTurnEnd(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return new Response('late', { status: 201, headers: { 'X-Kept': 'yes' } });
    });
    const res = await fetch(request('/late'), env);
    expect(res.status).toBe(201);
    expect(res.headers.get('x-kept')).toBe('yes');
    expect(await res.text()).toBe('late');
  });

  it('passes a failure through at once', async () => {
    const fetch = answerAtTurnEnd(() => Promise.reject(new Error('broken')));
    await expect(fetch(request('/x'), env)).rejects.toThrow('broken');
  });
});

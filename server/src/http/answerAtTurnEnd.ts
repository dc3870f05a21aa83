import { releaseAtTurnEnd } from '../lib/turnEnd.js';
import type { Fetch } from './sendfileEdge.js';

/**
 * Hands each answer to the HTTP layer at the end of the event-loop turn in which it was made, together with the
 * other answers of that turn, instead of one by one between the handlers.
 *
 * Under load Node reads and handles many requests in one turn. Written as each handler returned, every answer's
 * send ran the kernel's network path between two handlers, and a peer on the same host (a reverse proxy, the
 * benchmark's load generator) was woken once per answer. Written together, the sends follow one another and the
 * peer wakes once for the batch. At low load an answer waits only for the `setImmediate` of its own turn
 * (bench/paste.bench.mjs and docs/benchmarks.md measure both). Answers that wait for a grouped write of the same
 * turn go out after it, in the same turn (lib/turnEnd.ts).
 */
export function answerAtTurnEnd(fetch: Fetch): Fetch {
  const turnEnd = () => new Promise<void>((resolve) => releaseAtTurnEnd(resolve));
  return async (request, env) => {
    const response = await fetch(request, env);
    await turnEnd();
    return response;
  };
}

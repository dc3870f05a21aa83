// Work deferred to the end of the current event-loop turn, in two steps: first the writes requests wait for
// (grouped inserts), then the answers. Both steps are queued as immediates together, and Node runs every
// microtask between two immediates: handlers that finish after a write (the write resolves their promise) make
// their answers before the second step, so those answers go out in this turn. An answer's own immediate, queued
// when the write had already started, would run only in the next turn, after the next poll for requests: under
// load a whole turn later (docs/benchmarks.md, Pastes against CloudPaste).

type Task = () => void;

let writes: Task[] = [];
let answers: Task[] = [];
let scheduled = false;

function runWrites(): void {
  const batch = writes;
  writes = [];
  for (const task of batch) task();
}

function runAnswers(): void {
  scheduled = false;
  const batch = answers;
  answers = [];
  for (const task of batch) task();
  // Asked for after the writes ran (a batch too large for one write): the next turn.
  if (writes.length > 0 || answers.length > 0) schedule();
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(runWrites);
  setImmediate(runAnswers);
}

/** Runs `task` at the end of this turn, before the turn's answers go out. */
export function writeAtTurnEnd(task: Task): void {
  writes.push(task);
  schedule();
}

/** Runs `task` at the end of this turn, after its writes and what their callers did next. */
export function releaseAtTurnEnd(task: Task): void {
  answers.push(task);
  schedule();
}

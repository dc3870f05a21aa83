/**
 * At most `max` tasks run at once; up to `queue` more wait their turn (first come, first served) and
 * any beyond that are refused at once with `onFull()`, so a burst neither piles up nor starves the rest.
 */
export class ConcurrencyGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly options: { max: number; queue: number; onFull: () => Error }) {}

  get active(): number {
    return this.running;
  }

  get queued(): number {
    return this.waiting.length;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.options.max) {
      if (this.waiting.length >= this.options.queue) throw this.options.onFull();
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next task in line, so `running` never dips and lets a newcomer in.
      if (next) next();
      else this.running--;
    }
  }
}

/**
 * Upload speed and time left from (time, bytes) samples over a sliding window, so one slow or
 * bursty progress event does not make the numbers jump.
 */
export class SpeedMeter {
  private samples: { t: number; bytes: number }[] = [];

  constructor(private readonly windowMs = 3000) {}

  /** Records the total bytes done at time `t` (ms). */
  add(bytes: number, t: number): void {
    this.samples.push({ t, bytes });
    const cutoff = t - this.windowMs;
    while (this.samples.length > 2 && this.samples[1]!.t <= cutoff) this.samples.shift();
  }

  /** Bytes per second, or null when fewer than 250 ms of samples exist. */
  speed(): number | null {
    if (this.samples.length < 2) return null;
    const first = this.samples[0]!;
    const last = this.samples[this.samples.length - 1]!;
    const dt = last.t - first.t;
    if (dt < 250) return null;
    return Math.max(0, ((last.bytes - first.bytes) * 1000) / dt);
  }

  /** Seconds left for `total` bytes at the current speed; null when unknown. */
  eta(total: number): number | null {
    const speed = this.speed();
    const last = this.samples[this.samples.length - 1];
    if (!speed || !last) return null;
    return Math.max(0, (total - last.bytes) / speed);
  }

  reset(): void {
    this.samples = [];
  }
}

import { describe, expect, it } from 'vitest';
import { LoginRateLimiter } from './loginRateLimiter.js';

function fakeClock(start = 0) {
  let t = start;
  return { now: () => new Date(t), advance: (ms: number) => (t += ms) };
}

describe('LoginRateLimiter', () => {
  it('blocks after 5 failures in 15 minutes, per client and username', () => {
    const clock = fakeClock(1_000_000);
    const limiter = new LoginRateLimiter(clock);
    for (let i = 0; i < 4; i++) limiter.recordFailure('1.1.1.1', 'Admin');
    expect(limiter.retryAfterSeconds('1.1.1.1', 'admin')).toBe(0);
    limiter.recordFailure('1.1.1.1', 'admin');
    expect(limiter.retryAfterSeconds('1.1.1.1', 'ADMIN')).toBe(900);
    expect(limiter.retryAfterSeconds('2.2.2.2', 'admin')).toBe(0);
    expect(limiter.retryAfterSeconds('1.1.1.1', 'other')).toBe(0);
    clock.advance(10 * 60 * 1000);
    expect(limiter.retryAfterSeconds('1.1.1.1', 'admin')).toBe(300);
    clock.advance(5 * 60 * 1000);
    expect(limiter.retryAfterSeconds('1.1.1.1', 'admin')).toBe(0);
  });

  it('forgets failures after a success', () => {
    const limiter = new LoginRateLimiter(fakeClock());
    for (let i = 0; i < 5; i++) limiter.recordFailure('c', 'u');
    limiter.reset('c', 'u');
    expect(limiter.retryAfterSeconds('c', 'u')).toBe(0);
  });
});

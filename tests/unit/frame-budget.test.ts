import { describe, expect, it } from 'vitest';
import { FrameBudget, TokenBucket } from '../../server/sockets/rate-limit';

describe('a connection\'s frame budget (injected clock)', () => {
  const make = (clock: { t: number }) => {
    const now = () => clock.t;
    const address = new TokenBucket({ perSecond: 1000, burst: 1000 }, now);
    return new FrameBudget({ perSecond: 10, burst: 3 }, address, 5, 10_000, now);
  };

  it('passes the burst, warns once, drops silently, then asks for the close', () => {
    const clock = { t: 0 };
    const budget = make(clock);
    const seen = Array.from({ length: 10 }, () => budget.admit());
    expect(seen).toEqual(['ok', 'ok', 'ok', 'warn', 'drop', 'drop', 'drop', 'drop', 'close', 'close']);
  });

  it('refills with time; a connection calm again is warned again only after warnEveryMs', () => {
    const clock = { t: 0 };
    const budget = make(clock);
    expect([budget.admit(), budget.admit(), budget.admit(), budget.admit()]).toEqual(['ok', 'ok', 'ok', 'warn']);
    clock.t += 1_000; // the drop has decayed, the bucket refilled, but the warning is recent
    expect([budget.admit(), budget.admit(), budget.admit(), budget.admit()]).toEqual(['ok', 'ok', 'ok', 'drop']);
    clock.t += 10_000;
    expect([budget.admit(), budget.admit(), budget.admit(), budget.admit()]).toEqual(['ok', 'ok', 'ok', 'warn']);
  });

  it('a shared bucket (the account\'s) limits every connection that holds it', () => {
    const clock = { t: 0 };
    const now = () => clock.t;
    const address = new TokenBucket({ perSecond: 1000, burst: 1000 }, now);
    const account = new TokenBucket({ perSecond: 1, burst: 4 }, now);
    const a = new FrameBudget({ perSecond: 10, burst: 3 }, address, 5, 10_000, now);
    const b = new FrameBudget({ perSecond: 10, burst: 3 }, address, 5, 10_000, now);
    a.account = account;
    b.account = account;
    expect([a.admit(), a.admit(), b.admit(), b.admit(), b.admit(), a.admit()]).toEqual(['ok', 'ok', 'ok', 'ok', 'warn', 'warn']);
  });
});

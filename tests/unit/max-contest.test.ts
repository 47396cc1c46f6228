import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contest, exhaustedBy, type ContestItem } from '../../server/auction/max-bids';
import { TEST_SEED } from '../server/seed';

const item = (over: Partial<ContestItem> = {}): ContestItem => ({ leaderId: null, amount: 100, startPrice: 100, minIncrement: 10, ...over });

describe('contest', () => {
  it('the higher max wins at the lower plus the increment, capped at its own; equal maxima: the first set', () => {
    expect(contest(item(), [{ userId: 1, max: 500, seq: 1 }])).toEqual({ userId: 1, amount: 100 });
    expect(contest(item({ leaderId: 1, amount: 100 }), [{ userId: 1, max: 500, seq: 1 }, { userId: 2, max: 300, seq: 2 }])).toEqual({ userId: 1, amount: 310 });
    expect(contest(item({ leaderId: 1, amount: 100 }), [{ userId: 1, max: 500, seq: 1 }, { userId: 2, max: 495, seq: 2 }])).toEqual({ userId: 1, amount: 500 });
    expect(contest(item({ leaderId: 1, amount: 100 }), [{ userId: 1, max: 500, seq: 2 }, { userId: 2, max: 500, seq: 1 }])).toEqual({ userId: 2, amount: 500 });
    // a manual leader and a max above the next minimum: the max bids the next minimum
    expect(contest(item({ leaderId: 3, amount: 200 }), [{ userId: 1, max: 500, seq: 1 }])).toEqual({ userId: 1, amount: 210 });
    // a max below the next minimum takes no part, and is exhausted
    expect(contest(item({ leaderId: 3, amount: 200 }), [{ userId: 1, max: 205, seq: 1 }])).toBeNull();
    expect(exhaustedBy(item({ leaderId: 3, amount: 200 }), [{ userId: 1, max: 205, seq: 1 }])).toEqual([{ userId: 1, max: 205, seq: 1 }]);
  });

  it('50 maxima resolve at once: the highest (the first set on a tie) leads at the least that beats every other, within its own max, and leaves only itself able to bid', () => {
    const maxima = fc.uniqueArray(fc.record({ userId: fc.integer({ min: 1, max: 500 }), max: fc.integer({ min: 1, max: 5_000 }) }), { selector: (m) => m.userId, minLength: 1, maxLength: 50 });
    const start = fc.record({ leaderId: fc.option(fc.integer({ min: 1000, max: 1001 }), { nil: null }), amount: fc.integer({ min: 1, max: 3_000 }), startPrice: fc.integer({ min: 1, max: 500 }), minIncrement: fc.integer({ min: 1, max: 50 }) });
    fc.assert(
      fc.property(start, maxima, (s, list) => {
        const first: ContestItem = s.leaderId === null ? { ...s, amount: s.startPrice } : s;
        const standing = list.map((m, i) => ({ ...m, seq: i + 1 }));
        const next = first.leaderId === null ? first.startPrice : first.amount + first.minIncrement;
        const able = standing.filter((m) => m.max >= next).sort((a, b) => b.max - a.max || a.seq - b.seq);
        const bid = contest(first, standing);
        if (able.length === 0) {
          expect(bid).toBeNull();
          return;
        }
        const [top, second] = able;
        // the rule as written: the higher wins at the lower max plus the increment, never above its own, at least the next minimum
        expect(bid).toEqual({ userId: top.userId, amount: second ? Math.max(next, Math.min(top.max, second.max + first.minIncrement)) : next });
        const after = { ...first, leaderId: top.userId, amount: (bid as { amount: number }).amount };
        // at rest: nobody but the leader can still bid, every other max is exhausted
        expect(contest(after, standing)).toBeNull();
        expect(exhaustedBy(after, standing).length).toBe(standing.length - 1);
      }),
      { seed: TEST_SEED, numRuns: 300 },
    );
  });
});

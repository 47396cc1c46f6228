import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor } from 'xstate';
import type { Item } from '../../src/protocol/socket';
import { phaseAfter, type ItemPhase } from '../../src/auction/item-fold';
import { itemMachine, type ItemUpdate } from '../../src/machines/item.machine';
import { T0, bidOf, itemOf } from './support/fixtures';

/**
 * One item actor under a simulated clock that starts at server time T0: server time is the actor
 * system's clock plus the board's offset (`serverAhead`, when the test says the server's clock
 * runs ahead of the local one). Updates go in as the board sends them: APPLY, one or many, with
 * the phase the board's fold gives the item after them (here: from the phase the item is in).
 */
function startItem(options: { snapshot?: Item; serverAhead?: number } = {}) {
  const clock = new SimulatedClock();
  const ahead = options.serverAhead ?? 0;
  clock.set(T0 - ahead);
  const actor = createActor(itemMachine, {
    clock,
    input: { itemId: 3, offset: ahead, snapshot: options.snapshot, phase: options.snapshot?.state as 'live' | 'finished' | undefined },
  }).start();
  const apply = (updates: readonly ItemUpdate[]) => {
    const value = actor.getSnapshot().value;
    const phase = updates.reduce<ItemPhase>(phaseAfter, typeof value === 'string' ? value : 'live');
    actor.send({ type: 'APPLY', phase, updates });
  };
  return {
    clock,
    actor,
    send: (update: ItemUpdate) => apply([update]),
    apply,
    value: () => actor.getSnapshot().value,
    ctx: () => actor.getSnapshot().context,
  };
}

const OPEN = { live: 'open' };
const CLOSING = { live: 'closing' };
const STARTED: ItemUpdate = { type: 'STARTED', itemName: 'Golden Key', start_price: 100, endsAt: T0 + 30_000 };

describe('item machine', () => {
  it('starts in none, led by nobody (`server`) at 0', () => {
    const t = startItem();
    expect(t.value()).toBe('none');
    expect(t.ctx()).toMatchObject({ itemId: 3, itemName: '', amount: 0, username: 'server', endsAt: 0, sold: null, snapshotState: null });
  });

  it('without an event it stays in none however long the clock runs', () => {
    const t = startItem();
    t.clock.increment(3_600_000);
    expect(t.value()).toBe('none');
  });

  describe('none → live', () => {
    it('STARTED makes it live and open at its start price, led by `server`', () => {
      const t = startItem();
      t.send(STARTED);
      expect(t.value()).toEqual(OPEN);
      expect(t.ctx()).toMatchObject({ itemName: 'Golden Key', amount: 100, start_price: 100, username: 'server', endsAt: T0 + 30_000 });
    });

    it('a BID makes it live and open with the bid as the lead', () => {
      const t = startItem();
      t.send({ type: 'BID', bid: bidOf({ amount: 150, username: 'Beorn', endsAt: T0 + 45_000 }) });
      expect(t.value()).toEqual(OPEN);
      expect(t.ctx()).toMatchObject({ itemName: 'Golden Key', amount: 150, username: 'Beorn', endsAt: T0 + 45_000 });
    });
  });

  describe('the countdown (server time from `now`, never from when a frame came)', () => {
    it('is open until `endsAt` on the clock, then closing', () => {
      const t = startItem();
      t.send(STARTED);
      t.clock.increment(29_999);
      expect(t.value()).toEqual(OPEN);
      t.clock.increment(1);
      expect(t.value()).toEqual(CLOSING);
    });

    it('closing waits for the server: no time makes it finished on its own', () => {
      const t = startItem();
      t.send(STARTED);
      t.clock.increment(30_000);
      t.clock.increment(3_600_000);
      expect(t.value()).toEqual(CLOSING);
      expect(t.ctx().sold).toBeNull();
    });

    it('counts to `endsAt` from the moment the event came, not for `timer` seconds after it', () => {
      const t = startItem();
      t.clock.increment(20_000); // the item is told about 20 s into its 30 s
      t.send(STARTED);
      t.clock.increment(9_999);
      expect(t.value()).toEqual(OPEN);
      t.clock.increment(1);
      expect(t.value()).toEqual(CLOSING);
    });

    it('reads server time through the `now` input: a server 5 s ahead of the local clock ends 5 s sooner locally', () => {
      const t = startItem({ serverAhead: 5_000 }); // local clock at T0 − 5 s, server at T0
      t.send(STARTED);
      t.clock.increment(29_999);
      expect(t.value()).toEqual(OPEN);
      t.clock.increment(1);
      expect(t.value()).toEqual(CLOSING);
      expect(t.clock.now()).toBe(T0 + 25_000);
    });

    it('RESYNC (a new server-time estimate) re-reads `now` and moves the local end; it does not reopen a closed countdown', () => {
      const clock = new SimulatedClock();
      clock.set(T0);
      const actor = createActor(itemMachine, { clock, input: { itemId: 3, offset: 0 } }).start();
      actor.send({ type: 'APPLY', phase: 'live', updates: [STARTED] }); // ends at T0 + 30 s, i.e. local T0 + 30 s for now
      clock.increment(10_000);
      // the server turns out to be 5 s further on
      actor.send({ type: 'RESYNC', offset: 5_000 });
      clock.increment(14_999);
      expect(actor.getSnapshot().value).toEqual(OPEN);
      clock.increment(1); // local T0 + 25 s = server T0 + 30 s
      expect(actor.getSnapshot().value).toEqual(CLOSING);
      actor.send({ type: 'RESYNC', offset: 5_000 });
      expect(actor.getSnapshot().value).toEqual(CLOSING);
    });

    it('an item whose end already passed when it went live is closing at the next tick', () => {
      const t = startItem();
      t.clock.increment(40_000);
      t.send(STARTED); // ended 10 s ago
      t.clock.increment(0);
      expect(t.value()).toEqual(CLOSING);
    });

    it('a raising bid that extends the end (soft close) restarts the countdown to the new end', () => {
      const t = startItem();
      t.send(STARTED);
      t.clock.increment(25_000);
      t.send({ type: 'BID', bid: bidOf({ amount: 110, timestamp: T0 + 25_000, endsAt: T0 + 40_000 }) });
      expect(t.value()).toEqual(OPEN);
      t.clock.increment(14_999); // T0 + 39.999 s
      expect(t.value()).toEqual(OPEN);
      t.clock.increment(1);
      expect(t.value()).toEqual(CLOSING);
    });

    it('a raising bid while closing (the server accepted it before the end) reopens it until its new end', () => {
      const t = startItem();
      t.send(STARTED);
      t.clock.increment(30_500);
      expect(t.value()).toEqual(CLOSING);
      t.send({ type: 'BID', bid: bidOf({ amount: 120, username: 'Beorn', timestamp: T0 + 29_900, endsAt: T0 + 45_000 }) });
      expect(t.value()).toEqual(OPEN);
      expect(t.ctx()).toMatchObject({ amount: 120, username: 'Beorn', endsAt: T0 + 45_000 });
      t.clock.increment(14_499);
      expect(t.value()).toEqual(OPEN);
      t.clock.increment(1);
      expect(t.value()).toEqual(CLOSING);
    });
  });

  describe('stale and duplicate frames change nothing', () => {
    function withLead() {
      const t = startItem();
      t.send(STARTED);
      t.send({ type: 'BID', bid: bidOf({ amount: 200, username: 'Aethelred', timestamp: T0 + 1_000, endsAt: T0 + 30_000 }) });
      return t;
    }

    it('the first bid at the start price is taken (the lead is `server`)', () => {
      const t = startItem();
      t.send(STARTED);
      t.send({ type: 'BID', bid: bidOf({ amount: 100, username: 'Beorn' }) });
      expect(t.ctx()).toMatchObject({ amount: 100, username: 'Beorn' });
    });

    it('a lower bid that comes after a higher one is ignored, and does not move the end', () => {
      const t = withLead();
      const before = t.ctx();
      t.send({ type: 'BID', bid: bidOf({ amount: 150, username: 'Beorn', timestamp: T0 + 500, endsAt: T0 + 60_000 }) });
      expect(t.ctx()).toEqual(before);
      t.clock.increment(30_000);
      expect(t.value()).toEqual(CLOSING);
    });

    it('an equal bid loses: the lead stays', () => {
      const t = withLead();
      t.send({ type: 'BID', bid: bidOf({ amount: 200, username: 'Beorn', timestamp: T0 + 2_000, endsAt: T0 + 50_000 }) });
      expect(t.ctx()).toMatchObject({ amount: 200, username: 'Aethelred', endsAt: T0 + 30_000 });
    });

    it('the same bid twice is the same as once, and does not restart the countdown', () => {
      const t = withLead();
      t.clock.increment(20_000);
      t.send({ type: 'BID', bid: bidOf({ amount: 200, username: 'Aethelred', timestamp: T0 + 1_000, endsAt: T0 + 30_000 }) });
      expect(t.ctx()).toMatchObject({ amount: 200, username: 'Aethelred', endsAt: T0 + 30_000 });
      t.clock.increment(10_000);
      expect(t.value()).toEqual(CLOSING);
    });

    it('a second STARTED while live does not reset the lead to `server`', () => {
      const t = withLead();
      t.send(STARTED);
      expect(t.ctx()).toMatchObject({ amount: 200, username: 'Aethelred' });
      expect(t.value()).toEqual(OPEN);
    });
  });

  describe('live → finished', () => {
    it('SOLD finishes it, sold to the buyer for the amount', () => {
      const t = startItem();
      t.send(STARTED);
      t.send({ type: 'BID', bid: bidOf({ amount: 200, username: 'Beorn' }) });
      t.clock.increment(30_000);
      t.send({ type: 'SOLD', itemName: 'Golden Key', username: 'Beorn', amount: 200 });
      expect(t.value()).toBe('finished');
      expect(t.ctx()).toMatchObject({ sold: true, username: 'Beorn', amount: 200 });
    });

    it('SOLD finishes it even while still open (the server decides)', () => {
      const t = startItem();
      t.send(STARTED);
      t.send({ type: 'SOLD', itemName: 'Golden Key', username: 'Cynric', amount: 140 });
      expect(t.value()).toBe('finished');
      expect(t.ctx()).toMatchObject({ sold: true, username: 'Cynric', amount: 140 });
    });

    it('NO_BUYER finishes it unsold', () => {
      const t = startItem();
      t.send(STARTED);
      t.clock.increment(30_000);
      t.send({ type: 'NO_BUYER', itemName: 'Golden Key' });
      expect(t.value()).toBe('finished');
      expect(t.ctx()).toMatchObject({ sold: false, username: 'server', amount: 100 });
    });

    it('a finished item ignores later bids, starts and settlements', () => {
      const t = startItem();
      t.send(STARTED);
      t.send({ type: 'SOLD', itemName: 'Golden Key', username: 'Beorn', amount: 200 });
      const before = t.ctx();
      t.send({ type: 'BID', bid: bidOf({ amount: 500, username: 'Cynric', endsAt: T0 + 90_000 }) });
      t.send(STARTED);
      t.send({ type: 'NO_BUYER', itemName: 'Golden Key' });
      t.send({ type: 'SOLD', itemName: 'Golden Key', username: 'Cynric', amount: 900 });
      t.clock.increment(120_000);
      expect(t.value()).toBe('finished');
      expect(t.ctx()).toEqual(before);
    });

    it('an item first heard of by its settlement goes straight from none to finished', () => {
      const sold = startItem();
      sold.send({ type: 'SOLD', itemName: 'Golden Key', username: 'Beorn', amount: 200 });
      expect(sold.value()).toBe('finished');
      expect(sold.ctx()).toMatchObject({ itemName: 'Golden Key', sold: true, username: 'Beorn', amount: 200 });

      const unsold = startItem();
      unsold.send({ type: 'NO_BUYER', itemName: 'Golden Key' });
      expect(unsold.value()).toBe('finished');
      expect(unsold.ctx()).toMatchObject({ itemName: 'Golden Key', sold: false });
    });
  });

  describe('built from a HISTORY snapshot', () => {
    it('a live item is live and open at once, with the snapshot as its context', () => {
      const snapshot = itemOf({ amount: 180, username: 'Beorn', endsAt: T0 + 20_000, start_price: 100, minIncrement: 10 });
      const t = startItem({ snapshot });
      expect(t.value()).toEqual(OPEN);
      expect(t.ctx()).toMatchObject({
        itemId: 3,
        itemName: 'Golden Key',
        amount: 180,
        username: 'Beorn',
        endsAt: T0 + 20_000,
        start_price: 100,
        minIncrement: 10,
        sold: null,
        snapshotState: 'live',
      });
    });

    it("a live item's countdown runs to the snapshot's `endsAt`", () => {
      const t = startItem({ snapshot: itemOf({ endsAt: T0 + 20_000 }) });
      t.clock.increment(19_999);
      expect(t.value()).toEqual(OPEN);
      t.clock.increment(1);
      expect(t.value()).toEqual(CLOSING);
    });

    it('a live item takes raising bids and ignores stale ones', () => {
      const t = startItem({ snapshot: itemOf({ amount: 180, username: 'Beorn' }) });
      t.send({ type: 'BID', bid: bidOf({ amount: 170, username: 'Cynric' }) });
      expect(t.ctx()).toMatchObject({ amount: 180, username: 'Beorn' });
      t.send({ type: 'BID', bid: bidOf({ amount: 190, username: 'Cynric' }) });
      expect(t.ctx()).toMatchObject({ amount: 190, username: 'Cynric' });
    });

    it('a finished item with a buyer is finished and sold', () => {
      const t = startItem({ snapshot: itemOf({ state: 'finished', amount: 180, username: 'Beorn' }) });
      expect(t.value()).toBe('finished');
      expect(t.ctx()).toMatchObject({ sold: true, username: 'Beorn', amount: 180, snapshotState: 'finished' });
    });

    it('a finished item led by `server` is finished and unsold', () => {
      const t = startItem({ snapshot: itemOf({ state: 'finished' }) });
      expect(t.value()).toBe('finished');
      expect(t.ctx().sold).toBe(false);
    });

    it("keeps the snapshot's eligibility (ranks and groups, strings only), and none means everyone", () => {
      const limited = startItem({ snapshot: { ...itemOf(), eligibility: { ranks: ['council', 'admin'], groups: ['Vanguard', 5] } as never } });
      expect(limited.ctx()).toMatchObject({ ranks: ['council', 'admin'], groups: ['Vanguard'] });
      const open = startItem({ snapshot: itemOf() });
      expect(open.ctx()).toMatchObject({ ranks: [], groups: [] });
      const odd = startItem({ snapshot: { ...itemOf(), eligibility: { ranks: 'council' } as never } });
      expect(odd.ctx()).toMatchObject({ ranks: [], groups: [] });
    });

    it('keeps a string image and description, and drops anything else', () => {
      const withBoth = startItem({ snapshot: { ...itemOf(), imageUrl: 'https://kingdom.test/key.png', description: 'Opens the vault' } });
      expect(withBoth.ctx()).toMatchObject({ imageUrl: 'https://kingdom.test/key.png', description: 'Opens the vault' });
      const withNeither = startItem({ snapshot: { ...itemOf(), imageUrl: 7, description: 42 } });
      expect(withNeither.ctx()).toMatchObject({ imageUrl: null, description: null });
    });
  });

  describe("the board's word on the phase (APPLY's phase)", () => {
    it('the chart goes where the board says, even where the updates alone would lead elsewhere', () => {
      const t = startItem();
      // a start alone would make it live: the board says finished (it heard the sale in the same run)
      t.actor.send({ type: 'APPLY', phase: 'finished', updates: [STARTED] });
      expect(t.value()).toBe('finished');
      expect(t.ctx()).toMatchObject({ itemName: 'Golden Key', amount: 100 });
    });

    it('a live item finishes when the board says so, though its update changes nothing', () => {
      const t = startItem();
      t.send(STARTED);
      t.actor.send({ type: 'APPLY', phase: 'finished', updates: [{ type: 'TIMING', endsAt: T0 + 30_000, heldMs: null }] });
      expect(t.value()).toBe('finished');
    });

    it('an item stays in none while the board says none, whatever the update', () => {
      const t = startItem();
      t.actor.send({ type: 'APPLY', phase: 'none', updates: [STARTED] });
      expect(t.value()).toBe('none');
    });

    it('built from a snapshot, it takes the phase the board gives, not the snapshot item\'s own state', () => {
      const clock = new SimulatedClock();
      clock.set(T0);
      const actor = createActor(itemMachine, { clock, input: { itemId: 3, snapshot: itemOf({ state: 'live' }), phase: 'finished' } }).start();
      expect(actor.getSnapshot().value).toBe('finished');
    });
  });

  describe('a batch of updates (APPLY)', () => {
    it('goes from none to finished in one transition, as its updates one by one would', () => {
      const t = startItem();
      t.apply([STARTED, { type: 'BID', bid: bidOf({ amount: 150, username: 'Beorn' }) }, { type: 'SOLD', itemName: 'Golden Key', username: 'Beorn', amount: 150 }]);
      expect(t.value()).toBe('finished');
      expect(t.ctx()).toMatchObject({ amount: 150, username: 'Beorn', sold: true });
    });

    it('a raise that keeps the end changes the lead and keeps the countdown running', () => {
      const t = startItem();
      t.send(STARTED);
      t.clock.increment(10_000);
      t.apply([{ type: 'BID', bid: bidOf({ amount: 110 }) }, { type: 'BID', bid: bidOf({ amount: 120, username: 'Beorn' }) }]);
      expect(t.ctx()).toMatchObject({ amount: 120, username: 'Beorn', endsAt: T0 + 30_000 });
      t.clock.increment(19_999);
      expect(t.value()).toEqual(OPEN);
      t.clock.increment(1);
      expect(t.value()).toEqual(CLOSING);
    });

    const arbUpdate: fc.Arbitrary<ItemUpdate> = fc.oneof(
      fc.record({ endsAt: fc.integer({ min: 0, max: 60_000 }) }).map(({ endsAt }) => ({ ...STARTED, endsAt: T0 + endsAt }) as ItemUpdate),
      fc
        .record({ amount: fc.integer({ min: 1, max: 30 }), who: fc.constantFrom('Beorn', 'Cynric'), endsAt: fc.integer({ min: 0, max: 60_000 }) })
        .map(({ amount, who, endsAt }) => ({ type: 'BID', bid: bidOf({ amount: amount * 10, username: who, endsAt: T0 + endsAt }) }) as ItemUpdate),
      fc.constant({ type: 'SOLD', itemName: 'Golden Key', username: 'Beorn', amount: 150 } as ItemUpdate),
      fc.constant({ type: 'NO_BUYER', itemName: 'Golden Key' } as ItemUpdate),
    );

    it('leaves the item exactly where the same updates one by one leave it, at any moment', () => {
      fc.assert(
        fc.property(
          fc.array(fc.record({ updates: fc.array(arbUpdate, { maxLength: 6 }), then: fc.integer({ min: 0, max: 20_000 }) }), { maxLength: 6 }),
          fc.boolean(),
          (segments, fromSnapshot) => {
            const snapshot = fromSnapshot ? itemOf({ amount: 120, username: 'Beorn' }) : undefined;
            const oneByOne = startItem({ snapshot });
            const batched = startItem({ snapshot });
            for (const { updates, then } of segments) {
              for (const update of updates) oneByOne.send(update);
              batched.apply(updates);
              expect(batched.value()).toEqual(oneByOne.value());
              oneByOne.clock.increment(then);
              batched.clock.increment(then);
              expect(batched.value()).toEqual(oneByOne.value());
              expect(batched.ctx()).toEqual(oneByOne.ctx());
            }
          },
        ),
        { numRuns: 300 },
      );
    });
  });
});

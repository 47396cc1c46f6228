import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor } from 'xstate';
import { DEFAULT_DURATION_MS, MAX_VISIBLE, notificationsMachine, type NotificationInput } from '../../src/machines/notifications.machine';

function start() {
  const clock = new SimulatedClock();
  const actor = createActor(notificationsMachine, { clock }).start();
  const notify = (n: Partial<NotificationInput> = {}) =>
    actor.send({ type: 'NOTIFY', notification: { kind: 'info', titleId: 'notify.newBid', ...n } });
  return { actor, clock, notify, items: () => actor.getSnapshot().context.items, ids: () => actor.getSnapshot().context.items.map((n) => n.id) };
}

describe('notifications machine', () => {
  it('starts empty', () => {
    expect(start().items()).toEqual([]);
  });

  it('NOTIFY adds a notification with an id and the default duration', () => {
    const t = start();
    t.notify({ kind: 'error', titleId: 'error.title', text: 'The email or password is incorrect.' });
    expect(DEFAULT_DURATION_MS).toBe(6000);
    expect(t.items()).toEqual([
      { id: 1, kind: 'error', titleId: 'error.title', text: 'The email or password is incorrect.', duration: DEFAULT_DURATION_MS },
    ]);
  });

  it('gives every notification its own increasing id, in arrival order', () => {
    const t = start();
    t.notify({ titleId: 'a' });
    t.notify({ titleId: 'b', values: { item: 'Golden Key', amount: 150 } });
    expect(t.items().map((n) => [n.id, n.titleId])).toEqual([
      [1, 'a'],
      [2, 'b'],
    ]);
    expect(t.items()[1].values).toEqual({ item: 'Golden Key', amount: 150 });
  });

  it('DISMISS_KEY closes the open notification with that key, and its timer, and leaves the others', () => {
    const t = start();
    t.notify({ kind: 'error', titleId: 'notify.error', text: 'The email or password is incorrect.', key: 'sign-in-error' });
    t.notify({ titleId: 'other' });
    t.actor.send({ type: 'DISMISS_KEY', key: 'sign-in-error' });
    expect(t.items().map((n) => n.titleId)).toEqual(['other']);
    // no key open: nothing happens
    t.actor.send({ type: 'DISMISS_KEY', key: 'sign-in-error' });
    expect(t.ids()).toEqual([2]);
    t.clock.increment(DEFAULT_DURATION_MS);
    expect(t.ids()).toEqual([]);
  });

  it('dismisses itself after the default duration of the simulated clock', () => {
    const t = start();
    t.notify();
    t.clock.increment(DEFAULT_DURATION_MS - 1);
    expect(t.ids()).toEqual([1]);
    t.clock.increment(1);
    expect(t.ids()).toEqual([]);
  });

  it('honours a given duration, each notification on its own timer', () => {
    const t = start();
    t.notify({ duration: 1000 });
    t.clock.increment(500);
    t.notify({ duration: 3000 });
    t.clock.increment(500);
    expect(t.ids()).toEqual([2]);
    t.clock.increment(2499); // the second was raised at 500 ms for 3000 ms
    expect(t.ids()).toEqual([2]);
    t.clock.increment(1);
    expect(t.ids()).toEqual([]);
  });

  it('DISMISS removes one early, and its timer no longer matters', () => {
    const t = start();
    t.notify({ duration: 1000 });
    t.notify({ duration: 5000 });
    t.actor.send({ type: 'DISMISS', id: 1 });
    expect(t.ids()).toEqual([2]);
    t.clock.increment(1000);
    expect(t.ids()).toEqual([2]);
    t.clock.increment(4000);
    expect(t.ids()).toEqual([]);
  });

  it('DISMISS of an unknown id changes nothing', () => {
    const t = start();
    t.notify();
    t.actor.send({ type: 'DISMISS', id: 99 });
    expect(t.ids()).toEqual([1]);
  });

  it(`keeps at most MAX_VISIBLE (${MAX_VISIBLE}), dropping the oldest`, () => {
    expect(MAX_VISIBLE).toBe(3); // at most three toasts at once
    const t = start();
    for (let i = 0; i < MAX_VISIBLE + 2; i++) t.notify({ titleId: `n${i}` });
    expect(t.items()).toHaveLength(3);
    expect(t.ids()).toEqual([3, 4, 5]);
    t.notify({ titleId: 'late' });
    expect(t.ids()).toEqual([4, 5, 6]);
  });

  it('the dropped ones timing out later does not remove the visible ones', () => {
    const t = start();
    for (let i = 0; i < MAX_VISIBLE + 1; i++) t.notify({ duration: 1000 });
    t.notify({ duration: 10_000 });
    expect(t.ids()).toEqual([3, 4, 5]);
    t.clock.increment(1000);
    expect(t.ids()).toEqual([5]);
    t.clock.increment(9000);
    expect(t.ids()).toEqual([]);
  });
});

describe('notifications with a key', () => {
  it('a replacement in place never makes a fourth', () => {
    const t = start();
    for (let i = 0; i < MAX_VISIBLE; i++) t.notify({ titleId: `n${i}` });
    t.notify({ key: 'new-bid', titleId: 'bid', values: { amount: 1 } });
    t.notify({ key: 'new-bid', titleId: 'bid', values: { amount: 2 } });
    expect(t.items().map((n) => n.titleId)).toEqual(['n1', 'n2', 'bid']);
    expect(t.items()[2].values).toEqual({ amount: 2 });
  });

  it('replace each other in place: same id, new content, a fresh timer', () => {
    const duration = DEFAULT_DURATION_MS;
    const clock = new SimulatedClock();
    const actor = createActor(notificationsMachine, { clock }).start();
    actor.send({ type: 'NOTIFY', notification: { kind: 'info', key: 'new-bid', titleId: 't', values: { amount: 1 } } });
    actor.send({ type: 'NOTIFY', notification: { kind: 'info', titleId: 'other' } });
    const first = actor.getSnapshot().context.items[0];
    clock.increment(duration - 100);
    actor.send({ type: 'NOTIFY', notification: { kind: 'info', key: 'new-bid', titleId: 't', values: { amount: 2 } } });
    const items = actor.getSnapshot().context.items;
    expect(items).toHaveLength(2);
    expect(items[0]).toMatchObject({ id: first.id, values: { amount: 2 } });
    clock.increment(200); // the unkeyed one times out; the replaced one has a fresh timer
    expect(actor.getSnapshot().context.items.map((n) => n.titleId)).toEqual(['t']);
    clock.increment(duration);
    expect(actor.getSnapshot().context.items).toEqual([]);
  });
});

import { SimulatedClock, createActor, setup } from 'xstate';
import { describe, expect, it } from 'vitest';
import { boardMachine, type BoardActor } from '../../src/machines/board.machine';
import { createInspection } from '../../src/auction/inspection';
import { describeActor, summarise, summariseEvent } from '../../src/auction/inspection-view';
import type { ServerMsg } from '../../src/protocol/socket';

const T0 = 1_700_000_000_000;

function inspectedBoard() {
  const clock = new SimulatedClock();
  clock.set(T0);
  const inspection = createInspection({ now: () => clock.now() });
  const root = setup({ actors: { board: boardMachine } }).createMachine({
    id: 'root',
    invoke: { id: 'board', src: 'board' },
  });
  const actor = createActor(root, { clock, inspect: inspection.inspect }).start();
  const board = actor.getSnapshot().children.board as BoardActor;
  const send = (msg: ServerMsg) => board.send({ type: 'SERVER', frames: [{ event: { type: 'message', msg } }] });
  const shown = () => inspection.actors().map(describeActor);
  return { inspection, board, send, shown };
}

const bid = (amount: number) => ({ itemId: 7, itemName: 'Golden Sword', amount, username: 'alice', timer: 60, timestamp: T0 + amount, endsAt: T0 + 60_000 });

describe('inspection (the offline panel)', () => {
  it('lists every live actor, spawned items included, with state value, context summary and the last 20 events', () => {
    const { send, shown } = inspectedBoard();
    send({ type: 'BIDDING_STARTED', data: { itemId: 7, itemName: 'Golden Sword', start_price: 100, timer: 60, timestamp: T0, endsAt: T0 + 60_000 } });
    for (let i = 1; i <= 25; i++) send({ type: 'BID_CREATED', data: bid(100 + i * 10) });

    const actors = shown();
    expect(actors.map((a) => a.id)).toEqual(['root', 'board', 'item-7-0']);
    const item = actors[2];
    expect(item.parent).toBe('board');
    expect(item.value).toBe('{"live":"open"}');
    expect(item.context).toContain('amount: 350');
    expect(item.context).toContain('username: "alice"');
    expect(item.events).toHaveLength(20);
    expect(item.events[0]).toMatchObject({ type: 'APPLY', from: 'board' });
    expect((item.events[0].event as { updates: { bid: { amount: number } }[] }).updates[0].bid.amount).toBe(350); // newest first
    const board = actors[1];
    expect(board.context).toContain('latestBids: [5]');
    expect(board.context).toContain('items: {1}');
    expect(board.events[0].type).toBe('SERVER');
  });

  it('forgets actors that stopped: a HISTORY snapshot replaces the item actors', () => {
    const { send, shown } = inspectedBoard();
    send({ type: 'BID_CREATED', data: bid(100) });
    expect(shown().map((a) => a.id)).toContain('item-7-0');
    send({ type: 'HISTORY', data: { bids: [], items: [] } });
    expect(shown().map((a) => a.id)).toEqual(['root', 'board']);
  });

  it('hands the events so far, then every next one, to an inspector that comes later', () => {
    const inspection = createInspection({ buffer: true });
    const actor = createActor(setup({}).createMachine({ id: 'm', on: { PING: {} } }), { inspect: inspection.inspect }).start();
    actor.send({ type: 'PING' });
    const seen: string[] = [];
    inspection.forward((e) => seen.push(e.type));
    expect(seen).toContain('@xstate.actor');
    const before = seen.length;
    actor.send({ type: 'PING' });
    expect(seen.length).toBeGreaterThan(before);
  });

  it('summarises a context in one short line', () => {
    expect(summarise({ n: 1, s: 'x'.repeat(100), list: [1, 2, 3, 4], nested: { a: 1, b: 2 }, f: () => 1 })).toBe(
      `{n: 1, s: "${'x'.repeat(39)}…", list: [4], nested: {2}, f: ƒ}`,
    );
    expect(summarise({ long: 'y'.repeat(39), more: Array.from({ length: 20 }, (_, i) => `key${i}`) }).length).toBeLessThanOrEqual(160);
  });
});

describe('the inspection panel never shows secrets', () => {
  it('hides tokens and passwords in context summaries and in events', () => {
    const jwt = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxIn0.signature';
    const context = summarise({ token: jwt, user: { username: 'aria' }, url: 'ws://x' });
    expect(context).not.toContain('eyJ');
    expect(context).toContain('token: «hidden»');
    const event = summariseEvent({ type: 'SEND', frame: { type: 'AUTHENTICATION', access_token: `Bearer ${jwt}` } });
    expect(event).not.toContain('eyJ');
    expect(event).toContain('"access_token":"«hidden»"');
    expect(summariseEvent({ type: 'LOGGED_IN', token: jwt, remember: true })).toBe('{"type":"LOGGED_IN","token":"«hidden»","remember":true}');
    expect(summarise({ password: 'Str0ng!pass' })).toBe('{password: «hidden»}');
  });

  it('writes out only the first frames of a run, and says how many more there were', () => {
    const frames = Array.from({ length: 50_000 }, (_, i) => ({ event: { type: 'message', msg: { type: 'NO_BUYER', data: { itemId: i + 1, itemName: 'x' } } } }));
    const text = summariseEvent({ type: 'SERVER', frames });
    expect(text.length).toBeLessThanOrEqual(160);
    expect(summariseEvent({ type: 'APPLY', updates: [1, 2, 3, 4, 5] })).toBe('{"type":"APPLY","updates":[1,2,3,"…2 more"]}');
  });
});

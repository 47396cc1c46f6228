import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor } from 'xstate';
import { viewBoard, type BoardView } from '../../src/auction/board-view';
import { boardData, boardMachine, type BoardActor } from '../../src/machines/board.machine';
import { parseLog } from '../../src/streams/log';
import { createReplayer, replayLog } from '../../src/replay/replay';

/**
 * Deterministic boards: a board's snapshot is plain data. Two replays of a log
 * give persisted snapshots that are the same JSON text, a persisted snapshot restores to the same
 * board, and the board's lists of live and finished items agree with its items.
 */
const DIR = join(import.meta.dirname, '..', 'fixtures', 'logs');
const names = readdirSync(DIR)
  .filter((f) => f.endsWith('.jsonl'))
  .map((f) => f.slice(0, -'.jsonl'.length))
  .sort();
const read = (name: string) => parseLog(readFileSync(join(DIR, `${name}.jsonl`), 'utf8'));

function replayed(name: string) {
  const replayer = createReplayer(read(name));
  replayer.runToEnd();
  return { replayer, board: replayer.actor.getSnapshot().context.board };
}

/** Every value is JSON data: no functions, no class instances, nothing JSON would drop or change. */
function expectPlainData(value: unknown, path = 'context'): void {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    expect(Number.isFinite(value), path).toBe(true);
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((v, i) => expectPlainData(v, `${path}[${i}]`));
    return;
  }
  expect(typeof value, path).toBe('object');
  expect(Object.getPrototypeOf(value), path).toBe(Object.prototype);
  for (const [k, v] of Object.entries(value as object)) expectPlainData(v, `${path}.${k}`);
}

describe('deterministic boards', () => {
  it.each(names)('%s: two replays give persisted snapshots equal as JSON', (name) => {
    const a = replayed(name);
    const b = replayed(name);
    const text = JSON.stringify(a.board.getPersistedSnapshot());
    expect(JSON.stringify(b.board.getPersistedSnapshot())).toBe(text);
    // and the snapshot is data all the way down: parsing its text gives it back (fields left undefined aside)
    expect(JSON.parse(text)).toEqual(a.board.getPersistedSnapshot());
    a.replayer.stop();
    b.replayer.stop();
  });

  it.each(names)("%s: every machine's context (connections, board, items) is plain JSON data", (name) => {
    const { board, replayer } = replayed(name);
    const { connections } = replayer.actor.getSnapshot().context;
    expectPlainData(connections.auction.getSnapshot().context, 'connection.auction');
    expectPlainData(connections.user.getSnapshot().context, 'connection.user');
    const { items, ...rest } = board.getSnapshot().context;
    expectPlainData(rest, 'board');
    for (const [key, ref] of Object.entries(items)) expectPlainData(ref.getSnapshot().context, `items.${key}`);
    replayer.stop();
  });

  it.each(names)('%s: a persisted snapshot restores to the same board', (name) => {
    const { board, replayer } = replayed(name);
    const persisted = board.getPersistedSnapshot();
    const view = viewBoard(boardData(board));
    const restored = createActor(boardMachine, { snapshot: persisted, clock: new SimulatedClock() }).start() as BoardActor;
    expect(viewBoard(boardData(restored))).toEqual(view);
    expect(JSON.stringify(restored.getPersistedSnapshot())).toBe(JSON.stringify(persisted));
    restored.stop();
    replayer.stop();
  });

  it.each(names)("%s: the board's live and finished lists are its items' phases", (name) => {
    const { board, replayer } = replayed(name);
    const { items, live, finished } = board.getSnapshot().context;
    const inState = (state: 'live' | 'finished') =>
      Object.values(items)
        .filter((ref) => ref.getSnapshot().matches(state))
        .map((ref) => String(ref.getSnapshot().context.itemId));
    expect(live.map(String)).toEqual(inState('live'));
    expect(finished.map(String).sort()).toEqual(inState('finished').sort());
    expect([...live, ...finished].map(String).sort()).toEqual(Object.keys(items).sort());
    replayer.stop();
  });
});

describe('opaque item ids', () => {
  it('a log with string ids replays to the board of the same session with number ids, the ids mapped', () => {
    const ids: Record<string, string> = { 1: 'sword-b7', 2: 'axe-a1', 3: 'helm-c3' };
    const numbers = replayLog(read('reconnect-history'));
    const strings = replayLog(read('string-ids'));
    const mapped: BoardView = {
      ...numbers,
      latestBids: numbers.latestBids.map((b) => ({ ...b, itemId: ids[b.itemId] })),
      items: Object.fromEntries(Object.values(numbers.items).map((it) => [ids[it.itemId], { ...it, itemId: ids[it.itemId] }])),
    };
    expect(strings).toEqual(mapped);
    // string ids in code unit order, not the order of the numbers they replaced
    expect(Object.keys(strings.items)).toEqual(['axe-a1', 'helm-c3', 'sword-b7']);
  });

  it('numbers first in numeric order, then strings', async () => {
    const { compareItemIds } = await import('../../src/auction/item-id');
    expect(['b', 10, 'a', 2, 'B', 1].sort(compareItemIds)).toEqual([1, 2, 10, 'B', 'a', 'b']);
  });
});

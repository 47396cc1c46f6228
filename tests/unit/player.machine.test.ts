import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor } from 'xstate';
import { TICK_MS, isEnded, isPlaying, playerMachine } from '../../src/replay/player.machine';
import { replayLog } from '../../src/replay/replay';
import { parseLog } from '../../src/streams/log';

/** The QA player on a simulated clock: play, pause, step, seek and speed without waiting on real time. */
const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'logs', 'reconnect-history.jsonl');
const log = parseLog(readFileSync(FIXTURE, 'utf8'));
const END = log.entries[log.entries.length - 1].t;

function startPlayer() {
  const clock = new SimulatedClock();
  clock.set(1_000_000);
  const actor = createActor(playerMachine, { clock }).start();
  actor.send({ type: 'LOAD', fileName: 'reconnect-history.jsonl', log });
  return { clock, actor, ctx: () => actor.getSnapshot().context, snap: () => actor.getSnapshot() };
}

describe('the QA player machine', () => {
  it('a loaded log is paused at its start, with the empty board', () => {
    const t = startPlayer();
    expect(t.snap().matches({ loaded: 'paused' })).toBe(true);
    expect(t.ctx()).toMatchObject({ fileName: 'reconnect-history.jsonl', time: 0, position: 0, duration: END, error: null });
    expect(t.ctx().board).toEqual({ connected: false, store: 'open', latestBids: [], items: {} });
  });

  it('plays at its speed on the clock, pauses, and ends on the board the whole log gives', () => {
    const t = startPlayer();
    t.actor.send({ type: 'SPEED', speed: 2 });
    t.actor.send({ type: 'PLAY' });
    expect(isPlaying(t.snap())).toBe(true);
    t.clock.increment(TICK_MS * 10);
    expect(t.ctx().time).toBe(TICK_MS * 10 * 2);
    t.actor.send({ type: 'PAUSE' });
    const paused = t.ctx().time;
    t.clock.increment(5_000);
    expect(t.ctx().time).toBe(paused);
    t.actor.send({ type: 'PLAY' });
    for (let i = 0; i < 200 && !isEnded(t.snap()); i++) t.clock.increment(TICK_MS);
    expect(isEnded(t.snap())).toBe(true);
    // the last tick overshoots the log's end: the time shown stops at the duration, never "223 ms of 211"
    expect(t.ctx().time).toBe(END);
    expect(t.snap().matches({ loaded: 'paused' })).toBe(true);
    expect(t.ctx().board).toEqual(replayLog(log));
    // at the end, play does nothing
    t.actor.send({ type: 'PLAY' });
    expect(isPlaying(t.snap())).toBe(false);
  });

  it('a new speed counts from when it is set', () => {
    const t = startPlayer();
    t.actor.send({ type: 'PLAY' });
    t.clock.increment(100);
    t.actor.send({ type: 'SPEED', speed: 10 });
    t.clock.increment(TICK_MS);
    // 100 ms at 1×, then one tick at 10× (the tick armed before the change fires on its own schedule)
    expect(t.ctx().time).toBeGreaterThanOrEqual(100);
    expect(t.ctx().time).toBeLessThanOrEqual(100 + TICK_MS * 10);
    t.actor.send({ type: 'SPEED', speed: 3 }); // not a speed the player offers
    expect(t.ctx().speed).toBe(10);
  });

  it('steps one entry at a time, and seeking back gives the same board as getting there from the start', () => {
    const t = startPlayer();
    t.actor.send({ type: 'STEP' });
    expect(t.ctx().position).toBe(1);
    t.actor.send({ type: 'SEEK', time: END });
    const atEnd = t.ctx().board;
    const middle = Math.floor(END / 2);
    t.actor.send({ type: 'SEEK', time: middle });
    expect(t.ctx().time).toBe(middle);
    expect(t.ctx().board).toEqual(replayLog(log, { at: middle }));
    t.actor.send({ type: 'SEEK', time: END });
    expect(t.ctx().board).toEqual(atEnd);
    t.actor.send({ type: 'SEEK', time: 0 });
    expect(t.ctx()).toMatchObject({ time: 0, position: 0 });
    t.actor.send({ type: 'SEEK', time: END + 5_000 });
    expect(t.ctx().time).toBe(END);
  });

  it('a file that is not a log leaves the player empty, saying why', () => {
    const t = startPlayer();
    t.actor.send({ type: 'LOAD_FAILED', fileName: 'bad.jsonl', error: 'line 4: "ch" must be auction or user' });
    expect(t.snap().matches('empty')).toBe(true);
    expect(t.ctx()).toMatchObject({ log: null, board: null, error: 'line 4: "ch" must be auction or user' });
  });
});

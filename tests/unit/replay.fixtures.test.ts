import { execFile } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { viewCard, type BoardView } from '../../src/auction/board-view';
import { parseLog } from '../../src/streams/log';
import { createReplayer, replayLog } from '../../src/replay/replay';

/**
 * QA's fixtures: logs recorded from real sessions against the real server (npm run
 * fixtures:record), each with the board the live app held at the end. Replaying a log must give
 * exactly that board.
 */
const DIR = join(import.meta.dirname, '..', 'fixtures', 'logs');
const names = readdirSync(DIR)
  .filter((f) => f.endsWith('.jsonl'))
  .map((f) => f.slice(0, -'.jsonl'.length))
  .sort();
const read = (name: string) => readFileSync(join(DIR, `${name}.jsonl`), 'utf8');
const expected = (name: string) => JSON.parse(readFileSync(join(DIR, `${name}.board.json`), 'utf8')) as BoardView;

describe('recorded fixtures', () => {
  it('cover every case QA asked for', () => {
    expect(names.length).toBeGreaterThanOrEqual(12);
    for (const name of [
      'normal-auction',
      'soft-close',
      'outbid',
      'win',
      'no-buyer',
      'error-unknown-item',
      'error-bid-open',
      'error-bid-amount',
      'error-out-of-balance',
      'error-bid-not-allowed',
      'error-json',
      'error-ws',
      'error-unauthenticated',
      'reconnect-history',
      'live-300',
      'duplicated-reordered',
      'bad-frames',
      'mid-session-start',
      'item-cancelled',
      'store-closed',
      'legacy-soft-close',
    ]) {
      expect(names).toContain(name);
    }
  });

  it.each(names)('%s replays to the board the live session ended with', (name) => {
    expect(replayLog(parseLog(read(name)))).toEqual(expected(name));
  });

  it('they hold what their names say', () => {
    const lines = (name: string) => parseLog(read(name)).entries;
    const errors = (name: string) => lines(name).flatMap((e) => (e.dir === 'in' && e.msg?.type === 'ERROR' ? [e.msg.error_type] : []));
    expect(errors('error-unknown-item')).toContain('UNKNOWN_ITEM');
    expect(errors('error-bid-open')).toContain('BID_OPEN_ERROR');
    expect(errors('error-bid-amount')).toContain('BID_AMOUNT_ERROR');
    expect(errors('error-out-of-balance')).toContain('OUT_OF_BALANCE');
    expect(errors('error-bid-not-allowed')).toContain('BID_NOT_ALLOWED');
    expect(errors('error-json')).toContain('JSON_ERROR');
    expect(errors('error-ws')).toContain('WS_ERROR');
    expect(errors('error-unauthenticated')).toContain('UNAUTHENTICATED');
    expect(expected('error-unauthenticated').connected).toBe(false);
    const histories = lines('reconnect-history').filter((e) => e.dir === 'in' && e.msg?.type === 'HISTORY');
    expect(histories).toHaveLength(2);
    expect(Object.keys(expected('live-300').items)).toHaveLength(300);
    expect(lines('bad-frames').filter((e) => e.dir === 'in' && e.raw !== undefined).length).toBeGreaterThanOrEqual(4);
    expect(lines('win').some((e) => e.dir === 'in' && e.msg?.type === 'WINNER')).toBe(true);
    expect(lines('outbid').some((e) => e.dir === 'in' && e.msg?.type === 'OUTBID')).toBe(true);
    const soft = expected('soft-close').items['1'];
    expect(soft.state).toBe('finished');
  });

  it('a HISTORY replaces the board: after the reconnect, what changed while away is there', () => {
    const log = parseLog(read('reconnect-history'));
    const replayer = createReplayer(log);
    const secondHistory = log.entries.filter((e) => e.dir === 'in' && e.msg?.type === 'HISTORY')[1];
    replayer.advanceTo(secondHistory.t - 1);
    const before = replayer.board();
    expect(before.connected).toBe(false);
    expect(before.items['1'].state).toBe('live');
    replayer.runToEnd();
    const after = replayer.board();
    expect(after.connected).toBe(true);
    expect(after.items['1'].state).toBe('finished');
    expect(after.items['2']).toMatchObject({ amount: 200, username: 'bob' });
    expect(after.items['3']).toMatchObject({ username: 'server', state: 'live' });
  });

  it('an item that starts while the page is open has the card a reload (HISTORY) gives it: minimum, increment, eligibility, soft close', () => {
    const log = parseLog(read('mid-session-start'));
    const replayer = createReplayer(log);
    const histories = log.entries.filter((e) => e.dir === 'in' && e.msg?.type === 'HISTORY');
    expect(histories).toHaveLength(2);
    const cards = () => {
      const { items } = replayer.actor.getSnapshot().context.board.getSnapshot().context;
      return Object.fromEntries(Object.entries(items).map(([key, ref]) => [key, viewCard(ref.getSnapshot().context)]));
    };
    replayer.advanceTo(histories[1].t - 1);
    const live = cards();
    // the card the player saw live: start 300, increment 100, one bid of 300 → next minimum 400
    expect(live['1']).toMatchObject({ minimum: 400, minIncrement: 100, extendWindow: 30, maxExtensions: 2, extensions: 0, imageUrl: 'https://example.com/sword.png' });
    expect(live['2']).toMatchObject({ minimum: 50, minIncrement: 25, ranks: ['council'], groups: [] });
    replayer.runToEnd();
    expect(cards()).toEqual(live);
  });

  it('a cancelled item leaves the board with its bids; the store closed holds the item past its end', () => {
    const cancelled = parseLog(read('item-cancelled'));
    expect(cancelled.entries.some((e) => e.dir === 'in' && e.msg?.type === 'ITEM_CANCELLED')).toBe(true);
    expect(cancelled.entries.some((e) => e.dir === 'in' && e.msg?.type === 'NO_BUYER')).toBe(false);
    expect(Object.keys(expected('item-cancelled').items)).toEqual(['2']);
    expect(expected('item-cancelled').latestBids.map((b) => b.itemId)).toEqual([2]);

    const closed = parseLog(read('store-closed'));
    const states = closed.entries.filter((e) => e.dir === 'in' && e.msg?.type === 'STORE_STATE');
    expect(states).toHaveLength(2);
    const during = replayLog(closed, { at: states[1].t - 1 });
    expect(during.store).toBe('closed');
    expect(during.items['1'].state).toBe('live');
    expect(expected('store-closed').items['1']).toMatchObject({ state: 'finished', username: 'alice', amount: 200 });
  });

  it('--at: the board at a moment of the log', () => {
    const log = parseLog(read('normal-auction'));
    const sale = log.entries.find((e) => e.dir === 'in' && e.msg?.type === 'SALE_COMPLETED')!;
    expect(replayLog(log, { at: sale.t - 1 }).items['1'].state).toBe('live');
    expect(replayLog(log, { at: sale.t }).items['1'].state).toBe('finished');
    expect(replayLog(log, { at: 0 })).toEqual({ connected: false, store: 'open', latestBids: [], items: {} });
  });
});

describe('npm run replay', () => {
  const run = promisify(execFile);
  const cli = (...args: string[]) => run(process.execPath, ['--import', 'tsx', 'scripts/replay.ts', ...args], { cwd: join(import.meta.dirname, '..', '..') });

  it('prints the board as one JSON object and nothing else; a malformed log exits 1 naming the line', async () => {
    const { stdout } = await cli(join(DIR, 'win.jsonl'));
    expect(stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(stdout)).toEqual(expected('win'));

    const at = await cli(join(DIR, 'normal-auction.jsonl'), '--at', '0');
    expect(JSON.parse(at.stdout)).toEqual({ connected: false, store: 'open', latestBids: [], items: {} });

    const bad = join(mkdtempSync(join(tmpdir(), 'kingdom-replay-')), 'bad.jsonl');
    const lines = read('win').split('\n');
    lines[4] = '{"t":5,"ch":"auction","dir":"in"';
    writeFileSync(bad, lines.join('\n'));
    const failed = await cli(bad).then(
      () => null,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stdout).toBe('');
    expect(failed?.stderr).toMatch(/line 5: not JSON/);
  }, 20_000);
});

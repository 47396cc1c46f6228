import { Server, WebSocket as MockWebSocket, type Client } from 'mock-socket';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LogError, logEntries, parseLog } from '../../src/streams/log';
import { REDACTED_TOKEN, createRecorder } from '../../src/streams/recorder';
import { createSocket, type WebSocketCtor } from '../../src/streams/socket';
import { from, lastValueFrom, toArray } from 'rxjs';
import { STATUS } from './support/fixtures';

const URL = 'ws://kingdom.test:8081';
const eventually = (assertion: () => void) => vi.waitFor(assertion, { timeout: 2000, interval: 2 });

function manualClock(start = 1_700_000_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('recorder', () => {
  it('writes the header and one line per event, with t in ms since the start', () => {
    const clock = manualClock();
    const recorder = createRecorder({ app: 'kingdom@0.1.0', now: clock.now });
    const tap = recorder.tap('auction');
    tap.open();
    clock.advance(5);
    tap.sent({ type: 'AUTHENTICATION', access_token: 'Bearer secret-token' });
    clock.advance(7);
    tap.received(JSON.stringify(STATUS));
    tap.received('not json');
    tap.received('42');
    tap.received(new ArrayBuffer(2));
    recorder.tap('user').close(1006);
    recorder.setUser('alice');

    const lines = recorder.toJsonl().trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines[0]).toEqual({ v: 1, app: 'kingdom@0.1.0', recordedAt: new Date(1_700_000_000_000).toISOString(), user: 'alice' });
    expect(lines.slice(1)).toEqual([
      { t: 0, ch: 'auction', dir: 'open', msg: {} },
      { t: 5, ch: 'auction', dir: 'out', msg: { type: 'AUTHENTICATION', access_token: REDACTED_TOKEN } },
      { t: 12, ch: 'auction', dir: 'in', msg: STATUS },
      { t: 12, ch: 'auction', dir: 'in', raw: 'not json' },
      { t: 12, ch: 'auction', dir: 'in', raw: '42' },
      { t: 12, ch: 'auction', dir: 'in', raw: '', binary: true },
      { t: 12, ch: 'user', dir: 'close', msg: { code: 1006 } },
    ]);
    expect(recorder.toJsonl()).not.toContain('secret-token');
  });

  it('keeps only the last `limit` lines, oldest first', () => {
    const clock = manualClock();
    const recorder = createRecorder({ app: 'k', now: clock.now, limit: 3 });
    const tap = recorder.tap('user');
    for (let i = 0; i < 7; i++) {
      clock.advance(1);
      tap.received(JSON.stringify({ n: i }));
    }
    expect(recorder.lines().map((l) => (JSON.parse(l) as { msg: { n: number } }).msg.n)).toEqual([4, 5, 6]);
    // what it writes is a log the replayer reads
    expect(parseLog(recorder.toJsonl()).entries.map((e) => e.t)).toEqual([5, 6, 7]);
  });

  describe('through createSocket (mock-socket)', () => {
    let server: Server | undefined;
    afterEach(async () => {
      const s = server;
      server = undefined;
      if (s) await new Promise<void>((resolve) => s.stop(resolve));
    });

    it('records open, sent frames, raw incoming frames and the close of a real socket handle', async () => {
      server = new Server(URL, { mock: false });
      const clients: Client[] = [];
      server.on('connection', (socket) => clients.push(socket));
      const recorder = createRecorder({ app: 'k' });
      const handle = createSocket(URL, MockWebSocket as unknown as WebSocketCtor, recorder.tap('auction'));
      const seen: string[] = [];
      handle.events$.subscribe((e) => seen.push(e.kind));
      await eventually(() => expect(seen).toEqual(['open']));
      handle.send({ type: 'GET_STATUS' });
      clients[0].send('{"type":"NOPE"}');
      clients[0].send('{oops');
      clients[0].close({ code: 4401, reason: '', wasClean: true });
      await eventually(() => expect(seen).toContain('close'));

      const lines = recorder.lines().map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines.map(({ dir, msg, raw }) => ({ dir, msg, raw }))).toEqual([
        { dir: 'open', msg: {}, raw: undefined },
        { dir: 'out', msg: { type: 'GET_STATUS' }, raw: undefined },
        { dir: 'in', msg: { type: 'NOPE' }, raw: undefined },
        { dir: 'in', msg: undefined, raw: '{oops' },
        { dir: 'close', msg: { code: 4401 }, raw: undefined },
      ]);
      // the frames themselves still come out normalised, as without a recorder
      expect(seen).toEqual(['open', 'frames', 'frames', 'close']);
    });

    it('records the close when the client stops listening before the server closed', async () => {
      server = new Server(URL, { mock: false });
      const recorder = createRecorder({ app: 'k' });
      const handle = createSocket(URL, MockWebSocket as unknown as WebSocketCtor, recorder.tap('user'));
      const seen: string[] = [];
      const subscription = handle.events$.subscribe((e) => seen.push(e.kind));
      await eventually(() => expect(seen).toEqual(['open']));
      subscription.unsubscribe();
      expect(recorder.lines().map((l) => JSON.parse(l) as { dir: string; msg: unknown })).toEqual([
        expect.objectContaining({ dir: 'open' }),
        expect.objectContaining({ dir: 'close', msg: { code: 1000 } }),
      ]);
    });
  });
});

describe('reading a log', () => {
  const header = '{"v":1,"app":"kingdom@0.1.0","recordedAt":"2026-01-01T00:00:00.000Z","user":null}';
  const good = [
    header,
    '{"t":0,"ch":"auction","dir":"open","msg":{}}',
    '{"t":3,"ch":"auction","dir":"in","msg":{"type":"HISTORY","data":{"bids":[],"items":[]}}}',
    '{"t":4,"ch":"user","dir":"in","raw":"nope"}',
    '{"t":9,"ch":"auction","dir":"close","msg":{"code":1006}}',
  ].join('\n');

  it('parses the header and every entry, with its line number', () => {
    const log = parseLog(good + '\n');
    expect(log.header).toEqual({ v: 1, app: 'kingdom@0.1.0', recordedAt: '2026-01-01T00:00:00.000Z', user: null });
    expect(log.entries.map((e) => [e.line, e.t, e.ch, e.dir])).toEqual([
      [2, 0, 'auction', 'open'],
      [3, 3, 'auction', 'in'],
      [4, 4, 'user', 'in'],
      [5, 9, 'auction', 'close'],
    ]);
    expect(log.entries[3]).toMatchObject({ code: 1006 });
  });

  it.each([
    ['a line that is not JSON', '{"t":1,"ch":"auction","dir":"in","msg":{}', 3, /not JSON/],
    ['a bad channel', '{"t":1,"ch":"chat","dir":"in","msg":{}}', 3, /"ch"/],
    ['a bad direction', '{"t":1,"ch":"user","dir":"sideways","msg":{}}', 3, /"dir"/],
    ['a negative time', '{"t":-1,"ch":"user","dir":"in","msg":{}}', 3, /"t"/],
    ['an incoming frame with neither msg nor raw', '{"t":1,"ch":"user","dir":"in"}', 3, /msg/],
    ['a frame that is an array', '[1,2]', 3, /object/],
  ])('names the line of %s', (_name, bad, line, message) => {
    const text = [header, '{"t":0,"ch":"auction","dir":"open","msg":{}}', bad, '{"t":2,"ch":"auction","dir":"open","msg":{}}'].join('\n');
    let error: unknown;
    try {
      parseLog(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(LogError);
    expect((error as LogError).line).toBe(line);
    expect((error as LogError).message).toMatch(new RegExp(`^line ${line}: `));
    expect((error as LogError).message).toMatch(message);
  });

  it('rejects a missing or wrong header as line 1', () => {
    expect(() => parseLog('')).toThrow(/^line 1: .*header/);
    expect(() => parseLog('{"v":2,"app":"k","recordedAt":"2026-01-01T00:00:00Z","user":null}\n')).toThrow(/^line 1: .*"v"/);
    expect(() => parseLog('{"v":1,"app":"k","recordedAt":"yesterday","user":null}\n')).toThrow(/^line 1: .*recordedAt/);
  });

  it('reads the same entries whatever chunks the text comes in', async () => {
    const chunks = [good.slice(0, 7), good.slice(7, 120), good.slice(120, 121), good.slice(121)];
    const out = await lastValueFrom(from(chunks).pipe(logEntries(), toArray()));
    expect(out[0]).toEqual({ header: parseLog(good).header });
    expect(out.slice(1)).toEqual(parseLog(good).entries.map((entry) => ({ entry })));
  });
});

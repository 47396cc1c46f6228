import fs from 'node:fs';
import path from 'node:path';
import { Server, WebSocket as MockWebSocket, type Client } from 'mock-socket';
import { afterEach, describe, expect, it } from 'vitest';
import { SimulatedClock, createActor } from 'xstate';
import { BOT_CLOSE, type Bot, type LogLine, type WatchMsg } from '../../src/protocol/bots';
import { emptyMonitor, foldAll, foldMonitor, MONITOR_LINES, visibleLines } from '../../src/machines/bot-monitor';
import { backoffDelay } from '../../src/machines/connection.machine';
import { botWatchMachineFor } from '../../src/machines/bot-watch.machine';
import { createWatchSocket } from '../../src/streams/bot-watch';
import { readBotLog } from '../../src/streams/bot-log';
import { createRecorder } from '../../src/streams/recorder';
import type { WebSocketCtor } from '../../src/streams/socket';
import { parseLog } from '../../src/streams/log';

const URL = 'ws://kingdom.test:7331/bots/watch';

const bot = (id: number, patch: Partial<Bot> = {}): Bot => ({
  id,
  name: `Bot ${id}`,
  online: true,
  state: 'idle',
  progress: null,
  message: null,
  lastSeenAt: 1000,
  lastScanAt: null,
  version: '1.0.0',
  commands: ['ping', 'start-scan', 'stop', 'pause', 'resume'],
  createdAt: 1,
  ...patch,
});
const line = (seq: number, botId: number, level: LogLine['level'] = 'info'): LogLine => ({ seq, botId, at: 1000 + seq, level, text: `line ${seq}` });

const SESSION: WatchMsg[] = [
  { type: 'BOTS_SNAPSHOT', at: 1000, bots: [bot(1), bot(2, { online: false, state: null })], lines: [line(1, 1), line(2, 2)], commands: [], answers: [] },
  { type: 'BOT_UPDATE', bot: bot(1, { state: 'scanning', progress: { done: 10, total: 300, etaSeconds: 600 } }) },
  { type: 'BOT_LOG_LINES', lines: [line(3, 1, 'warn'), line(4, 1, 'error')] },
  { type: 'COMMAND_SENT', command: { id: 'c1', botId: 1, command: 'ping', at: 1010, by: 'admin' } },
  { type: 'BOT_LOG_LINES', lines: [line(4, 1, 'error'), line(5, 2, 'debug')] },
  { type: 'COMMAND_ANSWER', answer: { id: 'c1', botId: 1, ok: true, output: 'pong', at: 1011 } },
  { type: 'BOT_UPDATE', bot: bot(1, { state: 'needs-human', message: 'Continue? [y/n]' }) },
  { type: 'BOT_REMOVED', botId: 2 },
];

describe('the monitor fold', () => {
  it('folds a session: bots, lines once each in order, commands with their answers', () => {
    const state = foldAll(SESSION);
    expect(state.ready).toBe(true);
    expect(Object.keys(state.bots)).toEqual(['1']);
    expect(state.bots['1']).toMatchObject({ state: 'needs-human', message: 'Continue? [y/n]' });
    expect(state.lines.map((l) => l.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(state.commands.c1).toEqual({ sent: expect.objectContaining({ command: 'ping' }), answer: expect.objectContaining({ ok: true, output: 'pong' }) });
    expect(visibleLines(state.lines, { botId: 1, levels: ['warn', 'error'] }, null).map((l) => l.seq)).toEqual([3, 4]);
    expect(visibleLines(state.lines, { botId: null, levels: ['debug', 'info', 'warn', 'error'] }, 3).map((l) => l.seq)).toEqual([1, 2, 3]);
    // plain JSON: it survives a round trip unchanged
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
  });

  it('keeps at most MONITOR_LINES lines, the newest', () => {
    let state = foldMonitor(emptyMonitor(), SESSION[0]);
    const many = Array.from({ length: MONITOR_LINES + 100 }, (_, i) => line(i + 10, 1));
    state = foldMonitor(state, { type: 'BOT_LOG_LINES', lines: many });
    expect(state.lines).toHaveLength(MONITOR_LINES);
    expect(state.lines.at(-1)?.seq).toBe(MONITOR_LINES + 109);
  });

  it('an answer to a command it never saw changes nothing', () => {
    const before = foldAll(SESSION.slice(0, 3));
    expect(foldMonitor(before, { type: 'COMMAND_ANSWER', answer: { id: 'zz', botId: 1, ok: true, output: '', at: 0 } })).toBe(before);
  });
});

describe('the bot connection machine, recorded and replayed', () => {
  let server: Server | null = null;
  afterEach(() => {
    server?.stop();
    server = null;
  });

  function start() {
    const recorder = createRecorder({ app: 'kingdom@test', now: () => 0 });
    const clock = new SimulatedClock();
    const machine = botWatchMachineFor((url) => createWatchSocket(url, MockWebSocket as unknown as WebSocketCtor, recorder.tap('bots')));
    const actor = createActor(machine, { clock, input: { url: URL, token: 'secret-token' } });
    return { actor, clock, recorder };
  }

  it('authenticates, folds what the server says, and the recorded log replays to the same monitor', async () => {
    server = new Server(URL);
    const got: string[] = [];
    server.on('connection', (socket: Client) => {
      socket.on('message', (data) => {
        got.push(String(data));
        for (const msg of SESSION) socket.send(JSON.stringify(msg));
        socket.send('not json');
      });
    });
    const { actor, recorder } = start();
    actor.start();
    await new Promise<void>((resolve) => actor.subscribe((s) => s.context.monitor.commands.c1?.answer && Object.keys(s.context.monitor.bots).length === 1 && resolve()));
    expect(JSON.parse(got[0])).toEqual({ type: 'AUTHENTICATION', access_token: 'Bearer secret-token' });
    expect(actor.getSnapshot().matches({ online: 'connected' })).toBe(true);
    const live = actor.getSnapshot().context.monitor;
    expect(live).toEqual(foldAll(SESSION));

    const log = recorder.toJsonl();
    expect(log).not.toContain('secret-token');
    const replayed = readBotLog(log);
    expect(replayed.frames.filter((f) => f.event.type === 'protocol-error')).toHaveLength(1);
    const messages = replayed.frames.flatMap((f) => (f.event.type === 'message' ? [f.event.msg] : []));
    expect(foldAll(messages)).toEqual(live);
    // the auction's replayer reads the same file and passes over the bot lines
    expect(parseLog(log).entries).toEqual([]);
    actor.stop();
  });

  it('reconnects with backoff on the actor clock after a drop, and stops on a refusal', async () => {
    server = new Server(URL);
    let connections = 0;
    let last: Client | null = null;
    server.on('connection', (socket: Client) => {
      connections += 1;
      last = socket;
      socket.on('message', () => socket.send(JSON.stringify(SESSION[0])));
    });
    const { actor, clock } = start();
    actor.start();
    await new Promise<void>((resolve) => actor.subscribe((s) => s.matches({ online: 'connected' }) && resolve()));
    (last as Client | null)?.close({ code: 1006, reason: 'drop', wasClean: false });
    await new Promise<void>((resolve) => actor.subscribe((s) => s.matches('disconnected') && resolve()));
    expect(actor.getSnapshot().context.monitor.ready).toBe(false);
    clock.increment(backoffDelay(1) - 1);
    expect(actor.getSnapshot().matches('disconnected')).toBe(true);
    clock.increment(1);
    await new Promise<void>((resolve) => actor.subscribe((s) => s.matches({ online: 'connected' }) && resolve()));
    expect(connections).toBe(2);
    (last as Client | null)?.close({ code: BOT_CLOSE.unauthorized, reason: 'no', wasClean: true });
    await new Promise<void>((resolve) => actor.subscribe((s) => s.matches('unauthorized') && resolve()));
    clock.increment(60_000);
    expect(connections).toBe(2);
    actor.stop();
  });
});

describe('a recorded monitor session (tests/fixtures/bot-logs/bots-monitor.jsonl)', () => {
  const file = path.join(__dirname, '../fixtures/bot-logs/bots-monitor.jsonl');
  it('replays into the fold: the bots and the lines the monitor showed', () => {
    const { frames } = readBotLog(fs.readFileSync(file, 'utf8'));
    const messages = frames.flatMap((f) => (f.event.type === 'message' ? [f.event.msg] : []));
    expect(frames.every((f) => f.event.type === 'message')).toBe(true);
    const state = foldAll(messages);
    expect(state.ready).toBe(true);
    const bots = Object.values(state.bots);
    expect(bots.map((b) => b.name).sort()).toEqual(['Emulator A', 'Emulator B']);
    expect(bots.find((b) => b.name === 'Emulator A')).toMatchObject({ online: true, commands: expect.arrayContaining(['scan-folder', 'sent', 'answer']) });
    const seqs = state.lines.map((l) => l.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    const ping = Object.values(state.commands).find((c) => c.sent.command === 'ping');
    expect(ping?.answer).toMatchObject({ ok: true, output: expect.stringContaining('pong') });
    const scan = Object.values(state.commands).find((c) => c.sent.command === 'start-scan');
    expect(scan?.answer).toMatchObject({ ok: false, output: expect.stringContaining('not configured') });
  });
});

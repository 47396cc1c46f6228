import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOT_CLOSE, BOT_MSG, BOT_OFFLINE_AFTER_MS, watchMsg } from '../../src/protocol/bots';
import { Agent } from '../../scripts/agent/agent';
import { startServer } from '../../server/app';
import { BOT_SOCKET_TEXTS } from '../../server/bots/sockets';
import { ephemeralConfig } from '../../server/config';
import { call, leadershipServer, signedIn, startTestServer, TestSocket } from './helpers';

/** An injected clock for the bots: heartbeats and budgets move only when the test says. */
let clock = 1_700_000_000_000;
const now = () => clock;

let ctx: Awaited<ReturnType<typeof leadershipServer>>;
const botsUrl = () => ctx.server.httpUrl.replace(/^http/, 'ws') + '/bots';
const watchUrl = () => ctx.server.httpUrl.replace(/^http/, 'ws') + '/bots/watch';

beforeAll(async () => {
  ctx = await leadershipServer({ botClock: now });
});
afterAll(async () => {
  await ctx.server.close();
});

async function registerBot(name: string) {
  const answer = await call(ctx.server, 'POST', '/bots', { token: ctx.admin.token, body: { name } });
  expect(answer.status, answer.text).toBe(200);
  return answer.body as { bot: { id: number; name: string }; token: string };
}

async function helloBot(token: string, commands?: string[]) {
  const socket = await TestSocket.open(botsUrl());
  socket.send({ type: BOT_MSG.BOT_HELLO, token, version: '9.9.9', ...(commands ? { commands } : {}) });
  return socket;
}

async function watcher(token = ctx.admin.token) {
  const socket = await TestSocket.open(watchUrl());
  socket.send({ type: 'AUTHENTICATION', access_token: `Bearer ${token}` });
  const snapshot = await socket.nextOf(BOT_MSG.BOTS_SNAPSHOT);
  expect(watchMsg.safeParse(snapshot).success).toBe(true);
  return { socket, snapshot };
}

const botOf = async (id: number) => ((await call(ctx.server, 'GET', '/bots', { token: ctx.admin.token })).body.bots as { id: number; online: boolean; state: string | null; version: string | null; progress?: unknown }[]).find((b) => b.id === id);

describe('bots: registry', () => {
  it('registers a bot with a token shown once and stored hashed; lists, rotates and revokes it; each is audited', async () => {
    const { bot, token } = await registerBot('Emulator 1');
    expect(token).toMatch(/^kbot_[A-Za-z0-9_-]{43}$/);
    const row = await ctx.server.db.selectFrom('bots').selectAll().where('id', '=', bot.id).executeTakeFirstOrThrow();
    expect(row.token_hash).not.toContain(token);
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(await ctx.server.db.selectFrom('bots').selectAll().execute())).not.toContain(token);

    const listed = await call(ctx.server, 'GET', '/bots', { token: ctx.admin.token });
    expect(listed.body.bots).toContainEqual(expect.objectContaining({ id: bot.id, name: 'Emulator 1', online: false, state: null, lastSeenAt: null, lastScanAt: null, version: null }));
    expect(JSON.stringify(listed.body)).not.toContain(token);

    const same = await call(ctx.server, 'POST', '/bots', { token: ctx.admin.token, body: { name: 'emulator 1' } });
    expect(same.status).toBe(409);
    const empty = await call(ctx.server, 'POST', '/bots', { token: ctx.admin.token, body: { name: '  ' } });
    expect(empty).toMatchObject({ status: 400, body: { result: false } });

    const rotated = await call(ctx.server, 'POST', `/bots/${bot.id}/token`, { token: ctx.admin.token });
    expect(rotated.status).toBe(200);
    const newToken = rotated.body.token as string;
    expect(newToken).not.toBe(token);
    const old = await helloBot(token);
    expect(await old.nextOf(BOT_MSG.BOT_ERROR)).toMatchObject({ error: expect.stringContaining('Unknown or revoked bot token') });
    expect((await old.closed).code).toBe(BOT_CLOSE.unauthorized);

    const fresh = await helloBot(newToken);
    await fresh.nextOf(BOT_MSG.BOT_WELCOME);
    const revoked = await call(ctx.server, 'DELETE', `/bots/${bot.id}`, { token: ctx.admin.token });
    expect(revoked.status).toBe(200);
    expect((await fresh.closed).code).toBe(BOT_CLOSE.revoked);
    expect(await botOf(bot.id)).toBeUndefined();
    expect((await call(ctx.server, 'DELETE', `/bots/${bot.id}`, { token: ctx.admin.token })).status).toBe(404);

    const audit = await ctx.server.db.selectFrom('audit_log').select(['action', 'target', 'actor']).where('target', '=', 'Emulator 1').orderBy('id').execute();
    expect(audit.map((a) => a.action)).toEqual(['bot.register', 'bot.rotate', 'bot.revoke']);
    expect(audit.every((a) => a.actor === ctx.admin.username)).toBe(true);
  });

  it('only admins manage bots', async () => {
    for (const [method, url] of [['GET', '/bots'], ['POST', '/bots'], ['POST', '/bots/1/commands'], ['DELETE', '/bots/1'], ['POST', '/bots/1/token']] as const) {
      const body = method === 'GET' ? undefined : { name: 'x', command: 'ping' };
      expect((await call(ctx.server, method, url, { token: ctx.council.token, body })).status).toBe(403);
      expect((await call(ctx.server, method, url, { body })).status).toBe(401);
    }
  });
});

describe('bots: the protocol', () => {
  it('hello puts a bot online at once; a bad token and a user token are refused', async () => {
    const { bot, token } = await registerBot('Hello bot');
    const { socket: watch } = await watcher();
    const socket = await helloBot(token, ['scan-folder']);
    expect(await socket.nextOf(BOT_MSG.BOT_WELCOME)).toMatchObject({ bot: { id: bot.id, name: 'Hello bot' }, statusEverySeconds: 15 });
    expect(await botOf(bot.id)).toMatchObject({ online: true, state: 'idle', version: '9.9.9' });
    const update = await watch.waitFor((f) => f.type === BOT_MSG.BOT_UPDATE && (f.bot as { id: number }).id === bot.id);
    expect(update.bot).toMatchObject({ online: true, commands: ['ping', 'start-scan', 'stop', 'pause', 'resume', 'scan-folder'] });

    const bad = await helloBot('kbot_' + 'A'.repeat(43));
    expect(await bad.nextOf(BOT_MSG.BOT_ERROR)).toMatchObject({ error: expect.stringContaining('Unknown or revoked bot token') });
    expect((await bad.closed).code).toBe(BOT_CLOSE.unauthorized);

    // a user's token is no bot token (and longer than one): the hello does not match, and says what it needs
    const user = await helloBot(ctx.admin.token);
    expect(await user.nextOf(BOT_MSG.BOT_ERROR)).toMatchObject({ error: BOT_SOCKET_TEXTS.badHello });
    expect((await user.closed).code).toBe(BOT_CLOSE.unauthorized);
    const noVersion = await TestSocket.open(botsUrl());
    noVersion.send({ type: BOT_MSG.BOT_HELLO, token });
    expect(await noVersion.nextOf(BOT_MSG.BOT_ERROR)).toMatchObject({ error: BOT_SOCKET_TEXTS.badHello });
    expect((await noVersion.closed).code).toBe(BOT_CLOSE.unauthorized);
    const userAuth = await TestSocket.open(botsUrl());
    userAuth.send({ type: 'AUTHENTICATION', access_token: `Bearer ${ctx.admin.token}` });
    expect(await userAuth.nextOf(BOT_MSG.BOT_ERROR)).toMatchObject({ error: 'Send BOT_HELLO first.' });
    expect((await userAuth.closed).code).toBe(BOT_CLOSE.unauthorized);
    socket.close();
    watch.close();
  });

  it("a demoted admin's watch closes at once, not at the next beat (20 s)", async () => {
    const other = await signedIn(ctx.server, 'admin');
    expect((await call(ctx.server, 'POST', `/admin/users/${other.username}/rank`, { token: ctx.admin.token, body: { rank: 'admin' } })).status).toBe(200);
    const { socket } = await watcher(other.token);
    expect(ctx.server.config.heartbeatMs).toBeGreaterThanOrEqual(10_000);
    const demotedAt = Date.now();
    expect((await call(ctx.server, 'POST', `/admin/users/${other.username}/rank`, { token: ctx.admin.token, body: { rank: 'council' } })).status).toBe(200);
    expect((await socket.closed).code).toBe(BOT_CLOSE.unauthorized);
    // closed by the rank change itself: long before any beat could have found it
    expect(Date.now() - demotedAt).toBeLessThan(ctx.server.config.heartbeatMs / 2);
  });

  it('a bot token is refused on every route but scan upload, and on the watch socket', async () => {
    const { token } = await registerBot('Route bot');
    for (const [method, url] of [['GET', '/bots'], ['POST', '/auth/me'], ['GET', '/scans'], ['GET', '/governors'], ['GET', '/store/items'], ['POST', '/points/transactions'], ['GET', '/player-ids'], ['GET', '/kingdom/settings'], ['DELETE', '/scans/1'], ['POST', '/store/items']] as const) {
      const answer = await call(ctx.server, method, url, { token, body: method === 'GET' ? undefined : {} });
      expect(answer.status, `${method} ${url}`).toBe(401);
    }
    // scan upload takes it: a preview without a file is a 400 about the file, not a 401
    const preview = await fetch(`${ctx.server.httpUrl}/scans/preview`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: new FormData() });
    expect(preview.status).toBe(400);
    const apply = await call(ctx.server, 'POST', '/scans/apply', { token, body: { token: 'nope' } });
    expect(apply.status).toBe(400);
    const watch = await TestSocket.open(watchUrl());
    watch.send({ type: 'AUTHENTICATION', access_token: `Bearer ${token}` });
    expect((await watch.closed).code).toBe(BOT_CLOSE.unauthorized);
    const council = await TestSocket.open(watchUrl());
    council.send({ type: 'AUTHENTICATION', access_token: `Bearer ${ctx.council.token}` });
    expect(await council.nextOf(BOT_MSG.BOT_ERROR)).toMatchObject({ error: 'Only admins may watch the bots.' });
  });

  it('status and logs reach the watchers; no status for 45 s (injected clock) makes the bot offline', async () => {
    const { bot, token } = await registerBot('Heartbeat bot');
    const { socket: watch } = await watcher();
    const socket = await helloBot(token);
    await socket.nextOf(BOT_MSG.BOT_WELCOME);
    socket.send({ type: BOT_MSG.BOT_STATUS, state: 'scanning', progress: { done: 12, total: 300, etaSeconds: 900 }, message: 'Governor 12 of 300' });
    const scanning = await watch.waitFor((f) => f.type === BOT_MSG.BOT_UPDATE && (f.bot as { id: number; state: string }).id === bot.id && (f.bot as { state: string }).state === 'scanning');
    expect(scanning.bot).toMatchObject({ online: true, progress: { done: 12, total: 300, etaSeconds: 900 } });
    socket.send({ type: BOT_MSG.BOT_LOG, level: 'warn', text: 'Power check failed for 1234' });
    const lines = await watch.waitFor((f) => f.type === BOT_MSG.BOT_LOG_LINES && (f.lines as { text: string }[]).some((l) => l.text === 'Power check failed for 1234'));
    expect((lines.lines as { botId: number; level: string }[]).find((l) => l.level === 'warn')).toMatchObject({ botId: bot.id, level: 'warn' });

    clock += BOT_OFFLINE_AFTER_MS - 1000;
    ctx.server.bots.sweep();
    expect(await botOf(bot.id)).toMatchObject({ online: true });
    socket.send({ type: BOT_MSG.BOT_STATUS, state: 'scanning' });
    await watch.waitFor((f) => f.type === BOT_MSG.BOT_UPDATE && (f.bot as { id: number; lastSeenAt: number }).id === bot.id && (f.bot as { lastSeenAt: number }).lastSeenAt === clock);
    clock += BOT_OFFLINE_AFTER_MS;
    expect(await botOf(bot.id)).toMatchObject({ online: false, state: null });
    ctx.server.bots.sweep();
    expect((await socket.closed).code).toBe(BOT_CLOSE.silent);
    const offline = await watch.waitFor((f) => f.type === BOT_MSG.BOT_UPDATE && (f.bot as { id: number; online: boolean }).id === bot.id && !(f.bot as { online: boolean }).online);
    expect(offline.bot).toMatchObject({ online: false, lastSeenAt: clock - BOT_OFFLINE_AFTER_MS });
    watch.close();
  });

  it('commands reach the bot and its answer reaches the admin; unknown commands and offline bots are refused; each command is audited', async () => {
    const { bot, token } = await registerBot('Command bot');
    const { socket: watch } = await watcher();
    const socket = await helloBot(token, ['rescan']);
    await socket.nextOf(BOT_MSG.BOT_WELCOME);
    const sent = await call(ctx.server, 'POST', `/bots/${bot.id}/commands`, { token: ctx.admin.token, body: { command: 'rescan', args: ['--fast'] } });
    expect(sent.status, sent.text).toBe(200);
    const id = (sent.body.command as { id: string }).id;
    expect(await socket.nextOf(BOT_MSG.COMMAND)).toEqual({ type: 'COMMAND', id, command: 'rescan', args: ['--fast'] });
    expect(await watch.nextOf(BOT_MSG.COMMAND_SENT)).toMatchObject({ command: { id, botId: bot.id, command: 'rescan', by: ctx.admin.username } });
    socket.send({ type: BOT_MSG.COMMAND_RESULT, id, ok: true, output: 'rescanned' });
    expect(await watch.nextOf(BOT_MSG.COMMAND_ANSWER)).toMatchObject({ answer: { id, botId: bot.id, ok: true, output: 'rescanned' } });
    // an answer to nothing it was asked is ignored
    socket.send({ type: BOT_MSG.COMMAND_RESULT, id: 'made-up', ok: true, output: 'x' });
    await expect(watch.nextOf(BOT_MSG.COMMAND_ANSWER, 200)).rejects.toThrow(/no matching frame/);

    expect((await call(ctx.server, 'POST', `/bots/${bot.id}/commands`, { token: ctx.admin.token, body: { command: 'format-disk' } })).status).toBe(400);
    expect((await call(ctx.server, 'POST', `/bots/${bot.id}/commands`, { token: ctx.admin.token, body: { command: 'bad command!' } })).status).toBe(400);
    expect((await call(ctx.server, 'POST', '/bots/999999/commands', { token: ctx.admin.token, body: { command: 'ping' } })).status).toBe(404);

    // a command waiting when the bot goes away is answered as failed
    const waiting = await call(ctx.server, 'POST', `/bots/${bot.id}/commands`, { token: ctx.admin.token, body: { command: 'ping' } });
    socket.close();
    expect(await watch.waitFor((f) => f.type === BOT_MSG.COMMAND_ANSWER && (f.answer as { id: string }).id === (waiting.body.command as { id: string }).id)).toMatchObject({ answer: { ok: false } });
    const offline = await call(ctx.server, 'POST', `/bots/${bot.id}/commands`, { token: ctx.admin.token, body: { command: 'ping' } });
    expect(offline).toMatchObject({ status: 409, body: { result: false, error: 'This bot is offline: it cannot take a command now.' } });

    const audit = await ctx.server.db.selectFrom('audit_log').select(['action', 'detail']).where('target', '=', 'Command bot').where('action', '=', 'bot.command').execute();
    expect(audit.map((a) => JSON.parse(a.detail).command)).toEqual(['rescan', 'ping']);
    watch.close();
  });

  it('budgets: lines over 50 a second are dropped with one warning, the ring is bounded, frames over the size are refused, floods close', async () => {
    const { bot, token } = await registerBot('Chatty bot');
    const socket = await helloBot(token);
    await socket.nextOf(BOT_MSG.BOT_WELCOME);
    for (let i = 0; i < 150; i++) socket.send({ type: BOT_MSG.BOT_LOG, level: 'info', text: `line ${i}` });
    socket.send({ type: BOT_MSG.BOT_STATUS, state: 'idle' });
    // the first dropped line is said at once, the rest at most once a second
    expect(await socket.nextOf(BOT_MSG.BOT_ERROR)).toMatchObject({ error: '1 log lines dropped: a bot may send at most 50 a second.' });
    clock += 1500;
    socket.send({ type: BOT_MSG.BOT_LOG, level: 'info', text: 'after' });
    expect(await socket.nextOf(BOT_MSG.BOT_ERROR)).toMatchObject({ error: '49 log lines dropped: a bot may send at most 50 a second.' });
    const { snapshot, socket: watch } = await watcher();
    const mine = (snapshot.lines as { botId: number; text: string; level: string }[]).filter((l) => l.botId === bot.id);
    // the burst of 100, the hello's line, the warning and the line after it
    expect(mine.filter((l) => l.text.startsWith('line ')).length).toBe(100);
    expect(mine.some((l) => l.level === 'warn' && l.text.includes('log lines dropped'))).toBe(true);
    expect(mine.at(-1)?.text).toBe('after');
    watch.close();

    const big = await helloBot(token);
    await big.nextOf(BOT_MSG.BOT_WELCOME);
    big.send({ type: BOT_MSG.BOT_LOG, level: 'info', text: 'x'.repeat(20_000) });
    expect((await big.closed).code).toBe(1009);

    // more than twice the frames a second at once (the clock stands still): closed
    const flood = await helloBot(token);
    await flood.nextOf(BOT_MSG.BOT_WELCOME);
    for (let i = 0; i < 250; i++) flood.send({ type: BOT_MSG.BOT_STATUS, state: 'idle' });
    expect(await flood.nextOf(BOT_MSG.BOT_ERROR)).toMatchObject({ error: 'Too many frames: slow down.' });
    expect((await flood.closed).code).toBe(BOT_CLOSE.overLimit);
    // a frame that is not the protocol is refused with a sentence, the connection stays
    const odd = await helloBot(token);
    await odd.nextOf(BOT_MSG.BOT_WELCOME);
    odd.send('not json');
    expect(await odd.nextOf(BOT_MSG.BOT_ERROR)).toMatchObject({ error: 'Frames are JSON text.' });
    odd.send({ type: BOT_MSG.BOT_STATUS, state: 'dancing' });
    expect(await odd.nextOf(BOT_MSG.BOT_ERROR)).toMatchObject({ error: 'This frame does not match the bot protocol.' });
    expect(odd.isOpen).toBe(true);
    odd.close();
  });

  it('the ring keeps the last 1000 lines of a bot', async () => {
    const { bot, token } = await registerBot('Ring bot');
    const socket = await helloBot(token);
    await socket.nextOf(BOT_MSG.BOT_WELCOME);
    for (let i = 0; i < 1200; i++) {
      if (i % 50 === 0) clock += 2000;
      socket.send({ type: BOT_MSG.BOT_LOG, level: 'debug', text: `ring ${i}` });
      if (i % 50 === 49) await new Promise<void>((resolve) => setImmediate(resolve));
    }
    socket.send({ type: BOT_MSG.BOT_STATUS, state: 'idle' });
    // a connection's frames are handled in order: once the probe is answered, every line before it is in the ring
    await socket.roundTrip();
    const { snapshot, socket: watch } = await watcher();
    const mine = (snapshot.lines as { botId: number; text: string }[]).filter((l) => l.botId === bot.id);
    expect(mine.length).toBeLessThanOrEqual(1000);
    expect(mine.some((l) => l.text.includes('dropped'))).toBe(false);
    expect(mine.at(-1)?.text).toBe('ring 1199');
    expect(mine[0].text).toBe('ring 200');
    watch.close();
    socket.close();
  });
});

describe('the reference agent', () => {
  it('uploads a finished file once, a restarted agent sends nothing twice, and it reconnects to a restarted server', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kingdom-agent-server-'));
    const watchDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kingdom-agent-watch-'));
    let server = await startServer(ephemeralConfig(dataDir, {}));
    const port = Number(new URL(server.httpUrl).port);
    const admin = await signedIn(server, 'agentadmin');
    const made = await call(server, 'POST', '/bots', { token: admin.token, body: { name: 'Agent' } });
    const botToken = made.body.token as string;
    const csv = 'ID,Name,Power,Killpoints,Alliance\n1001,Alpha,5000000,1000,K1\n1002,Beta,4000000,900,K2\n';
    fs.writeFileSync(path.join(watchDir, 'TOP300-2025-12-29-3328-[abc].csv'), csv);
    fs.writeFileSync(path.join(watchDir, 'notes.txt'), 'not a scan');

    const printed: string[] = [];
    const makeAgent = () => new Agent({ server: server.httpUrl, token: botToken, watchDir, settleMs: 0, pollMs: 50, print: (_l, t) => printed.push(t) });
    let agent = makeAgent();
    const welcomed = new Promise<void>((resolve) => (agent.onWelcome = resolve));
    const sent = new Promise<string>((resolve) => (agent.onSent = (name) => resolve(name)));
    agent.start();
    await welcomed;
    expect(await sent).toBe('TOP300-2025-12-29-3328-[abc].csv');
    const scans = await call(server, 'GET', '/scans', { token: admin.token });
    expect(scans.body.scans).toEqual([expect.objectContaining({ rows: 2, kind: 'seed', source: 'bot', takenAt: Date.UTC(2025, 11, 29) })]);
    expect((await call(server, 'GET', '/bots', { token: admin.token })).body.bots).toEqual([expect.objectContaining({ name: 'Agent', online: true, lastScanAt: expect.any(Number) })]);
    // the audit log names the bot that filed the scan
    const audit = await call(server, 'GET', '/audit?action=scan.apply', { token: admin.token });
    expect(audit.body.entries).toEqual([expect.objectContaining({ actor: 'bot Agent', action: 'scan.apply' })]);
    await agent.stop();

    // restarted: the state file says it was sent; a second file is the only upload
    agent = makeAgent();
    const uploads: string[] = [];
    const second = new Promise<void>((resolve) => {
      agent.onSent = (name) => {
        uploads.push(name);
        resolve();
      };
    });
    agent.start();
    fs.writeFileSync(path.join(watchDir, 'TOP300-2025-12-30-3328-[abd].csv'), csv.replace('5000000', '5100000'));
    await second;
    await agent.poll();
    expect(uploads).toEqual(['TOP300-2025-12-30-3328-[abd].csv']);
    expect(((await call(server, 'GET', '/scans', { token: admin.token })).body.scans as unknown[]).length).toBe(2);

    // the server restarts on the same port and data: the agent connects again by itself
    const reconnected = new Promise<void>((resolve) => (agent.onWelcome = resolve));
    await server.close();
    server = await startServer(ephemeralConfig(dataDir, { port }));
    await reconnected;
    expect((await call(server, 'GET', '/bots', { token: admin.token })).body.bots).toEqual([expect.objectContaining({ name: 'Agent', online: true })]);
    expect(printed.some((t) => t.startsWith('Disconnected'))).toBe(true);
    await agent.stop();
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(watchDir, { recursive: true, force: true });
  }, 60_000);

  it('answers ping, says start-scan is not configured without a command, runs one with progress when it has one', async () => {
    const watchDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kingdom-agent-cmd-'));
    const { bot, token } = await registerBot('Agent commands');
    const { socket: watch } = await watcher();
    const ask = async (command: string) => {
      const sent = await call(ctx.server, 'POST', `/bots/${bot.id}/commands`, { token: ctx.admin.token, body: { command } });
      expect(sent.status, sent.text).toBe(200);
      const id = (sent.body.command as { id: string }).id;
      return (await watch.waitFor((f) => f.type === BOT_MSG.COMMAND_ANSWER && (f.answer as { id: string }).id === id, 10_000)).answer as { ok: boolean; output: string };
    };
    let agent = new Agent({ server: ctx.server.httpUrl, token, watchDir, settleMs: 0, pollMs: 1000, print: () => undefined });
    let welcomed = new Promise<void>((resolve) => (agent.onWelcome = resolve));
    agent.start();
    await welcomed;
    expect(await ask('ping')).toMatchObject({ ok: true, output: expect.stringContaining('pong') });
    expect(await ask('start-scan')).toMatchObject({ ok: false, output: expect.stringContaining('not configured') });
    await agent.stop();

    const script = path.join(watchDir, 'scan.mjs');
    fs.writeFileSync(script, "console.log('Governor 1 of 4'); console.log('Governor 2 of 4');\n");
    agent = new Agent({ server: ctx.server.httpUrl, token, watchDir, scanCommand: `node ${JSON.stringify(script)}`, settleMs: 0, pollMs: 1000, print: () => undefined });
    welcomed = new Promise<void>((resolve) => (agent.onWelcome = resolve));
    agent.start();
    await welcomed;
    expect(await ask('start-scan')).toMatchObject({ ok: true, output: expect.stringContaining('Scan started') });
    const progress = await watch.waitFor((f) => f.type === BOT_MSG.BOT_LOG_LINES && (f.lines as { text: string }[]).some((l) => l.text === 'The scan finished.'), 10_000);
    // the agent sends its lines in batches: the progress may come in a frame before the last one
    const batches = [...watch.drain().filter((f) => f.type === BOT_MSG.BOT_LOG_LINES), progress];
    expect(batches.flatMap((f) => (f.lines as { text: string }[]).map((l) => l.text))).toEqual(expect.arrayContaining(['Governor 2 of 4']));
    await agent.stop();
    watch.close();
    fs.rmSync(watchDir, { recursive: true, force: true });
  }, 30_000);

  it.skipIf(process.platform === 'win32')('stop ends the whole scan command, what its shell started included; stopping the agent does too', async () => {
    const watchDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kingdom-agent-group-'));
    const { bot, token } = await registerBot('Agent group');
    const { socket: watch } = await watcher();
    const ask = async (command: string) => {
      const sent = await call(ctx.server, 'POST', `/bots/${bot.id}/commands`, { token: ctx.admin.token, body: { command } });
      const id = (sent.body.command as { id: string }).id;
      return (await watch.waitFor((f) => f.type === BOT_MSG.COMMAND_ANSWER && (f.answer as { id: string }).id === id, 10_000)).answer as { ok: boolean; output: string };
    };
    const pidFile = path.join(watchDir, 'grandchild.pid');
    // the shell starts a long-lived process of its own, as a scanner's launcher does
    const agent = new Agent({ server: ctx.server.httpUrl, token, watchDir, scanCommand: `sleep 300 & echo $! > ${JSON.stringify(pidFile)}; wait`, settleMs: 0, pollMs: 1000, print: () => undefined });
    const welcomed = new Promise<void>((resolve) => (agent.onWelcome = resolve));
    agent.start();
    await welcomed;
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    let grandchild = 0;
    try {
      for (const stopBy of ['command', 'agent'] as const) {
        if (fs.existsSync(pidFile)) fs.rmSync(pidFile);
        expect(await ask('start-scan')).toMatchObject({ ok: true });
        await expect.poll(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8').trim() !== '', { timeout: 10_000 }).toBe(true);
        grandchild = Number(fs.readFileSync(pidFile, 'utf8').trim());
        expect(alive(grandchild)).toBe(true);
        if (stopBy === 'command') expect(await ask('stop')).toMatchObject({ ok: true });
        else await agent.stop();
        await expect.poll(() => alive(grandchild), { timeout: 10_000 }).toBe(false);
        if (stopBy === 'command') await watch.waitFor((f) => f.type === BOT_MSG.BOT_LOG_LINES && (f.lines as { text: string }[]).some((l) => l.text.startsWith('The scan command')), 10_000);
      }
    } finally {
      if (grandchild && alive(grandchild)) process.kill(grandchild, 'SIGKILL');
      await agent.stop();
      watch.close();
      fs.rmSync(watchDir, { recursive: true, force: true });
    }
  }, 40_000);
});

describe('bots: caps', () => {
  it('bot connections are capped; the same bot connecting again replaces its older connection', async () => {
    const server = await startTestServer({}, { botLimits: { maxBots: 1 } });
    try {
      const admin = await signedIn(server, 'capadmin');
      const tokens = [];
      for (const name of ['One', 'Two']) tokens.push((await call(server, 'POST', '/bots', { token: admin.token, body: { name } })).body.token as string);
      const url = server.httpUrl.replace(/^http/, 'ws') + '/bots';
      const first = await TestSocket.open(url);
      first.send({ type: BOT_MSG.BOT_HELLO, token: tokens[0], version: '1' });
      await first.nextOf(BOT_MSG.BOT_WELCOME);
      const second = await TestSocket.open(url);
      second.send({ type: BOT_MSG.BOT_HELLO, token: tokens[1], version: '1' });
      expect(await second.nextOf(BOT_MSG.BOT_ERROR)).toMatchObject({ error: 'Too many bots are connected.' });
      expect((await second.closed).code).toBe(BOT_CLOSE.overLimit);
      const again = await TestSocket.open(url);
      again.send({ type: BOT_MSG.BOT_HELLO, token: tokens[0], version: '2' });
      await again.nextOf(BOT_MSG.BOT_WELCOME);
      expect((await first.closed).code).toBe(BOT_CLOSE.replaced);
      again.close();
    } finally {
      await server.close();
    }
  });
});

describe('bots: watchers', () => {
  it('an admin demoted while watching is closed out at the next heartbeat', async () => {
    const server = await startTestServer({ heartbeatMs: 100 });
    try {
      const admin = await signedIn(server, 'firstadmin');
      const second = await signedIn(server, 'secondadmin');
      expect((await call(server, 'POST', `/admin/users/${second.username}/rank`, { token: admin.token, body: { rank: 'admin' } })).status).toBe(200);
      const socket = await TestSocket.open(server.httpUrl.replace(/^http/, 'ws') + '/bots/watch');
      socket.send({ type: 'AUTHENTICATION', access_token: `Bearer ${second.token}` });
      await socket.nextOf(BOT_MSG.BOTS_SNAPSHOT);
      expect((await call(server, 'POST', `/admin/users/${second.username}/rank`, { token: admin.token, body: { rank: 'user' } })).status).toBe(200);
      expect((await socket.closed).code).toBe(BOT_CLOSE.unauthorized);
    } finally {
      await server.close();
    }
  });
});

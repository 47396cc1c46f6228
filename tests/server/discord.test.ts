import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISCORD_ERRORS } from '../../src/protocol/discord';
import { runAdminCli } from '../../server/cli/admin';
import { DISCORD_TEXTS } from '../../server/discord/texts';
import { ASK_TEXTS } from '../../server/discord/ask-texts';
import { LONG_NAMES, seedCardKingdom, type CardKingdom } from '../../scripts/cards-kingdom';
import { call, login, newAccount, register, signedIn, startTestServer } from './helpers';

/**
 * A stand-in for Discord: it signs interactions with its own Ed25519 key, as Discord does, and
 * takes webhook posts at /api/webhooks/:id/:token, answering each webhook as the test sets it
 * (taken, rate limited with retry_after, unknown), recording what it received.
 */
class StandInDiscord {
  readonly keys = crypto.generateKeyPairSync('ed25519');
  readonly publicKey = this.keys.publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('hex');
  readonly received: { url: string; method: string; body: Record<string, unknown>; raw: Buffer; type: string }[] = [];
  private readonly waiting: { match: (url: string) => boolean; resolve: (entry: StandInDiscord['received'][number]) => void }[] = [];
  readonly answers = new Map<string, { status: number; body?: unknown }>();
  /** Answers given once, before `answers` (a 429 Discord then lifts). */
  readonly once = new Map<string, { status: number; body?: unknown }>();
  readonly authorizations: (string | undefined)[] = [];
  private readonly server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = (request.url ?? '').replace(/\?.*$/, '');
      const raw = Buffer.concat(chunks);
      const type = request.headers['content-type'] ?? '';
      const entry = { url, method: request.method ?? '', body: type.startsWith('application/json') ? (JSON.parse(raw.toString() || '{}') as Record<string, unknown>) : {}, raw, type };
      this.received.push(entry);
      for (const waiter of this.waiting.filter((w) => w.match(url))) {
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        waiter.resolve(entry);
      }
      this.authorizations.push(request.headers.authorization);
      const first = this.once.get(url);
      this.once.delete(url);
      const answer = first ?? this.answers.get(url) ?? { status: 200, body: { id: '1' } };
      response.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body ?? {}));
    });
  });
  origin = '';

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** The first request to `url`, received already or when it comes (a follow-up comes after the first answer, once the card is drawn). */
  next(url: string): Promise<StandInDiscord['received'][number]> {
    const seen = this.received.find((r) => r.url === url);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiting.push({ match: (u) => u === url, resolve }));
  }

  /** The request to `url` after the `seen` ones already received. */
  nextAfter(url: string, seen: number): Promise<StandInDiscord['received'][number]> {
    const tries = this.received.filter((r) => r.url === url);
    if (tries.length > seen) return Promise.resolve(tries[seen]);
    return new Promise((resolve) => this.waiting.push({ match: (u) => u === url, resolve }));
  }

  webhook(name: string): string {
    return `${this.origin}/api/webhooks/1234567890123456${name.length}/${name.padEnd(24, 'x')}`;
  }

  /** Headers Discord would send with `body`, signed at `at` (epoch s). */
  sign(body: string, at = Math.floor(Date.now() / 1000)): Record<string, string> {
    const timestamp = String(at);
    const signature = crypto.sign(null, Buffer.from(timestamp + body), this.keys.privateKey).toString('hex');
    return { 'x-signature-ed25519': signature, 'x-signature-timestamp': timestamp };
  }
}

let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: Awaited<ReturnType<typeof signedIn>>;
let council: Awaited<ReturnType<typeof signedIn>>;
const discord = new StandInDiscord();
let interactionId = 1_000_000_000_000_000;
const BOT_TOKEN = 'MTIzNDU2Nzg5MDEyMzQ1Njc4.Gabcde.secret-bot-token-value';

beforeAll(async () => {
  await discord.start();
  // the server's Discord is the stand-in: its webhooks are the ones settings accept besides Discord's own
  server = await startTestServer({ discordApiUrl: `${discord.origin}/api/v10` });
  admin = await signedIn(server, 'admin'); // the first account
  council = await signedIn(server, 'council');
  await call(server, 'POST', `/admin/users/${council.username}/rank`, { token: admin.token, body: { rank: 'council' } });
});
afterAll(async () => {
  await server.close();
  await discord.stop();
});

const settings = (overrides: Record<string, unknown> = {}) => ({
  applicationId: '123456789012345678',
  publicKey: discord.publicKey,
  botToken: BOT_TOKEN,
  guildId: '223456789012345678',
  language: 'en',
  webhooks: { auctions: discord.webhook('auctions'), sales: discord.webhook('sales'), scans: discord.webhook('scans') },
  ...overrides,
});

/** An interaction as Discord posts it, signed unless `headers` are given. */
async function interact(payload: Record<string, unknown>, headers?: Record<string, string>) {
  const raw = JSON.stringify({ id: String(interactionId++), application_id: '123456789012345678', token: 'tok', version: 1, ...payload });
  return call(server, 'POST', '/discord/interactions', { raw, headers: headers ?? discord.sign(raw) });
}
const command = (name: string, user: string, locale = 'en-US') => ({ type: 2, locale, data: { id: '1', name, type: 1 }, member: { user: { id: user, username: 'x' } }, guild_id: '223456789012345678' });

describe('Discord settings', () => {
  it('an admin saves them; the bot token is never answered, nor written in the audit log', async () => {
    expect((await call(server, 'PUT', '/discord/settings', { token: council.token, body: settings() })).status).toBe(403);
    const badKey = await call(server, 'PUT', '/discord/settings', { token: admin.token, body: settings({ publicKey: 'abc' }) });
    expect([badKey.status, badKey.body.error]).toEqual([400, DISCORD_ERRORS.badPublicKey]);
    const elsewhere = await call(server, 'PUT', '/discord/settings', { token: admin.token, body: settings({ webhooks: { auctions: 'https://evil.example/api/webhooks/123456789012345678/abcdefghijklmnopqrstuvwxyz' } }) });
    expect([elsewhere.status, elsewhere.body.error]).toEqual([400, DISCORD_ERRORS.badWebhook]);

    const saved = await call(server, 'PUT', '/discord/settings', { token: admin.token, body: settings() });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.settings).toMatchObject({ applicationId: '123456789012345678', botTokenSet: true, webhooks: { auctions: discord.webhook('auctions') } });
    expect(saved.text).not.toContain(BOT_TOKEN);
    const read = await call(server, 'GET', '/discord/settings', { token: admin.token });
    expect(read.body.settings).toEqual(saved.body.settings);
    expect(read.text).not.toContain(BOT_TOKEN);

    // left out: the token is kept; null: removed, and the audit says which, never the value
    const kept = await call(server, 'PUT', '/discord/settings', { token: admin.token, body: { ...settings(), botToken: undefined } });
    expect((kept.body.settings as { botTokenSet: boolean }).botTokenSet).toBe(true);
    const audit = await call(server, 'GET', '/audit?action=discord.settings', { token: admin.token });
    expect(audit.text).not.toContain(BOT_TOKEN);
    expect(audit.text).not.toContain('auctionsxxx');
    expect((audit.body.entries as { detail: { botToken: string } }[]).map((e) => e.detail.botToken)).toEqual(['kept', 'changed']);
  });

  it('the test message goes to every webhook set and says what each failure was', async () => {
    discord.answers.set(new URL(discord.webhook('sales')).pathname, { status: 429, body: { message: 'You are being rate limited.', retry_after: 2.5, global: false } });
    discord.answers.set(new URL(discord.webhook('scans')).pathname, { status: 404, body: { message: 'Unknown Webhook', code: 10015 } });
    const sent = await call(server, 'POST', '/discord/test', { token: admin.token });
    expect(sent.status, sent.text).toBe(200);
    expect(sent.body.sent).toEqual(['auctions']);
    expect(sent.body.errors).toEqual([
      { kind: 'sales', text: 'Discord asked to wait 3 s (rate limit): try again then.' },
      { kind: 'scans', text: expect.stringContaining('Discord refused this webhook (404)') },
    ]);
    const posted = discord.received.find((r) => r.url === new URL(discord.webhook('auctions')).pathname);
    expect(posted?.body).toEqual({ content: 'Kingdom is connected: auctions announcements will appear in this channel.', allowed_mentions: { parse: [] } });
  });
});

describe('installing the commands', () => {
  it('puts every command in the guild with the bot token, and says what to fix when Discord refuses', async () => {
    const path = '/api/v10/applications/123456789012345678/guilds/223456789012345678/commands';
    const installed = await call(server, 'POST', '/discord/commands', { token: admin.token });
    expect([installed.status, installed.body]).toEqual([200, { result: true, installed: ['link', 'me', 'stats', 'top', 'kvk', 'points', 'auctions'] }]);
    const put = discord.received.filter((r) => r.url === path).at(-1);
    expect(discord.authorizations.at(-1)).toBe(`Bot ${BOT_TOKEN}`);
    expect((put?.body as unknown as { name: string }[]).map((c) => c.name)).toEqual(['link', 'me', 'stats', 'top', 'kvk', 'points', 'auctions']);

    discord.answers.set(path, { status: 401, body: { message: '401: Unauthorized', code: 0 } });
    const refused = await call(server, 'POST', '/discord/commands', { token: admin.token });
    expect([refused.status, refused.body.error]).toEqual([502, expect.stringContaining('Discord refused the bot token (401)')]);
    expect(refused.text).not.toContain(BOT_TOKEN);
    expect((await call(server, 'POST', '/discord/commands', { token: council.token })).status).toBe(403);

    // npm run admin -- discord register: the same, from the command line
    discord.answers.delete(path);
    const lines: string[] = [];
    const io = { out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) };
    const before = process.env.DISCORD_API_URL;
    process.env.DISCORD_API_URL = `${discord.origin}/api/v10`;
    try {
      expect(await runAdminCli(['discord', 'register'], server.config.dataDir, io, server.config.databaseUrl)).toBe(0);
      discord.answers.set(path, { status: 404, body: { message: 'Unknown Guild' } });
      expect(await runAdminCli(['discord', 'register'], server.config.dataDir, io, server.config.databaseUrl)).toBe(1);
    } finally {
      if (before === undefined) delete process.env.DISCORD_API_URL;
      else process.env.DISCORD_API_URL = before;
      discord.answers.delete(path);
    }
    expect(lines).toEqual(['Installed in the Discord server 223456789012345678: /link /me /stats /top /kvk /points /auctions', expect.stringContaining('(404)')]);
  });
});

describe('the interactions endpoint', () => {
  it('refuses what Discord did not sign, a stale signature and a replay (401); answers PING with PONG', async () => {
    expect((await interact({ type: 1 }, {})).status).toBe(401);
    const raw = JSON.stringify({ id: '99', type: 1 });
    const forged = discord.sign(JSON.stringify({ id: '99', type: 2 }));
    expect((await call(server, 'POST', '/discord/interactions', { raw, headers: forged })).status).toBe(401);
    const stale = discord.sign(raw, Math.floor(Date.now() / 1000) - 301);
    expect((await call(server, 'POST', '/discord/interactions', { raw, headers: stale })).status).toBe(401);

    const headers = discord.sign(raw);
    const pong = await call(server, 'POST', '/discord/interactions', { raw, headers });
    expect([pong.status, pong.body]).toEqual([200, { type: 1 }]);
    const replay = await call(server, 'POST', '/discord/interactions', { raw, headers });
    expect([replay.status, replay.body.error]).toEqual([401, DISCORD_ERRORS.badSignature]);
  });

  it('an unknown command and an unlinked user get a polite private answer, in their Discord language when it is one of the six', async () => {
    const unknown = await interact(command('dance', '323456789012345678'));
    expect(unknown.body).toEqual({ type: 4, data: { content: DISCORD_TEXTS.en.unknown, flags: 64, allowed_mentions: { parse: [] } } });
    const french = await interact(command('points', '323456789012345678', 'fr'));
    expect((french.body.data as { content: string }).content).toBe(DISCORD_TEXTS.fr.needsLink);
    const japanese = await interact(command('points', '323456789012345678', 'ja'));
    expect((japanese.body.data as { content: string }).content).toBe(DISCORD_TEXTS.en.needsLink);
  });

  it('each Discord user has a budget of commands: over it, a polite private answer and no work; another user is not held up', async () => {
    const { INTERACTION_BUDGETS } = await import('../../server/discord/interactions');
    const eager = '923456789012345678';
    const answers: string[] = [];
    for (let i = 0; i <= INTERACTION_BUDGETS.command.burst; i++) answers.push(((await interact(command('points', eager, 'fr'))).body.data as { content: string }).content);
    expect(answers.slice(0, INTERACTION_BUDGETS.command.burst).every((a) => a === DISCORD_TEXTS.fr.needsLink)).toBe(true);
    expect(answers.at(-1)).toBe(DISCORD_TEXTS.fr.slowDown);
    const other = await interact(command('points', '823456789012345678', 'fr'));
    expect((other.body.data as { content: string }).content).toBe(DISCORD_TEXTS.fr.needsLink);
  });

  it('/link gives a one-time link; the signed-in account that opens it is linked, once; /points then answers privately', async () => {
    const discordUser = '423456789012345678';
    const player = await signedIn(server, 'linker');
    const answer = await interact(command('link', discordUser));
    const content = (answer.body.data as { content: string; flags: number }).content;
    expect((answer.body.data as { flags: number }).flags).toBe(64);
    const code = /account-settings\?discord=([\w-]+)/.exec(content)?.[1] ?? '';
    expect(code).toMatch(/^[\w-]{32}$/);

    expect((await call(server, 'GET', '/discord/link', { token: player.token })).body).toEqual({ result: true, discordUserId: null, linkedAt: null });
    const linked = await call(server, 'POST', '/discord/link', { token: player.token, body: { code } });
    expect([linked.status, linked.body]).toEqual([200, { result: true, discordUserId: discordUser }]);
    const again = await call(server, 'POST', '/discord/link', { token: council.token, body: { code } });
    expect([again.status, again.body.error]).toEqual([409, DISCORD_ERRORS.codeUsed]);
    // one Discord user, one account: another account cannot take it with a new code
    const second = /discord=([\w-]+)/.exec(((await interact(command('link', discordUser))).body.data as { content: string }).content)?.[1] ?? '';
    const taken = await call(server, 'POST', '/discord/link', { token: council.token, body: { code: second } });
    expect([taken.status, taken.body.error]).toEqual([409, DISCORD_ERRORS.discordTaken]);
    const unknownCode = await call(server, 'POST', '/discord/link', { token: council.token, body: { code: 'x'.repeat(32) } });
    expect([unknownCode.status, unknownCode.body.error]).toEqual([400, DISCORD_ERRORS.badCode]);

    await call(server, 'POST', '/points/transactions', { token: admin.token, body: { username: player.username, delta: 1500, reason: 'KvK *hero* @everyone' } });
    const points = ((await interact(command('points', discordUser))).body.data as { content: string }).content;
    expect(points).toContain('Your points: 1,500 · reserved 0 · available 1,500');
    expect(points).toContain('+1,500  KvK hero everyone');
    // no governor of theirs was scanned yet: /me answers at once, without a card
    const me = (await interact(command('me', discordUser))).body as { type: number; data: { embeds: { title: string; fields: { name: string; value: string }[] }[] } };
    expect(me.type).toBe(4);
    expect(me.data.embeds[0].title).toBe(player.username);
    expect(me.data.embeds[0].fields.map((f) => f.name)).toEqual([ASK_TEXTS.en.myGovernors, ASK_TEXTS.en.myPoints, ASK_TEXTS.en.kvk]);
    expect(me.data.embeds[0].fields[0].value).toBe(`${ASK_TEXTS.en.neverScanned} · ${player.playerid} · ${ASK_TEXTS.en.main} · ${ASK_TEXTS.en.unverified}`);
    expect(me.data.embeds[0].fields[2].value).toBe(ASK_TEXTS.en.noSeason);

    expect((await call(server, 'DELETE', '/discord/link', { token: player.token })).status).toBe(200);
    expect((await call(server, 'DELETE', '/discord/link', { token: player.token })).body.error).toBe(DISCORD_ERRORS.notLinked);
    expect(((await interact(command('points', discordUser))).body.data as { content: string }).content).toBe(DISCORD_TEXTS.en.needsLink);
    const audit = await call(server, 'GET', `/audit?actor=${player.username}`, { token: admin.token });
    expect((audit.body.entries as { action: string; target: string }[]).map((e) => [e.action, e.target])).toEqual([
      ['discord.unlink', `discord:${discordUser}`],
      ['discord.link', `discord:${discordUser}`],
    ]);
  });
});

describe('asking: /me /stats /top /kvk /auctions', () => {
  type Message = { type: number; data?: { content?: string; flags?: number; embeds?: Embed[]; components?: { components: { url: string; label: string; style: number }[] }[]; choices?: { name: string; value: string }[] } };
  type Embed = { title?: string; description?: string; fields?: { name: string; value: string }[]; footer?: { text: string }; image?: { url: string } };
  const PLAYER_DISCORD = '523456789012345678';
  const COUNCIL_DISCORD = '623456789012345678';
  let kingdom: CardKingdom;
  let token = 0;

  const ask = async (name: string, user: string, options: Record<string, unknown>[] = [], locale = 'en-US', type = 2) => {
    const answer = await interact({ ...command(name, user, locale), type, token: `tok${++token}`, data: { id: '1', name, type: 1, options } });
    expect(answer.status, answer.text).toBe(200);
    return { body: answer.body as unknown as Message, token: `tok${token}` };
  };
  const followUpOf = (tok: string) => discord.next(`/api/v10/webhooks/123456789012345678/${tok}/messages/@original`);
  /** A follow-up's JSON part and its PNG, read back from the multipart body. */
  const multipart = (raw: Buffer) => {
    const text = raw.toString('latin1');
    const json = /name="payload_json"\r\n(?:[^\r\n]+\r\n)*\r\n([\s\S]*?)\r\n--/.exec(text)?.[1] ?? '{}';
    const pngAt = raw.indexOf(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    return { payload: JSON.parse(Buffer.from(json, 'latin1').toString('utf8')) as { embeds: Embed[]; attachments: { filename: string }[] }, png: pngAt >= 0 ? raw.subarray(pngAt, raw.indexOf('IEND', pngAt) + 8) : null };
  };
  const link = async (tokenOf: string, discordUser: string) => {
    const code = /discord=([\w-]+)/.exec((((await interact(command('link', discordUser))).body.data as { content: string }).content))?.[1] ?? '';
    expect((await call(server, 'POST', '/discord/link', { token: tokenOf, body: { code } })).status).toBe(200);
  };
  const option = (name: string, value: unknown, type = 3, focused?: boolean) => ({ name, type, value, ...(focused ? { focused } : {}) });

  beforeAll(async () => {
    // the player signed up with a governor of the fixture scans, so the sign-up links it
    const account = await register(server, { ...newAccount('asker'), playerid: String(LONG_NAMES.emoji) });
    const playerToken = await login(server, account.email);
    const row = await server.db.selectFrom('users').select('id').where('username', '=', account.username).executeTakeFirstOrThrow();
    kingdom = await seedCardKingdom(server.db, Date.now(), { playerId: row.id });
    await link(playerToken, PLAYER_DISCORD);
    await link(council.token, COUNCIL_DISCORD);
  }, 60_000);

  it('autocompletes a governor by name or id, at most 25, among those the asker may read', async () => {
    const all = (await ask('stats', COUNCIL_DISCORD, [option('governor', '', 3, true)], 'en-US', 4)).body;
    expect(all.type).toBe(8);
    expect(all.data?.choices).toHaveLength(25);
    const byName = (await ask('stats', COUNCIL_DISCORD, [option('governor', 'NORTHERN', 3, true)], 'en-US', 4)).body.data?.choices ?? [];
    expect(byName[0]).toEqual({ name: expect.stringContaining('Lord of the Northern') as string, value: String(LONG_NAMES.latin) });
    const byId = (await ask('kvk', COUNCIL_DISCORD, [option('governor', String(LONG_NAMES.chinese), 3, true)], 'en-US', 4)).body.data?.choices ?? [];
    expect(byId.map((c) => c.value)).toEqual([String(LONG_NAMES.chinese)]);
    // a player is offered only their own governors; an unlinked user nothing
    const mine = (await ask('stats', PLAYER_DISCORD, [option('governor', '', 3, true)], 'en-US', 4)).body.data?.choices ?? [];
    expect(mine.map((c) => c.value)).toEqual([String(LONG_NAMES.emoji)]);
    expect((await ask('stats', '723456789012345678', [option('governor', '', 3, true)], 'en-US', 4)).body.data?.choices).toEqual([]);
    // a long text is cut to what a name can be, never an error
    expect((await ask('stats', COUNCIL_DISCORD, [option('governor', 'x'.repeat(2000), 3, true)], 'en-US', 4)).body.data?.choices).toEqual([]);
  });

  it('/stats defers, then completes the answer with the governor card, in the asker’s language; another’s governor is refused to a player', async () => {
    for (const locale of ['en-US', 'fr']) {
      const asked = await ask('stats', COUNCIL_DISCORD, [option('governor', String(LONG_NAMES.arabic))], locale);
      expect(asked.body).toEqual({ type: 5, data: { flags: 64 } });
      const followUp = await followUpOf(asked.token);
      expect(followUp.method).toBe('PATCH');
      expect(followUp.type).toMatch(/^multipart\/form-data/);
      const { payload, png } = multipart(followUp.raw);
      expect(payload.embeds[0].image?.url).toBe('attachment://governor.png');
      expect(payload.attachments).toEqual([{ id: 0, filename: 'governor.png' }]);
      expect(png?.subarray(1, 4).toString()).toBe('PNG');
    }
    // the same card in two languages is two drawings
    const [en, fr] = discord.received.filter((r) => r.method === 'PATCH').slice(-2).map((r) => multipart(r.raw).png as Buffer);
    expect(en.equals(fr)).toBe(false);

    const theirs = await ask('stats', PLAYER_DISCORD, [option('governor', String(LONG_NAMES.arabic))], 'es-ES');
    expect(theirs.body.data?.content).toBe(ASK_TEXTS.es.notYours);
    const nobody = await ask('stats', PLAYER_DISCORD, [option('governor', 'Maximilian')], 'zh-CN');
    expect(nobody.body.data?.content).toBe('最新扫描中没有与“Maximilian”匹配的总督。');
    // Discord rate limits the follow-up once: it is sent again after retry_after
    discord.once.set(`/api/v10/webhooks/123456789012345678/tok${token + 1}/messages/@original`, { status: 429, body: { message: 'You are being rate limited.', retry_after: 0.05, global: false } });
    const own = await ask('stats', PLAYER_DISCORD, [option('governor', String(LONG_NAMES.emoji))]);
    expect(own.body.type).toBe(5);
    const url = `/api/v10/webhooks/123456789012345678/${own.token}/messages/@original`;
    await followUpOf(own.token);
    const second = await discord.nextAfter(url, 1);
    expect(multipart(second.raw).png).not.toBeNull();
    expect(discord.received.filter((r) => r.url === url)).toHaveLength(2);
  }, 60_000);

  it('/top lists the kingdom’s best by a stat, in two languages; a player may not read it; an unknown option is answered politely', async () => {
    const governors = await call(server, 'GET', '/governors?sort=killpoints&pageSize=3', { token: council.token });
    const names = (governors.body.governors as { name: string }[]).map((g) => g.name);
    const en = (await ask('top', COUNCIL_DISCORD, [option('stat', 'killpoints'), option('count', 3, 4)])).body;
    expect(en.data?.flags).toBe(64);
    expect(en.data?.embeds?.[0].title).toBe('Top 3 by Kill points');
    const lines = (en.data?.embeds?.[0].description ?? '').split('\n');
    expect(lines.map((l) => l.replace(/^\d+\. /, '').replace(/ \[.*$/, ''))).toEqual(names.map((n) => n.replace(/[`*_~|<>[\]@#]/g, '')));
    const it = (await ask('top', COUNCIL_DISCORD, [option('stat', 'power'), option('alliance', 'k2')], 'it')).body;
    expect(it.data?.embeds?.[0].title).toBe('I primi 10 per Potenza in k2');
    expect(it.data?.embeds?.[0].description?.split('\n').every((l) => l.includes('[K2]'))).toBe(true);

    expect((await ask('top', PLAYER_DISCORD, [option('stat', 'power')], 'fr')).body.data?.content).toBe(ASK_TEXTS.fr.forbidden);
    expect((await ask('top', COUNCIL_DISCORD, [option('stat', 'charm')])).body.data?.content).toBe('Kingdom does not understand this option: stat: charm.');
    expect((await ask('top', COUNCIL_DISCORD, [option('stat', 'power'), option('colour', 'red')])).body.data?.content).toBe('Kingdom does not understand this option: colour.');
    expect((await ask('me', COUNCIL_DISCORD, [option('count', '3')])).body.data?.content).toBe('Kingdom does not understand this option: count.');
  });

  it('/kvk: a player’s own progress, a named governor, and leadership’s standings card', async () => {
    const season = 'KvK 3 · Heroic Anthem';
    const mine = (await ask('kvk', PLAYER_DISCORD)).body;
    expect(mine.type).toBe(4);
    expect(mine.data?.embeds?.[0].title).toBe(`KvK: ${season}`);
    expect(mine.data?.embeds?.[0].description).toMatch(/ DKP · kills \d+% · deads \d+% · (Met|Not met)$/);
    const french = (await ask('kvk', PLAYER_DISCORD, [], 'fr')).body;
    expect(french.data?.embeds?.[0].description).toMatch(/ DKP · éliminations \d+ % · morts \d+ % · (Atteint|Non atteint)$/);
    expect((await ask('kvk', PLAYER_DISCORD, [option('governor', String(LONG_NAMES.korean))])).body.data?.content).toBe(ASK_TEXTS.en.notYours);
    const named = (await ask('kvk', COUNCIL_DISCORD, [option('governor', String(LONG_NAMES.korean))])).body;
    expect(named.data?.embeds?.[0].description).toContain('불멸의전사왕국수호자대장군: ');

    const card = await ask('kvk', COUNCIL_DISCORD);
    expect(card.body.type).toBe(5);
    const { payload, png } = multipart((await followUpOf(card.token)).raw);
    expect(payload.embeds[0].image?.url).toBe('attachment://kvk.png');
    expect(png).not.toBeNull();
  }, 60_000);

  it('/me: the governors, points and KvK progress, with the main governor’s card, in two languages', async () => {
    for (const [locale, t] of [['en-GB', ASK_TEXTS.en], ['es-419', ASK_TEXTS.es]] as const) {
      const asked = await ask('me', PLAYER_DISCORD, [], locale);
      expect(asked.body.type).toBe(5);
      const { payload } = multipart((await followUpOf(asked.token)).raw);
      const embed = payload.embeds[0];
      expect(embed.fields?.map((f) => f.name)).toEqual([t.myGovernors, t.myPoints, expect.stringContaining('KvK 3')]);
      expect(embed.fields?.[0].value).toContain(`${LONG_NAMES.emoji} · ${t.main}`);
      expect(embed.image?.url).toBe('attachment://governor.png');
    }
  }, 60_000);

  it('/auctions lists live and upcoming items with the bid and time left, and buttons to them in Kingdom', async () => {
    const now = Date.now();
    const item = (name: string, state: 'live' | 'scheduled', startsAt: number, amount: number, leader: number | null) => ({
      name,
      image_url: null,
      start_price: 100,
      min_increment: 10,
      starts_at: startsAt,
      duration_s: 3600,
      ends_at: startsAt + 3_600_000,
      extend_window_s: 0,
      max_extensions: 0,
      state,
      leader_id: leader,
      amount,
      created_by: kingdom.adminId,
      created_at: now,
      started_at: state === 'live' ? startsAt : null,
      settled_at: null,
    });
    const [live] = await server.db.insertInto('items').values(item('Golden key @everyone', 'live', now - 600_000, 2_500, kingdom.playerId)).returning('id').execute();
    await server.db.insertInto('items').values(item('Silver key', 'scheduled', now + 7_200_000, 0, null)).execute();
    const en = (await ask('auctions', PLAYER_DISCORD)).body;
    const fields = en.data?.embeds?.[0].fields ?? [];
    expect(fields.map((f) => f.name)).toEqual(['Live', 'Upcoming']);
    expect(fields[0].value).toBe(`**Golden key everyone**: 2,500 points · ends <t:${Math.floor((now + 3_000_000) / 1000)}:R>`);
    expect(fields[1].value).toBe(`**Silver key**: from 100 points · starts <t:${Math.floor((now + 7_200_000) / 1000)}:R>`);
    expect(en.data?.components?.[0].components[0]).toEqual({ type: 2, style: 5, label: 'Golden key everyone', url: expect.stringMatching(new RegExp(`/my-account/kingdom-store\\?item=${live.id}$`)) as string });
    const zh = (await ask('auctions', PLAYER_DISCORD, [], 'zh-CN')).body;
    expect(zh.data?.embeds?.[0].fields?.map((f) => f.name)).toEqual(['进行中', '即将开始']);
  });
});

describe('KvK Dashboard, Post to Discord', () => {
  it('queues the standings card for the kvk webhook once, sent with the PNG; says so when no kvk webhook is set; only leadership', async () => {
    const season = await server.db.selectFrom('kvk_seasons').select(['id', 'name']).where('end_scan_id', 'is', null).executeTakeFirstOrThrow();
    const post = (token: string, body: Record<string, unknown>, id = season.id) => call(server, 'POST', `/discord/kvk/${id}`, { token, body });
    const none = await post(council.token, { top: 10 });
    expect([none.status, none.body.error]).toEqual([409, DISCORD_ERRORS.noKvkWebhook]);

    const kvkHook = discord.webhook('kvk-standings');
    expect((await call(server, 'PUT', '/discord/settings', { token: admin.token, body: settings({ botToken: undefined, webhooks: { kvk: kvkHook } }) })).status).toBe(200);
    const player = await signedIn(server, 'kvkreader');
    expect((await post(player.token, { top: 10 })).status).toBe(403);
    expect((await post(council.token, { top: 7 })).body.error).toBe(DISCORD_ERRORS.badTop);
    expect((await post(council.token, { top: 10 }, 999_999)).status).toBe(404);
    expect((await post(council.token, { top: 10, window: 'Pass 9' })).status).toBe(404);
    expect(discord.received.filter((r) => r.url === new URL(kvkHook).pathname)).toHaveLength(0);

    const posted = await post(council.token, { top: 25, window: 'Pass 4' });
    expect([posted.status, posted.body]).toEqual([200, { result: true, queued: true }]);
    const sent = await discord.next(new URL(kvkHook).pathname);
    expect(sent.type).toMatch(/^multipart\/form-data/);
    const text = sent.raw.toString('utf8');
    const payload = JSON.parse(/name="payload_json"\r\n(?:[^\r\n]+\r\n)*\r\n([\s\S]*?)\r\n--/.exec(text)?.[1] ?? '{}') as { embeds: { title: string; description: string; image: { url: string } }[]; attachments: unknown[]; kingdomCard?: unknown };
    expect(payload.embeds[0]).toMatchObject({ title: `KvK standings: ${season.name}`, description: 'The top 25 by DKP.\nWindow: Pass 4', image: { url: 'attachment://kvk.png' } });
    expect(payload.attachments).toEqual([{ id: 0, filename: 'kvk.png' }]);
    expect(payload.kingdomCard).toBeUndefined();
    expect(sent.raw.includes(Buffer.from([0x89, 0x50, 0x4e, 0x47]))).toBe(true);
    await server.reactions.idle();
    await server.discord.idle();
    expect(discord.received.filter((r) => r.url === new URL(kvkHook).pathname)).toHaveLength(1);
  }, 60_000);
});

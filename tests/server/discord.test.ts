import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISCORD_ERRORS } from '../../src/protocol/discord';
import { runAdminCli } from '../../server/cli/admin';
import { DISCORD_TEXTS } from '../../server/discord/texts';
import { call, signedIn, startTestServer } from './helpers';

/**
 * A stand-in for Discord: it signs interactions with its own Ed25519 key, as Discord does, and
 * takes webhook posts at /api/webhooks/:id/:token, answering each webhook as the test sets it
 * (taken, rate limited with retry_after, unknown), recording what it received.
 */
class StandInDiscord {
  readonly keys = crypto.generateKeyPairSync('ed25519');
  readonly publicKey = this.keys.publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('hex');
  readonly received: { url: string; body: Record<string, unknown> }[] = [];
  readonly answers = new Map<string, { status: number; body?: unknown }>();
  readonly authorizations: (string | undefined)[] = [];
  private readonly server = http.createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      const url = (request.url ?? '').replace(/\?.*$/, '');
      this.received.push({ url, body: JSON.parse(text || '{}') as Record<string, unknown> });
      this.authorizations.push(request.headers.authorization);
      const answer = this.answers.get(url) ?? { status: 200, body: { id: '1' } };
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
    const notYet = ((await interact(command('me', discordUser))).body.data as { content: string }).content;
    expect(notYet).toBe(DISCORD_TEXTS.en.notYet);

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

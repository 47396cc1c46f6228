import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { directText } from '../../server/discord/direct';
import { ManualClock } from './auction-helpers';
import { DiscordStandIn, type Received } from './discord-stand-in';
import { call, signedIn, startTestServer } from './helpers';

/**
 * Discord's bot API as direct messages use it: POST /users/@me/channels opens (or finds) the DM
 * channel with a user, POST /channels/:id/messages posts in it. `messages` holds what reached a player.
 */
class StandInBot extends DiscordStandIn<Record<string, unknown>> {
  readonly messages: { recipient: string; content: string }[] = [];
  private readonly channels = new Map<string, string>();

  protected override pathOf(url: string): string {
    return super.pathOf(url).replace(/^\/api\/v10/, '');
  }

  protected delivered({ path, body }: Received<Record<string, unknown>>): unknown {
    if (path === '/users/@me/channels') {
      const recipient = String(body.recipient_id);
      const channel = this.channels.get(recipient) ?? String(900000000000000000n + BigInt(this.channels.size));
      this.channels.set(recipient, channel);
      return { id: channel, type: 1 };
    }
    const channel = /^\/channels\/(\d+)\/messages$/.exec(path)?.[1];
    const recipient = [...this.channels].find(([, c]) => c === channel)?.[0] ?? '?';
    this.messages.push({ recipient, content: String(body.content) });
    return { id: String(this.messages.length) };
  }

  override reset(): void {
    super.reset();
    this.messages.length = 0;
  }
}

const bot = new StandInBot();
beforeAll(() => bot.start());
afterAll(() => bot.stop());
afterEach(() => bot.reset());

const TOKEN = 'bot-token-0123456789abcdef';
const settings = { applicationId: '123456789012345678', publicKey: 'a'.repeat(64), guildId: '223456789012345678', language: 'en', webhooks: {}, botToken: TOKEN };

describe('Discord direct messages of notices', () => {
  const clock = new ManualClock();
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let admin: Awaited<ReturnType<typeof signedIn>>;
  let nextCause = 1;

  /** A player linked to a Discord user, with their language and their channel for every kind. */
  async function player(name: string, discordUserId: string | null, channel: 'app' | 'discord' | 'both' | 'none', locale = 'en') {
    const account = await signedIn(server, name);
    const { id } = await server.db.selectFrom('users').select('id').where('username', '=', account.username).executeTakeFirstOrThrow();
    const p = { ...account, id: Number(id) };
    await server.db.updateTable('users').set({ locale }).where('id', '=', p.id).execute();
    if (discordUserId) await server.db.insertInto('discord_links').values({ user_id: p.id, discord_user_id: discordUserId, linked_at: clock.t }).execute();
    const kinds = ['started', 'ending', 'outbid', 'won', 'lost', 'max-exhausted', 'max-dropped', 'points', 'automatic'];
    const saved = await call(server, 'PUT', '/notices/preferences', { token: p.token, body: { channels: Object.fromEntries(kinds.map((k) => [k, channel])), endingLeadMinutes: 5 } });
    expect(saved.status, saved.text).toBe(200);
    return p;
  }

  /**
   * A notice as the notices module stores it (with the channel the player chose), made a moment ago
   * (on PostgreSQL the direct messages read notices once every lower id has surely committed).
   */
  async function notice(userId: number, kind: string, channel: string, itemName: string | null, amount: number | null) {
    await server.db.insertInto('notices').values({ user_id: userId, kind, at: clock.t - 2_000, item_id: null, item_name: itemName, amount, channel, data: '{}', cause: `test:${nextCause++}` }).execute();
  }

  async function sent(): Promise<void> {
    server.discord.wake();
    await server.discord.idle();
  }

  beforeAll(async () => {
    server = await startTestServer({ discordApiUrl: `${bot.origin}/api/v10` }, { now: clock.now, discordOutbox: { timeoutMs: 300 } });
    admin = await signedIn(server, 'admin');
    expect((await call(server, 'PUT', '/discord/settings', { token: admin.token, body: settings })).status).toBe(200);
  });
  afterAll(() => server.close());

  it('reach the linked players who chose Discord or both, in their language, once; nobody else', async () => {
    const ana = await player('ana', '311111111111111111', 'discord');
    const ben = await player('ben', '322222222222222222', 'both', 'fr');
    const cid = await player('cid', '333333333333333333', 'app');
    const dee = await player('dee', null, 'discord');
    await notice(ana.id, 'outbid', 'discord', 'Gold Dragon', 1_250);
    await notice(ben.id, 'won', 'both', 'Épée d’or', 2_000);
    await notice(cid.id, 'won', 'app', 'Shield', 10);
    await notice(dee.id, 'points', 'discord', null, 50);
    await sent();
    expect(bot.messages).toEqual([
      { recipient: '311111111111111111', content: 'You were outbid on \u2068Gold Dragon\u2069: the bid is now 1,250 points.' },
      { recipient: '322222222222222222', content: `Vous avez remporté \u2068Épée d’or\u2069 pour ${new Intl.NumberFormat('fr').format(2_000)} points.` },
    ]);
    expect(bot.received.every((r) => r.auth === `Bot ${TOKEN}`)).toBe(true);
    expect(bot.received.filter((r) => r.path.endsWith('/messages')).every((r) => JSON.stringify(r.body.allowed_mentions) === '{"parse":[]}')).toBe(true);
    // looked at again (another pass, a restart of the cursor's reader): nothing is sent twice
    await sent();
    expect(bot.messages).toHaveLength(2);
    const rows = await server.db.selectFrom('discord_outbox').select(['channel', 'kind', 'status']).where('channel', '=', 'dm').execute();
    expect(rows.map((r) => [r.kind, r.status]).sort()).toEqual([
      ['notice.outbid', 'sent'],
      ['notice.won', 'sent'],
    ]);
  });

  it('from the grant to the message: the council grants points, the player who chose Discord hears of it there', async () => {
    const hal = await player('hal', '377777777777777777', 'discord', 'es');
    const granted = await call(server, 'POST', '/points/transactions', { token: admin.token, body: { username: hal.username, delta: 75, reason: 'Fort defence' } });
    expect(granted.status, granted.text).toBe(200);
    await server.reactions.idle();
    clock.advance(2_000);
    await sent();
    expect(bot.messages).toEqual([{ recipient: '377777777777777777', content: 'Recibiste 75 puntos.' }]);
    // and not in the app: the player chose Discord alone for it
    const listed = await call(server, 'GET', '/notices', { token: hal.token });
    expect(listed.body).toMatchObject({ unread: 0, notices: [] });
  });

  it('a 429 waits for retry_after, then the message goes once; a player who closed direct messages (403) fails it at once, for the admin to see', async () => {
    const eve = await player('eve', '344444444444444444', 'discord');
    bot.script.push({ status: 429, body: { message: 'You are being rate limited.', retry_after: 3, global: false } });
    await notice(eve.id, 'ending', 'discord', 'Banner', 300);
    await sent();
    expect(bot.messages).toEqual([]);
    // another player's message meanwhile waits too: the bot's bucket is held, not only the first message
    const gus = await player('gus', '366666666666666666', 'discord');
    await notice(gus.id, 'started', 'discord', 'Lamp', 100);
    clock.advance(1_000);
    await sent();
    expect(bot.received).toHaveLength(1);
    clock.advance(2_500);
    await sent();
    expect(bot.messages.map((d) => d.content).sort()).toEqual(['\u2068Banner\u2069 ends soon: the bid stands at 300 points.', 'Bidding started on \u2068Lamp\u2069, which you watch: from 100 points.'].sort());

    bot.reset();
    bot.script.push({ status: 200 }, { status: 403, body: { message: 'Cannot send messages to this user', code: 50007 } });
    await notice(eve.id, 'lost', 'discord', 'Crown', 900);
    await sent();
    expect(bot.messages).toEqual([]);
    const outbox = await call(server, 'GET', '/discord/outbox', { token: admin.token });
    const failed = (outbox.body as { deliveries: { kind: string; status: string; lastError: string; title: string }[] }).deliveries.find((d) => d.kind === 'notice.lost');
    expect(failed).toMatchObject({ status: 'failed', title: '\u2068Crown\u2069 went to another player for 900 points.' });
    expect(failed?.lastError).toContain('closed direct messages');
    clock.advance(60_000);
    await sent();
    expect(bot.received).toHaveLength(2); // failed, not tried again
  });

  it('Discord down: the message waits, then goes when Discord answers again, once', async () => {
    const fay = await player('fay', '355555555555555555', 'both');
    bot.script.push('hang');
    await notice(fay.id, 'automatic', 'both', null, 40);
    await sent();
    expect(bot.messages).toEqual([]);
    clock.advance(5_000);
    await sent();
    expect(bot.messages).toEqual([{ recipient: '355555555555555555', content: 'You earned 40 points automatically from the latest scan.' }]);
  });
});

describe('a notice as a direct message', () => {
  it('is one sentence in the player language, a deduction said as one, an unknown language in English', () => {
    expect(directText('points', 'en', null, -30)).toBe('30 points were deducted from your balance.');
    expect(directText('points', 'ar', null, 30)).toBe(`حصلت على ${new Intl.NumberFormat('ar').format(30)} نقطة.`);
    expect(directText('max-dropped', 'xx', 'Orb', 1_200)).toBe('Your maximum bid of 1,200 points on \u2068Orb\u2069 was dropped: your available points no longer covered the next raise.');
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DiscordOutbox, claimRow } from '../../server/discord/outbox';
import type { DomainEvent } from '../../server/events/events';
import { ManualClock, bidCreated, bidder, createItem, sendBid } from './auction-helpers';
import { DiscordStandIn, type Received } from './discord-stand-in';
import { call, signedIn, startTestServer } from './helpers';
import { killed, spawnServer, type Child } from './processes';
import { importScan } from './scan-files';
import { openDatabase } from '../../server/db/open';
import { databaseUrlFor } from './test-database';

interface Embed {
  title: string;
  description: string;
  fields?: { name: string; value: string }[];
}
/**
 * Discord's webhooks: each POST to /api/webhooks/:id/:token. `posted` holds what Discord would
 * show: the posts it answered 200.
 */
class StandInDiscord extends DiscordStandIn<{ embeds: Embed[] }> {
  readonly posted: Received<{ embeds: Embed[] }>[] = [];

  protected delivered(post: Received<{ embeds: Embed[] }>): unknown {
    this.posted.push(post);
    return { id: String(this.posted.length) };
  }

  webhook(name: string): string {
    return `${this.origin}/api/webhooks/12345678901234567${name.length}/${name.padEnd(24, 'x')}`;
  }

  path(name: string): string {
    return new URL(this.webhook(name)).pathname;
  }

  titles(name: string): string[] {
    return this.posted.filter((p) => p.path === this.path(name)).map((p) => p.body.embeds[0].title);
  }

  override reset(): void {
    super.reset();
    this.posted.length = 0;
  }
}

const discord = new StandInDiscord();
beforeAll(() => discord.start());
afterAll(() => discord.stop());
afterEach(() => discord.reset());

const settings = (language = 'en', kinds = ['auctions', 'sales', 'scans', 'points']) => ({
  applicationId: '123456789012345678',
  publicKey: 'a'.repeat(64),
  guildId: '223456789012345678',
  language,
  webhooks: Object.fromEntries(kinds.map((k) => [k, discord.webhook(k)])),
});

type Server = Awaited<ReturnType<typeof startTestServer>>;
/** Waits for the reactions of what committed, then for the sender to send what is due. */
async function settled(server: Server): Promise<void> {
  await server.reactions.idle();
  await server.discord.idle();
}
/** Moves the clock on and lets the sender look again. */
async function after(server: Server, clock: ManualClock, ms: number): Promise<void> {
  clock.advance(ms);
  server.discord.wake();
  await server.discord.idle();
}

/** Another connection to a server's database, as another process has. */
const sameDatabase = (server: Server) => openDatabase(server.config.dataDir, server.config.databaseUrl);
const outboxRows = (server: Server) => server.db.selectFrom('discord_outbox').selectAll().orderBy('id').execute();

describe('Discord announcements', () => {
  it('bidding started, sold, no buyer, a scan with its change and a points run: each once, in the announcement language, as embeds', { timeout: 30_000 }, async () => {
    const clock = new ManualClock();
    const server = await startTestServer({ discordApiUrl: `${discord.origin}/api/v10` }, { now: clock.now });
    try {
      const admin = await signedIn(server, 'admin');
      expect((await call(server, 'PUT', '/discord/settings', { token: admin.token, body: settings('fr') })).status).toBe(200);
      const player = await bidder(server, admin.token, 1_000, 'buyer');

      const sold = await createItem(server, admin.token, { itemName: 'Épée d’or', duration: 30, start_price: 100 });
      await createItem(server, admin.token, { itemName: 'Bouclier', duration: 30, start_price: 50 });
      await settled(server);
      expect(discord.titles('auctions').sort()).toEqual(['Enchères ouvertes : Bouclier', 'Enchères ouvertes : Épée d’or']);

      sendBid(player.auction, sold.itemId, 150);
      await bidCreated(player.auction, sold.itemId, 150, player.username);
      clock.advance(30_000);
      await server.auction.tick();
      await settled(server);
      const sales = discord.posted.filter((p) => p.path === discord.path('sales')).map((p) => p.body.embeds[0]);
      expect(sales.map((e) => [e.title, e.description]).sort()).toEqual([
        ['Sans acheteur : Bouclier', 'Personne n’a enchéri.'],
        ['Vendu : Épée d’or', `${player.username} l’a remporté pour 150 points.`],
      ]);

      // two scans: the second shows the kingdom's totals and their change; an automatic rule runs after it
      await call(server, 'POST', '/points/rules', { token: admin.token, body: { name: 'T4 auto', stat: 't4Kills', per: 10, points: 1, auto: true } });
      await importScan(server, admin.token, clock.t - 86_400_000, [{ id: 11111111, power: 1_000_000, killpoints: 500, t4Kills: 100 }]);
      expect((await call(server, 'PUT', '/player-ids/11111111', { token: admin.token, body: { username: player.username, verified: true } })).status).toBe(200);
      await importScan(server, admin.token, clock.t, [{ id: 11111111, power: 1_250_000, killpoints: 800, t4Kills: 300 }]);
      await settled(server);
      const scans = discord.posted.filter((p) => p.path === discord.path('scans')).map((p) => p.body.embeds[0]);
      expect(scans.map((e) => e.title)).toEqual(['Scan appliqué', 'Scan appliqué']);
      expect(scans[0].description).toContain('Premier scan');
      expect(scans[1].description).toMatch(/^1 gouverneurs, scannés <t:\d+:f>\.\nÉvolution depuis le scan du <t:\d+:D>\.$/);
      expect(scans[1].fields?.find((f) => f.name === 'Puissance')?.value).toBe(`${new Intl.NumberFormat('fr').format(1_250_000)} (+${new Intl.NumberFormat('fr').format(250_000)})`);
      const points = discord.posted.filter((p) => p.path === discord.path('points')).map((p) => p.body.embeds[0]);
      expect(points.map((e) => [e.title, e.description])).toEqual([['Points automatiques : T4 auto', '20 points comptabilisés en 1 opérations.\nExécutée d’elle-même après le scan.']]);

      // every message once; handing an event to the reaction again queues nothing and sends nothing
      expect(discord.received.length).toBe(discord.posted.length);
      expect(discord.posted.length).toBe(7);
      const rows = await outboxRows(server);
      expect(rows.every((r) => r.status === 'sent' && r.message_id !== null)).toBe(true);
      const first = await server.db.selectFrom('events').selectAll().where('id', '=', rows[0].event_id).executeTakeFirstOrThrow();
      await server.discord.enqueue({ ...first, id: Number(first.id), at: Number(first.at), data: JSON.parse(first.data) } as DomainEvent);
      await server.discord.idle();
      expect([(await outboxRows(server)).length, discord.received.length]).toEqual([7, 7]);
    } finally {
      await server.close();
    }
  });

  describe('when Discord is not well', () => {
    const clock = new ManualClock();
    let server: Server;
    let admin: Awaited<ReturnType<typeof signedIn>>;
    const itemIds: number[] = [];
    let nextEvent = 1_000_000;
    /** What an item.started event would queue, without the auction around it. */
    const started = (itemId: number, kind: DomainEvent['kind'] = 'item.started') =>
      server.discord.enqueue({ id: nextEvent++, kind, at: clock.t, actor: null, data: kind === 'item.no-buyer' ? { itemId, reason: 'no-bids' } : { itemId } } as DomainEvent);

    beforeAll(async () => {
      server = await startTestServer({ discordApiUrl: `${discord.origin}/api/v10` }, { now: clock.now, discordOutbox: { timeoutMs: 300 } });
      admin = await signedIn(server, 'admin');
      expect((await call(server, 'PUT', '/discord/settings', { token: admin.token, body: settings() })).status).toBe(200);
      for (const name of ['A', 'B', 'C']) itemIds.push((await createItem(server, admin.token, { itemName: name, startsAt: clock.t + 3_600_000 })).itemId);
    });
    afterAll(() => server.close());

    it('a 429 holds that webhook for retry_after, the others go on; a global 429 holds them all; nothing is doubled', async () => {
      discord.script.push({ status: 429, body: { message: 'You are being rate limited.', retry_after: 2, global: false } });
      await started(itemIds[0]);
      await server.discord.idle();
      await started(itemIds[1]);
      await started(itemIds[2], 'item.no-buyer');
      await server.discord.idle();
      // the auctions webhook waits; sales is another bucket and goes at once
      expect(discord.received.map((r) => r.path)).toEqual([discord.path('auctions'), discord.path('sales')]);
      await after(server, clock, 1_999);
      expect(discord.received.length).toBe(2);
      await after(server, clock, 1);
      expect(discord.titles('auctions')).toEqual(['Bidding started: A', 'Bidding started: B']);

      discord.reset();
      discord.script.push({ status: 429, body: { message: 'global', retry_after: 1.5, global: true } });
      await started(itemIds[0]);
      await started(itemIds[1], 'item.no-buyer');
      await server.discord.idle();
      expect(discord.received.length).toBe(1);
      await after(server, clock, 1_499);
      expect(discord.received.length).toBe(1);
      await after(server, clock, 1);
      expect(discord.posted.map((p) => p.path)).toEqual([discord.path('auctions'), discord.path('sales')]);
    });

    it('X-RateLimit-Remaining 0 waits for the bucket to reset before the next post', async () => {
      discord.script.push({ status: 200, body: { id: '9' }, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset-after': '0.5' } });
      await started(itemIds[0]);
      await started(itemIds[1]);
      await server.discord.idle();
      expect(discord.received.length).toBe(1);
      await after(server, clock, 500);
      expect(discord.titles('auctions')).toEqual(['Bidding started: A', 'Bidding started: B']);
    });

    it('a 500, no answer in time, or Discord down: tried again after 5 s, 10 s …; once through, posted once', async () => {
      discord.script.push({ status: 500, body: { message: 'oops' } }, 'hang', 'drop');
      await started(itemIds[2]);
      await server.discord.idle();
      const row = async () => (await outboxRows(server)).at(-1);
      expect(await row()).toMatchObject({ status: 'pending', attempts: 1, last_error: 'Discord answered 500: oops.' });
      await after(server, clock, 4_999);
      expect(discord.received.length).toBe(1);
      await after(server, clock, 1);
      expect(await row()).toMatchObject({ status: 'pending', attempts: 2, last_error: 'Discord did not answer within 0.3 s.' });
      await after(server, clock, 10_000);
      expect(await row()).toMatchObject({ status: 'pending', attempts: 3, last_error: 'Discord could not be reached.' });
      await after(server, clock, 20_000);
      expect(await row()).toMatchObject({ status: 'sent', attempts: 4, last_error: null });
      expect([discord.received.length, discord.titles('auctions')]).toEqual([4, ['Bidding started: C']]);
    });

    it('down for a day: failed, shown on the Admin Dashboard list, sent once by an admin’s Retry', async () => {
      discord.down = true;
      await started(itemIds[1]);
      await server.discord.idle();
      const id = Number((await outboxRows(server)).at(-1)?.id);
      let tries = 1;
      for (let waited = 0; waited <= 86_400_000; waited += 3_600_000) {
        await after(server, clock, 3_600_000);
        tries += 1;
        if ((await outboxRows(server)).at(-1)?.status === 'failed') break;
      }
      const failed = (await outboxRows(server)).at(-1);
      expect(failed).toMatchObject({ status: 'failed', last_error: 'Discord could not be reached.' });
      expect(tries).toBeLessThan(40);

      const player = await signedIn(server, 'player');
      expect((await call(server, 'GET', '/discord/outbox', { token: player.token })).status).toBe(403);
      const list = await call(server, 'GET', '/discord/outbox', { token: admin.token });
      expect(list.status, list.text).toBe(200);
      expect(list.body.failed).toBe(1);
      expect((list.body.deliveries as { id: number }[])[0]).toMatchObject({ id, status: 'failed', kind: 'item.started', channel: 'auctions', title: 'Bidding started: B', nextAt: null, lastError: 'Discord could not be reached.' });
      expect(list.text).not.toContain('auctionsxxx'); // the webhook's token is never shown

      expect((await call(server, 'POST', `/discord/outbox/${id}/retry`, { token: player.token })).status).toBe(403);
      expect((await call(server, 'POST', '/discord/outbox/x1/retry', { token: admin.token })).status).toBe(404);
      expect((await call(server, 'POST', '/discord/outbox/99999999/retry', { token: admin.token })).status).toBe(404);
      discord.down = false;
      const retried = await call(server, 'POST', `/discord/outbox/${id}/retry`, { token: admin.token });
      expect(retried.status, retried.text).toBe(200);
      await server.discord.idle();
      expect(discord.titles('auctions')).toEqual(['Bidding started: B']);
      expect((await call(server, 'POST', `/discord/outbox/${id}/retry`, { token: admin.token })).status).toBe(409);
      expect((await call(server, 'GET', '/discord/outbox', { token: admin.token })).body.failed).toBe(0);
    });

    it('of two senders that read the same due message, one claims it; it is free again once the claim is over', async () => {
      await started(itemIds[0]);
      await server.discord.idle();
      const id = Number((await outboxRows(server)).at(-1)?.id);
      await server.db.updateTable('discord_outbox').set({ status: 'pending', claimed_until: null, next_at: clock.t + 36_000_000 }).where('id', '=', id).execute(); // not due: the server's own sender leaves it alone
      const other = await sameDatabase(server);
      try {
        const claims = await Promise.all([claimRow(server.db, id, clock.t, clock.t + 60_000), claimRow(other, id, clock.t, clock.t + 60_000)]);
        expect(claims.filter(Boolean).length).toBe(1);
        expect(await claimRow(other, id, clock.t + 59_999, clock.t + 120_000)).toBe(false);
        expect(await claimRow(other, id, clock.t + 60_000, clock.t + 120_000)).toBe(true);
      } finally {
        await other.destroy();
        await server.db.updateTable('discord_outbox').set({ status: 'sent', claimed_until: null }).where('id', '=', id).execute();
      }
    });

    it('three senders on one database (the server and two more connections) post each message once', async () => {
      const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
      const dbs = [await sameDatabase(server), await sameDatabase(server)];
      const others = dbs.map((db) => new DiscordOutbox({ db, now: clock.now, log, pollMs: 60_000 }));
      try {
        // Discord asks every sender to wait while the messages are queued; then the three start together
        await server.db.insertInto('discord_rate_limits').values({ bucket: 'global', until: clock.t + 1_000 }).onConflict((oc) => oc.column('bucket').doUpdateSet({ until: clock.t + 1_000 })).execute();
        for (let i = 0; i < 30; i++) await started(itemIds[i % 3], i % 2 ? 'item.started' : 'item.no-buyer');
        await server.discord.idle();
        expect(discord.received.length).toBe(0);
        clock.advance(1_000);
        for (const o of others) o.wake();
        server.discord.wake();
        await Promise.all([...others.map((o) => o.idle()), server.discord.idle()]);
        expect(discord.received.length).toBe(30);
        expect(discord.posted.length).toBe(30);
        const sentRows = await server.db.selectFrom('discord_outbox').select('status').where('event_id', '>=', nextEvent - 30).execute();
        expect(sentRows.every((r) => r.status === 'sent')).toBe(true);
      } finally {
        for (const o of others) await o.stop();
        for (const db of dbs) await db.destroy();
      }
    });
  });

  it('a sender killed (SIGKILL) while Discord holds its post: the next one sends every message, each posted once', { timeout: 60_000 }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kingdom-discord-kill-'));
    let child: Child | null = null;
    try {
      // queued by a first server while Discord is down, hours ago on its clock
      const clock = new ManualClock();
      clock.t = Date.now() - 7_200_000;
      discord.down = true;
      const first = await startTestServer({ dataDir, discordApiUrl: `${discord.origin}/api/v10` }, { now: clock.now });
      const admin = await signedIn(first, 'admin');
      expect((await call(first, 'PUT', '/discord/settings', { token: admin.token, body: settings('en', ['auctions']) })).status).toBe(200);
      for (const name of ['One', 'Two', 'Three']) await createItem(first, admin.token, { itemName: name, duration: 3_600 * 24 });
      await settled(first);
      expect((await outboxRows(first)).map((r) => [r.status, r.attempts])).toEqual([['pending', 1], ['pending', 1], ['pending', 1]]);
      await first.close();

      // a real server process takes the first message; Discord holds the post; the process is killed
      discord.down = false;
      discord.script.push('hang');
      child = await spawnServer(dataDir, { DATABASE_URL: (await databaseUrlFor(dataDir)) ?? '', DISCORD_API_URL: `${discord.origin}/api/v10` });
      await discord.receivedCount(1);
      await killed(child, 'SIGKILL');
      expect(discord.posted.length).toBe(0);

      // the next server, once the dead one's claim (60 s) is over
      const later = new ManualClock();
      later.t = Date.now() + 61_000;
      const next = await startTestServer({ dataDir, discordApiUrl: `${discord.origin}/api/v10` }, { now: later.now });
      try {
        next.discord.wake();
        await next.discord.idle();
        expect(discord.titles('auctions').sort()).toEqual(['Bidding started: One', 'Bidding started: Three', 'Bidding started: Two']);
        // the one killed mid-post was received twice, posted (answered) once
        expect(discord.received.length).toBe(4);
        expect((await outboxRows(next)).every((r) => r.status === 'sent')).toBe(true);
      } finally {
        await next.close();
      }
    } finally {
      if (child) await killed(child, 'SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

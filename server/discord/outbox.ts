import type { DiscordOutboxEntry } from '../../src/protocol/discord';
import { DISCORD_ERRORS } from '../../src/protocol/discord';
import type { Clock } from '../clock';
import type { Db } from '../db/open';
import { Conflict, NotFound } from '../errors';
import type { DomainEvent } from '../events/events';
import { ANNOUNCED, announcementOf } from './announcements';
import { refusal, unreachable } from './refusals';
import { readDiscordConfig, type DiscordConfig } from './settings';
import { DM_CHANNEL, queueDirectMessages, startDirectCursor, type DirectBody } from './direct';
import { PassLoop } from '../events/pass-loop';
import type { CardService } from '../cards/service';
import type { Announcement } from './announcements';

/** A message Discord has not taken is tried again for this long after it was queued (or retried), then marked failed. */
export const OUTBOX_GIVE_UP_MS = 86_400_000;
/** A message still pending after this long is shown on the Admin Dashboard beside the failed ones. */
export const OUTBOX_STALE_MS = 15 * 60_000;
/** The first retry's wait; each failure doubles it, up to the most. */
const BACKOFF_FIRST_MS = 5_000;
const BACKOFF_MAX_MS = 3_600_000;
/** Sent messages are kept this long (what went out, for an admin reading the table), then deleted. */
const KEEP_SENT_MS = 30 * 86_400_000;
/** Rows looked at per claim (due, not rate limited), oldest first. */
const BATCH = 20;
/** Statuses that will not come right by trying the same body again: our payload or its size. */
const HOPELESS = new Set([400, 413]);

export interface OutboxLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface OutboxOptions {
  db: Db;
  now: Clock;
  log: OutboxLog;
  /** How often due messages are looked for (another process's, a retry's time come); a queued message wakes the sender at once. */
  pollMs: number;
  /** One call to Discord may take this long before it counts as Discord being down. */
  timeoutMs?: number;
  /** A claimed message is this sender's for this long; a sender that dies loses it when it ends, and any process sends it then. */
  leaseMs?: number;
  fetch?: typeof fetch;
  /** Queue, but send nothing (what REACTIONS_PAUSED does for the reactions). */
  paused?: boolean;
  /** Draws the card a message carries (KvK standings); without it such a message goes without its image. */
  cards?: Pick<CardService, 'prepare' | 'png'>;
  /** Discord's REST API (direct messages go through it with the bot token; webhooks are used as they are). */
  apiUrl?: string;
}

interface DueRow {
  id: number;
  channel: string;
  body: string;
  attempts: number;
  give_up_at: number;
}

/** The rate-limit bucket of a webhook: Discord counts per webhook (its id), besides the global limit. */
function bucketOf(url: string): string {
  const match = /\/webhooks\/(\d+)\//.exec(url);
  return `webhook:${match ? match[1] : url}`;
}
/** The bot's calls (opening a direct message channel, posting in it): one bucket, besides the global limit. */
const BOT_BUCKET = 'bot';
/** A direct message Discord will not deliver: sending it again changes nothing. */
const HOPELESS_DM = new Set([...HOPELESS, 403]);

/**
 * Discord announcements, delivered from the `discord_outbox` table. `enqueue` (a reaction to a
 * domain event, after its commit) writes the message once per (event, channel); the sender posts
 * due messages one at a time, oldest first, to the channel's webhook as the settings name it now.
 *
 * Discord's rate limits are kept in `discord_rate_limits` (so every process honours them): a 429
 * sets its webhook's bucket, or the global one, until `retry_after` has passed, and no message of a
 * limited bucket is claimed before then; `X-RateLimit-Remaining: 0` does the same ahead of a 429.
 * Any other failure (no answer, a 5xx, a deleted webhook) is tried again after 5 s, doubling up to
 * an hour, for a day; then the message is failed, and the Admin Dashboard offers to retry it.
 *
 * Each message is claimed with a conditional update (a lease, `claimed_until`), so on several
 * processes one sends it. What is guaranteed: a message Discord answered is never sent again; if
 * the sender dies, or Discord's answer does not come in time, after Discord received the post and
 * before its answer was recorded, the message is sent again once the lease ends (webhooks take no
 * nonce): at least once, and once whenever Discord's answer was recorded.
 */
export class DiscordOutbox {
  private readonly loop: PassLoop;
  private readonly aborts = new AbortController();
  private lastPrune = 0;
  private directCursor = false;
  private readonly timeoutMs: number;
  private readonly leaseMs: number;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: OutboxOptions) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.leaseMs = options.leaseMs ?? 60_000;
    this.fetch = options.fetch ?? fetch;
    this.loop = new PassLoop(() => this.pass(), { pollMs: options.pollMs, paused: options.paused ?? false, onError: (error) => options.log.error({ err: error }, 'the Discord outbox could not be read') });
  }

  private get stopped(): boolean {
    return this.loop.stopped;
  }

  /**
   * Queues what `event` tells Discord, once (a second call for the same event changes nothing):
   * nothing when Discord is not set up or the event's channel has no webhook.
   */
  async enqueue(event: DomainEvent): Promise<void> {
    const { db } = this.options;
    const channel = ANNOUNCED[event.kind];
    if (!channel) return;
    const config = await readDiscordConfig(db);
    if (!config?.webhooks[channel]) return;
    const announcement = await announcementOf(db, event, config.language);
    if (!announcement) return;
    const now = this.options.now();
    await db
      .insertInto('discord_outbox')
      .values({
        event_id: event.id,
        channel: announcement.channel,
        kind: event.kind,
        body: JSON.stringify(announcement.body),
        status: 'pending',
        created_at: now,
        next_at: now,
        give_up_at: now + OUTBOX_GIVE_UP_MS,
      })
      .onConflict((oc) => oc.columns(['event_id', 'channel']).doNothing())
      .execute();
    this.wake();
  }

  start(): void {
    this.loop.start();
  }

  /** Sends what is due soon (now, or right after the pass running). */
  wake(): void {
    this.loop.wake();
  }

  /** Resolves once no pass runs (tests wait on it after a change or a step of their clock). */
  idle(): Promise<void> {
    return this.loop.idle();
  }

  async stop(): Promise<void> {
    const stopping = this.loop.stop();
    this.aborts.abort();
    await stopping;
  }

  /** Queues the direct messages of new notices, then sends due messages until none is left that may go now. */
  private async pass(): Promise<void> {
    const { db } = this.options;
    if (!this.directCursor) {
      await startDirectCursor(db);
      this.directCursor = true;
    }
    while (!this.stopped && (await queueDirectMessages(db, this.options.now(), OUTBOX_GIVE_UP_MS)) > 0) {
      // a batch read: read on
    }
    while (!this.stopped) {
      const config = await readDiscordConfig(this.options.db);
      const row = await this.claim(config);
      if (!row) break;
      await this.deliver(row, config);
    }
    await this.prune();
  }

  /** The oldest due message whose webhook is not rate limited, claimed for this sender; null when none. */
  private async claim(config: DiscordConfig | null): Promise<(DueRow & { lease: number }) | null> {
    const { db } = this.options;
    const now = this.options.now();
    const limited = new Set((await db.selectFrom('discord_rate_limits').select('bucket').where('until', '>', now).execute()).map((r) => r.bucket));
    if (limited.has('global')) return null;
    const waiting = Object.entries(config?.webhooks ?? {}).flatMap(([channel, url]) => (url && limited.has(bucketOf(url)) ? [channel] : []));
    if (limited.has(BOT_BUCKET)) waiting.push(DM_CHANNEL);
    let query = db
      .selectFrom('discord_outbox')
      .select(['id', 'channel', 'body', 'attempts', 'give_up_at'])
      .where('status', '=', 'pending')
      .where('next_at', '<=', now)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]));
    if (waiting.length > 0) query = query.where('channel', 'not in', waiting);
    const rows = await query.orderBy('id').limit(BATCH).execute();
    for (const row of rows) {
      const lease = now + this.leaseMs;
      if (await claimRow(db, Number(row.id), now, lease)) return { ...row, id: Number(row.id), attempts: Number(row.attempts), give_up_at: Number(row.give_up_at), lease };
    }
    return null;
  }

  private async deliver(row: DueRow & { lease: number }, config: DiscordConfig | null): Promise<void> {
    if (row.channel === DM_CHANNEL) return this.deliverDirect(row, config);
    const url = config?.webhooks[row.channel as keyof DiscordConfig['webhooks']];
    if (!url) return this.fail(row, `No webhook is set for ${row.channel} announcements (Kingdom Settings, Discord).`);
    let request: { headers?: Record<string, string>; body: string | FormData };
    try {
      request = await this.requestOf(row.body);
    } catch (error) {
      // the card could not be drawn (the pool busy, the season gone): tried again like Discord being down
      return this.retry(row, `The card could not be drawn: ${(error as Error).message}`);
    }
    const bucket = bucketOf(url);
    const response = await this.post(row, `${url}?wait=true`, request, bucket);
    if (!response) return;
    if (response.ok) return this.sent(row, response);
    return this.refused(row, response, bucket, HOPELESS, (status) =>
      status === 401 || status === 404 ? `Discord refused this webhook (${status}): it was deleted or its address is wrong. Copy it again from the channel's Integrations.` : null,
    );
  }

  /** A direct message: the bot opens (or finds) its channel with the player, then posts in it. */
  private async deliverDirect(row: DueRow & { lease: number }, config: DiscordConfig | null): Promise<void> {
    if (!config?.botToken) return this.fail(row, 'No bot token is set (Kingdom Settings, Discord): direct messages are sent by the bot.');
    const api = this.options.apiUrl ?? 'https://discord.com/api/v10';
    const { recipientId, content } = JSON.parse(row.body) as DirectBody;
    const headers = { authorization: `Bot ${config.botToken}`, 'content-type': 'application/json' };
    const own = (status: number) =>
      status === 401
        ? 'Discord refused the bot token (401): reset it under Bot in the Developer Portal and save it in Kingdom Settings.'
        : status === 403
          ? 'Discord will not deliver a direct message to this player (they closed direct messages from server members, or share no server with the bot).'
          : null;
    const opened = await this.post(row, `${api}/users/@me/channels`, { headers, body: JSON.stringify({ recipient_id: recipientId }) }, BOT_BUCKET);
    if (!opened) return;
    if (!opened.ok) return this.refused(row, opened, BOT_BUCKET, HOPELESS_DM, own);
    const channel = (await opened.json().catch(() => ({}))) as { id?: unknown };
    if (typeof channel.id !== 'string' || !/^\d{1,20}$/.test(channel.id)) return this.retry(row, 'Discord answered without a direct message channel.');
    // no pings: the text names an item, never a person to mention
    const posted = await this.post(row, `${api}/channels/${channel.id}/messages`, { headers, body: JSON.stringify({ content, allowed_mentions: { parse: [] } }) }, BOT_BUCKET);
    if (!posted) return;
    if (posted.ok) return this.sent(row, posted);
    return this.refused(row, posted, BOT_BUCKET, HOPELESS_DM, own);
  }

  /**
   * One call to Discord within the time allowed; null when it got no answer (the message is tried
   * again later, or left to the next sender when this one stops). Discord's word that the bucket is
   * spent is kept, so the next message waits for its reset rather than meet a 429.
   */
  private async post(row: DueRow & { lease: number }, url: string, request: { headers?: Record<string, string>; body: string | FormData }, bucket: string): Promise<Response | null> {
    let response: Response;
    try {
      response = await this.fetch(url, { method: 'POST', ...request, signal: AbortSignal.any([AbortSignal.timeout(this.timeoutMs), this.aborts.signal]) });
    } catch (error) {
      // stopping: the lease ends and the next sender takes the message
      if (!this.stopped) await this.retry(row, unreachable(error, this.timeoutMs));
      return null;
    }
    const remaining = response.headers.get('x-ratelimit-remaining');
    const resetAfter = Number(response.headers.get('x-ratelimit-reset-after'));
    if (remaining === '0' && resetAfter > 0) await this.limit(bucket, this.options.now() + Math.ceil(resetAfter * 1000));
    return response;
  }

  private async sent(row: DueRow & { lease: number }, response: Response): Promise<void> {
    const answer = (await response.json().catch(() => ({}))) as { id?: string };
    await this.settle(row, { status: 'sent', sent_at: this.options.now(), message_id: typeof answer.id === 'string' ? answer.id : null, last_error: null, attempts: row.attempts + 1 });
    this.options.log.info({ outbox: row.id, channel: row.channel }, 'Discord message sent');
  }

  /** Discord said no: a rate limit waits its time (no attempt counted), a hopeless status fails, any other is tried again. */
  private async refused(row: DueRow & { lease: number }, response: Response, bucket: string, hopeless: ReadonlySet<number>, own: (status: number) => string | null): Promise<void> {
    const now = this.options.now();
    if (response.status === 429) {
      const answer = (await response
        .clone()
        .json()
        .catch(() => ({}))) as { retry_after?: number; global?: boolean };
      const global = answer.global === true || response.headers.get('x-ratelimit-global') === 'true' || response.headers.get('x-ratelimit-scope') === 'global';
      const retryAfter = Number(answer.retry_after ?? response.headers.get('retry-after') ?? 1);
      const until = now + Math.ceil((Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : 1) * 1000);
      await this.limit(global ? 'global' : bucket, until);
      const text = await refusal(response, () => null);
      // a rate limit is not a failure: the message waits for it, its attempts unchanged, within its day
      if (now >= row.give_up_at) return this.fail(row, text);
      await this.settle(row, { next_at: until, last_error: text });
      return;
    }
    const text = await refusal(response, own);
    if (hopeless.has(response.status)) return this.fail(row, text);
    return this.retry(row, text);
  }

  /** The webhook call's body: the stored JSON, or with a card, multipart with the PNG drawn now (the card is the data as it is now). */
  private async requestOf(stored: string): Promise<{ headers?: Record<string, string>; body: string | FormData }> {
    const { kingdomCard, ...body } = JSON.parse(stored) as Announcement['body'];
    if (!kingdomCard) return { headers: { 'content-type': 'application/json' }, body: stored };
    const { cards } = this.options;
    if (!cards) return { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...body, embeds: body.embeds?.map(({ image: _image, ...embed }) => embed) }) };
    const { lang, ...card } = kingdomCard;
    // leadership asked for it (the route checked their rank); the sender reads it as the system
    const png = await cards.png(await cards.prepare({ ...card, lang, theme: 'dark' }, { id: 0, rank: 'admin' }));
    const name = `${kingdomCard.kind}.png`;
    const form = new FormData();
    form.append('payload_json', JSON.stringify({ ...body, attachments: [{ id: 0, filename: name }] }));
    form.append('files[0]', new Blob([new Uint8Array(png)], { type: 'image/png' }), name);
    return { body: form };
  }

  /** Tried again after the backoff, or failed once its day is over. */
  private async retry(row: DueRow & { lease: number }, text: string): Promise<void> {
    const now = this.options.now();
    const attempts = row.attempts + 1;
    const next = now + Math.min(BACKOFF_FIRST_MS * 2 ** (attempts - 1), BACKOFF_MAX_MS);
    if (now >= row.give_up_at) return this.fail(row, text, attempts);
    this.options.log.warn({ outbox: row.id, channel: row.channel, attempt: attempts, error: text }, 'a Discord announcement is tried again later');
    await this.settle(row, { attempts, next_at: Math.min(next, row.give_up_at), last_error: text });
  }

  private async fail(row: DueRow & { lease: number }, text: string, attempts = row.attempts + 1): Promise<void> {
    // logged at error level, so reported: an admin retries it from the Admin Dashboard
    this.options.log.error({ outbox: row.id, channel: row.channel, error: text }, 'a Discord announcement failed');
    await this.settle(row, { status: 'failed', attempts, last_error: text });
  }

  /** Records the outcome, and lets the claim go, if this sender still holds it (a lease lost while waiting on Discord records nothing). */
  private async settle(row: { id: number; lease: number }, set: Partial<{ status: 'sent' | 'failed'; sent_at: number; message_id: string | null; last_error: string | null; attempts: number; next_at: number }>): Promise<void> {
    const done = await this.options.db
      .updateTable('discord_outbox')
      .set({ ...set, claimed_until: null })
      .where('id', '=', row.id)
      .where('claimed_until', '=', row.lease)
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1) this.options.log.warn({ outbox: row.id }, "a Discord announcement's claim ended before Discord answered");
  }

  private async limit(bucket: string, until: number): Promise<void> {
    await this.options.db
      .insertInto('discord_rate_limits')
      .values({ bucket, until })
      .onConflict((oc) => oc.column('bucket').doUpdateSet({ until }))
      .execute();
  }

  /** Deletes messages sent more than 30 days ago (at most once an hour). */
  private async prune(): Promise<void> {
    const now = this.options.now();
    if (now - this.lastPrune < 3_600_000) return;
    this.lastPrune = now;
    await this.options.db.deleteFrom('discord_outbox').where('status', '=', 'sent').where('sent_at', '<', now - KEEP_SENT_MS).execute();
  }
}

/**
 * Claims a pending message for a sender until `lease`, if no other sender holds it at `now`: the
 * update is conditional, so of several senders (processes) that read the same row one wins.
 */
export async function claimRow(db: Db, id: number, now: number, lease: number): Promise<boolean> {
  const claimed = await db
    .updateTable('discord_outbox')
    .set({ claimed_until: lease })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]))
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) === 1;
}

/** The Admin Dashboard's list: failed messages and those pending too long, newest first, at most `limit` (and how many of each there are). */
export async function troubledDeliveries(db: Db, now: number, limit = 50): Promise<{ failed: number; stale: number; deliveries: DiscordOutboxEntry[] }> {
  const troubled = db
    .selectFrom('discord_outbox')
    .where((eb) => eb.or([eb('status', '=', 'failed'), eb.and([eb('status', '=', 'pending'), eb('created_at', '<=', now - OUTBOX_STALE_MS)])]));
  const rows = await troubled.select(['id', 'event_id', 'kind', 'channel', 'body', 'status', 'attempts', 'created_at', 'next_at', 'last_error']).orderBy('id', 'desc').limit(limit).execute();
  const counts = await troubled.select(['status', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('status').execute();
  const count = (status: string) => Number(counts.find((c) => c.status === status)?.n ?? 0);
  return {
    failed: count('failed'),
    stale: count('pending'),
    deliveries: rows.map((r) => ({
      id: Number(r.id),
      eventId: Number(r.event_id),
      kind: r.kind,
      channel: r.channel,
      title: titleOf(r.body),
      status: r.status === 'failed' ? ('failed' as const) : ('pending' as const),
      attempts: Number(r.attempts),
      createdAt: Number(r.created_at),
      nextAt: r.status === 'failed' ? null : Number(r.next_at),
      lastError: r.last_error,
    })),
  };
}

/** The title of a queued message's first embed, or a direct message's text (what an admin recognises it by). */
function titleOf(body: string): string {
  const { embeds, content } = JSON.parse(body) as { embeds?: { title?: string }[]; content?: string };
  return embeds?.[0]?.title ?? content ?? '';
}

/** An admin's retry: a failed (or long pending) message is due now, with a new day of tries. */
export async function retryDelivery(db: Db, id: number, now: number): Promise<void> {
  const row = await db.selectFrom('discord_outbox').select('status').where('id', '=', id).executeTakeFirst();
  if (!row) throw new NotFound(DISCORD_ERRORS.noDelivery);
  if (row.status === 'sent') throw new Conflict(DISCORD_ERRORS.deliverySent);
  await db.updateTable('discord_outbox').set({ status: 'pending', next_at: now, give_up_at: now + OUTBOX_GIVE_UP_MS, attempts: 0 }).where('id', '=', id).where('status', '!=', 'sent').execute();
}

import type { APIEmbed, RESTPostAPIWebhookWithTokenJSONBody } from 'discord-api-types/v10';
import type { DiscordWebhookKind } from '../../src/protocol/discord';
import type { Locale } from '../../src/protocol/locales';
import type { Totals } from '../../src/protocol/scans';
import { fill } from '../../src/protocol/texts';
import { CARD_TEXTS } from '../cards/texts';
import type { Db } from '../db/open';
import type { DomainEvent, EventData, EventKind } from '../events/events';
import { kingdomSummary } from '../scans/kingdom-view';
import { DISCORD_TEXTS } from './texts';

/** The domain events Discord hears of, and the webhook kind each goes to. */
export const ANNOUNCED: Partial<Record<EventKind, DiscordWebhookKind>> = {
  'item.started': 'auctions',
  'item.sold': 'sales',
  'item.no-buyer': 'sales',
  'scan.applied': 'scans',
  'rule.applied': 'points',
  'kvk.posted': 'kvk',
};
export const ANNOUNCED_KINDS = Object.keys(ANNOUNCED) as EventKind[];

/** A stat card the outbox draws when it sends the message, attached as `{kind}.png` (the embed shows it). */
export type AnnouncedCard = { kind: 'kvk'; seasonId: number; window?: string; alliance?: string; top: number; lang: Locale };

/** One message for one channel webhook; `kingdomCard` is not Discord's: the outbox draws it and sends the PNG with the rest. */
export interface Announcement {
  channel: DiscordWebhookKind;
  body: RESTPostAPIWebhookWithTokenJSONBody & { kingdomCard?: AnnouncedCard };
}

const COLORS = { started: 0x3b82f6, sold: 0x22c55e, noBuyer: 0x6b7280, scan: 0xf59e0b, points: 0x8b5cf6, kvk: 0xc9a227 } as const;
/** The kingdom's totals a scan's announcement shows, with their words on the stat cards. */
const SCAN_FIELDS = ['power', 'killpoints', 'deads', 't4Kills', 't5Kills'] as const satisfies readonly (keyof Totals)[];

/** A Discord timestamp: every reader sees it in their own language and time zone (style R: "in 2 hours"). */
const when = (ms: number, style: 'R' | 'f' | 'D') => `<t:${Math.floor(ms / 1000)}:${style}>`;

function embedOf(event: DomainEvent, embed: APIEmbed): RESTPostAPIWebhookWithTokenJSONBody {
  // nobody is pinged by an announcement, whatever a name holds
  return { embeds: [{ ...embed, timestamp: new Date(event.at).toISOString(), footer: { text: 'Kingdom' } }], allowed_mentions: { parse: [] } };
}

/**
 * What Discord is told of `event`, in `language`, read from the database now (after the event's
 * commit): the item, its buyer, the scan's totals and their change since the scan before it, the
 * rule's run. Null when the event is not announced or what it tells of is gone.
 */
export async function announcementOf(db: Db, event: DomainEvent, language: Locale): Promise<Announcement | null> {
  const channel = ANNOUNCED[event.kind];
  if (!channel) return null;
  const t = DISCORD_TEXTS[language];
  const number = new Intl.NumberFormat(language);
  const n = (value: number) => number.format(value);
  const body = await bodyOf();
  if (!body) return null;
  if (event.kind === 'kvk.posted') {
    const data = event.data as EventData['kvk.posted'];
    const card: AnnouncedCard = { kind: 'kvk', seasonId: data.seasonId, ...(data.window ? { window: data.window } : {}), ...(data.alliance ? { alliance: data.alliance } : {}), top: data.top, lang: language };
    return { channel, body: { ...embedOf(event, { ...body, image: { url: 'attachment://kvk.png' } }), kingdomCard: card } };
  }
  return { channel, body: embedOf(event, body) };

  async function bodyOf(): Promise<APIEmbed | null> {
    switch (event.kind) {
      case 'item.started':
      case 'item.sold':
      case 'item.no-buyer': {
        const data = event.data as EventData['item.started'] & Partial<EventData['item.sold']> & Partial<EventData['item.no-buyer']>;
        const item = await db.selectFrom('items').select(['name', 'start_price', 'ends_at']).where('id', '=', data.itemId).executeTakeFirst();
        if (!item) return null;
        if (event.kind === 'item.started') {
          return { title: fill(t.started, { name: item.name }), description: fill(t.startedBody, { price: n(item.start_price), ends: when(item.ends_at, 'R') }), color: COLORS.started };
        }
        if (event.kind === 'item.no-buyer') {
          return { title: fill(t.noBuyer, { name: item.name }), description: data.reason === 'reserve-not-met' ? t.reserveNotMet : t.noBids, color: COLORS.noBuyer };
        }
        const buyer = await db.selectFrom('users').select('username').where('id', '=', data.userId as number).executeTakeFirst();
        return { title: fill(t.sold, { name: item.name }), description: fill(t.soldBody, { buyer: buyer?.username ?? '?', amount: n(data.amount as number) }), color: COLORS.sold };
      }
      case 'scan.applied': {
        const { scanId } = event.data as EventData['scan.applied'];
        const summary = await kingdomSummary(db, scanId);
        if (!summary.scan || !summary.totals) return null;
        const { totals, change, compare } = summary;
        const c = CARD_TEXTS[language];
        const fields = SCAN_FIELDS.flatMap((stat) => {
          const value = totals[stat];
          if (value === null) return [];
          const delta = change?.[stat];
          const shown = delta === null || delta === undefined ? n(value) : `${n(value)} (${delta >= 0 ? '+' : ''}${n(delta)})`;
          return [{ name: c[stat], value: shown, inline: true }];
        });
        const description = [fill(t.scanBody, { governors: n(totals.governors ?? 0), taken: when(summary.scan.takenAt, 'f') }), compare ? fill(t.scanChange, { date: when(compare.takenAt, 'D') }) : t.scanFirst].join('\n');
        return { title: t.scan, description, fields, color: COLORS.scan };
      }
      case 'rule.applied': {
        const data = event.data as EventData['rule.applied'];
        const rule = await db.selectFrom('points_rules').select('name').where('id', '=', data.ruleId).executeTakeFirst();
        const description = [fill(t.pointsRunBody, { total: n(data.total), entries: n(data.entries) }), ...(data.auto ? [t.pointsRunAuto] : [])].join('\n');
        return { title: fill(t.pointsRun, { rule: rule?.name ?? `#${data.ruleId}` }), description, color: COLORS.points };
      }
      case 'kvk.posted': {
        const data = event.data as EventData['kvk.posted'];
        const season = await db.selectFrom('kvk_seasons').select('name').where('id', '=', data.seasonId).executeTakeFirst();
        if (!season) return null;
        const lines = [fill(t.kvkPostedBody, { top: data.top }), ...(data.window ? [fill(t.kvkWindow, { window: data.window })] : []), ...(data.alliance ? [fill(t.kvkAlliance, { alliance: data.alliance })] : [])];
        return { title: fill(t.kvkPosted, { season: season.name }), description: lines.join('\n'), color: COLORS.kvk };
      }
      default:
        return null;
    }
  }
}

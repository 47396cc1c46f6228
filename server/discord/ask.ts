import { sql } from 'kysely';
import {
  ApplicationCommandOptionType,
  ButtonStyle,
  ComponentType,
  InteractionResponseType,
  MessageFlags,
  type APIApplicationCommandAutocompleteResponse,
  type APIApplicationCommandInteractionDataBasicOption,
  type APIApplicationCommandOptionChoice,
  type APIEmbed,
  type APIInteractionResponse,
} from 'discord-api-types/v10';
import type { Locale } from '../../src/protocol/locales';
import { fill } from '../../src/protocol/texts';
import { rankAllows } from '../auth/access';
import { CARD_STATS, type CardRequest, type CardStat } from '../cards/data';
import type { CardService } from '../cards/service';
import { CARD_TEXTS } from '../cards/texts';
import { likeOperator, nocase } from '../db/dialect';
import type { Db } from '../db/open';
import { myStandings } from '../kvk/standings';
import { latestScanRef, runningSeason } from '../kvk/seasons';
import { governorsOf, ownGovernors, ownsGovernor } from '../scans/directory';
import { listGovernors } from '../scans/kingdom-view';
import { ASK_TEXTS } from './ask-texts';
import { completeDeferred, type CardFile } from './followup';

/** The linked account asking (a disabled one never gets here). */
export interface Asker {
  id: number;
  username: string;
  rank: string;
  balance: number;
  reserved: number;
}

export interface AskDeps {
  db: Db;
  now: () => number;
  /** This server's public origin (the /auctions buttons' links). */
  origin: string;
  cards: CardService;
  /** Discord's API (the follow-up of a deferred answer). */
  apiUrl: string;
  /** Runs `task` once the first answer has gone to Discord (the follow-up edits that answer). */
  afterAnswer: (task: () => Promise<void>) => void;
  log: { warn(obj: object, msg: string): void };
}

/** What one interaction carries besides its options: who answers where, in which language. */
export interface Asked {
  applicationId: string;
  token: string;
  lang: Locale;
  options: readonly APIApplicationCommandInteractionDataBasicOption[];
}

/** Autocomplete answers at most this many choices (Discord's limit). */
export const CHOICES_MAX = 25;
/** What a player may type in an option: longer is no governor's name or id. */
const OPTION_TEXT_MAX = 64;
/** /top's counts: 10 unless asked, at most 25 (an embed's lines stay short). */
const TOP_DEFAULT = 10;
const TOP_MAX = 25;
/** /auctions lists this many live and this many upcoming items, and a button for the first live ones. */
const AUCTIONS_LISTED = 10;
const AUCTION_BUTTONS = 5;
/** The options each command takes, with their types (anything else is refused politely). */
const OPTIONS: Record<string, Record<string, ApplicationCommandOptionType>> = {
  me: {},
  stats: { governor: ApplicationCommandOptionType.String },
  top: { stat: ApplicationCommandOptionType.String, alliance: ApplicationCommandOptionType.String, count: ApplicationCommandOptionType.Integer },
  kvk: { governor: ApplicationCommandOptionType.String },
  auctions: {},
};
const COLOUR = 0xc9a227;

const privately = (content: string): APIInteractionResponse => ({
  type: InteractionResponseType.ChannelMessageWithSource,
  data: { content, flags: MessageFlags.Ephemeral, allowed_mentions: { parse: [] } },
});
const embedded = (embeds: APIEmbed[], extra: Record<string, unknown> = {}): APIInteractionResponse => ({
  type: InteractionResponseType.ChannelMessageWithSource,
  data: { embeds, flags: MessageFlags.Ephemeral, allowed_mentions: { parse: [] }, ...extra },
});
/** "Kingdom is thinking…", seen only by the asker; the follow-up replaces it. */
const DEFERRED: APIInteractionResponse = { type: InteractionResponseType.DeferredChannelMessageWithSource, data: { flags: MessageFlags.Ephemeral } };

/** Text from a player or a scan, safe in a message: no mentions, links or markdown of its own. */
export const plain = (text: string, max = 80): string => text.split('\n')[0].replace(/[`*_~|<>[\]@#]/g, '').slice(0, max);

const formats = (lang: Locale) => {
  const tag = lang === 'ar' ? 'ar-EG' : lang;
  return { number: new Intl.NumberFormat(tag), date: new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeZone: 'UTC' }) };
};

/** Whether every option is one the command takes, with its type; the first that is not, else null. */
export function strangeOption(name: string, options: Asked['options']): string | null {
  const known = OPTIONS[name] ?? {};
  for (const option of options) if (known[option.name] !== option.type) return option.name;
  return null;
}

const optionOf = (asked: Asked, name: string) => asked.options.find((o) => o.name === name);
const textOption = (asked: Asked, name: string): string | undefined => {
  const option = optionOf(asked, name);
  return option && typeof option.value === 'string' ? option.value.trim().slice(0, OPTION_TEXT_MAX) : undefined;
};

const leadership = (asker: Asker) => rankAllows(asker.rank, 'council+admin');

/** /me /stats /top /kvk /auctions for a linked account; every path reads only what its rank may read. */
export async function ask(deps: AskDeps, name: string, asked: Asked, asker: Asker): Promise<APIInteractionResponse> {
  const t = ASK_TEXTS[asked.lang];
  const strange = strangeOption(name, asked.options);
  if (strange !== null) return privately(fill(t.unknownOption, { option: plain(strange, 32) }));
  switch (name) {
    case 'me':
      return me(deps, asked, asker);
    case 'stats':
      return stats(deps, asked, asker);
    case 'top':
      return top(deps, asked, asker);
    case 'kvk':
      return kvk(deps, asked, asker);
    default:
      return auctions(deps, asked);
  }
}

/** The governor an option names (an id, or a name in the latest scan), among those the asker may read. */
async function governorNamed(db: Db, text: string, asker: Asker): Promise<number | null> {
  if (/^\d{1,15}$/.test(text)) {
    const id = Number(text);
    const seen = await db.selectFrom('scan_rows').select('governor_id').where('governor_id', '=', id).limit(1).executeTakeFirst();
    if (seen) return id;
  }
  const matches = await governorMatches(db, text, asker, 1);
  return matches[0]?.governorId ?? null;
}

/**
 * Governors of the latest scan whose name contains `text` (any case) or whose id starts with it, the
 * exact name first, then by power; a player only among their own. One indexed query, `limit` rows.
 */
export async function governorMatches(db: Db, text: string, asker: Asker, limit: number): Promise<{ governorId: number; name: string; alliance: string }[]> {
  const latest = await latestScanRef(db);
  if (!latest) return [];
  let query = db.selectFrom('scan_rows as r').select(['r.governor_id', 'r.name', 'r.alliance']).where('r.scan_id', '=', latest.id);
  if (!leadership(asker)) query = query.where('r.governor_id', 'in', db.selectFrom('governor_links').select('governor_id').where('user_id', '=', asker.id));
  const q = text.trim().slice(0, OPTION_TEXT_MAX);
  if (q) {
    const like = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = /^\d+$/.test(q)
      ? query.where((eb) => eb.or([eb(sql`cast(r.governor_id as text)`, 'like', `${q}%`), eb(sql`r.name`, likeOperator(db), sql`${like} escape '\\'`)]))
      : query.where(sql`r.name`, likeOperator(db), sql`${like} escape '\\'`);
  }
  const rows = await query
    .orderBy(sql`case when ${nocase(db, sql`r.name`)} = ${nocase(db, sql`${q}`)} then 0 else 1 end`)
    .orderBy('r.power', 'desc')
    .orderBy('r.governor_id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ governorId: r.governor_id, name: r.name, alliance: r.alliance }));
}

/** Autocomplete of /stats and /kvk's governor: up to 25 governors the asker may read. */
export async function autocompleteGovernor(db: Db, text: string, asker: Asker | null): Promise<APIApplicationCommandAutocompleteResponse> {
  const choices: APIApplicationCommandOptionChoice<string>[] = asker
    ? (await governorMatches(db, text, asker, CHOICES_MAX)).map((g) => ({ name: `${plain(g.name, 60) || g.governorId}${g.alliance ? ` [${plain(g.alliance, 8)}]` : ''} · ${g.governorId}`.slice(0, 100), value: String(g.governorId) }))
    : [];
  return { type: InteractionResponseType.ApplicationCommandAutocompleteResult, data: { choices } };
}

/** The first answer is deferred; the card is drawn and the answer completed by a follow-up. */
function withCard(deps: AskDeps, asked: Asked, embed: () => Promise<APIEmbed[]>, card: CardRequest | null, asker: Asker): APIInteractionResponse {
  deps.afterAnswer(async () => {
    const embeds = await embed();
    let file: CardFile | null = null;
    if (card) {
      try {
        const prepared = await deps.cards.prepare(card, { id: asker.id, rank: asker.rank });
        file = { name: `${card.kind}.png`, png: await deps.cards.png(prepared) };
        embeds[0] = { ...embeds[0], image: { url: `attachment://${file.name}` } };
      } catch {
        embeds.push({ description: ASK_TEXTS[asked.lang].cardFailed });
      }
    }
    const failed = await completeDeferred(deps.apiUrl, asked.applicationId, asked.token, { embeds, allowed_mentions: { parse: [] } }, file);
    if (failed) deps.log.warn({ failed }, 'a deferred Discord answer could not be completed');
  });
  return DEFERRED;
}

async function me(deps: AskDeps, asked: Asked, asker: Asker): Promise<APIInteractionResponse> {
  const t = ASK_TEXTS[asked.lang];
  const governors = await ownGovernors(deps.db, asker.id);
  const main = governors.find((g) => g.name !== null);
  const embed = async (): Promise<APIEmbed[]> => {
    const { number } = formats(asked.lang);
    const lines = governors.map((g) => `${g.name === null ? t.neverScanned : plain(g.name)} · ${g.governorId}${g.main ? ` · ${t.main}` : ''}${g.verified ? '' : ` · ${t.unverified}`}`);
    const fields = [
      { name: t.myGovernors, value: lines.join('\n') || t.noGovernors },
      { name: t.myPoints, value: `${number.format(asker.balance)} · ${number.format(asker.reserved)} · ${number.format(asker.balance - asker.reserved)}` },
      await kvkField(deps.db, asked.lang, await governorsOf(deps.db, asker.id)),
    ];
    return [{ title: plain(asker.username), color: COLOUR, fields }];
  };
  if (!main) return embedded(await embed());
  return withCard(deps, asked, embed, { kind: 'governor', governorId: main.governorId, lang: asked.lang, theme: 'dark' }, asker);
}

/** The running season's progress of these governors, one line each. */
async function kvkField(db: Db, lang: Locale, governorIds: number[]): Promise<{ name: string; value: string }> {
  const t = ASK_TEXTS[lang];
  const c = CARD_TEXTS[lang];
  const { number } = formats(lang);
  const mine = await myStandings(db, governorIds);
  if (!mine.season) return { name: t.kvk, value: t.noSeason };
  const lines = mine.governors.map((s) =>
    fill(t.kvkLine, { name: plain(s.name), dkp: number.format(Math.round(s.dkp)), kills: number.format(Math.round(s.progress.kills)), deads: number.format(Math.round(s.progress.deads)), status: c[s.status] }),
  );
  return { name: fill(c.kvk, { season: plain(mine.season.name) }), value: lines.join('\n') || fill(t.notInSeason, { season: plain(mine.season.name) }) };
}

async function stats(deps: AskDeps, asked: Asked, asker: Asker): Promise<APIInteractionResponse> {
  const t = ASK_TEXTS[asked.lang];
  const text = textOption(asked, 'governor') ?? '';
  if (!(await latestScanRef(deps.db))) return privately(t.noScan);
  const governorId = await governorNamed(deps.db, text, asker);
  if (governorId === null) return privately(fill(t.noGovernor, { query: plain(text, 64) }));
  if (!leadership(asker) && !(await ownsGovernor(deps.db, asker.id, governorId))) return privately(t.notYours);
  const embed = async (): Promise<APIEmbed[]> => [{ color: COLOUR, footer: { text: String(governorId) } }];
  return withCard(deps, asked, embed, { kind: 'governor', governorId, lang: asked.lang, theme: 'dark' }, asker);
}

async function top(deps: AskDeps, asked: Asked, asker: Asker): Promise<APIInteractionResponse> {
  const t = ASK_TEXTS[asked.lang];
  if (!leadership(asker)) return privately(t.forbidden);
  const stat = textOption(asked, 'stat') ?? '';
  if (!(CARD_STATS as readonly string[]).includes(stat)) return privately(fill(t.unknownOption, { option: `stat: ${plain(stat, 32)}` }));
  const countOption = optionOf(asked, 'count')?.value;
  const count = typeof countOption === 'number' && Number.isInteger(countOption) ? Math.min(Math.max(countOption, 1), TOP_MAX) : TOP_DEFAULT;
  const alliance = textOption(asked, 'alliance') || undefined;
  const page = await listGovernors(deps.db, { sort: stat as CardStat, order: 'desc', alliance, page: 1, pageSize: count });
  if (!page.scan) return privately(t.noScan);
  const c = CARD_TEXTS[asked.lang];
  const { number, date } = formats(asked.lang);
  const lines = page.governors.map((g, i) => {
    const value = g[stat as CardStat];
    return `${i + 1}. ${plain(g.name) || g.governorId}${g.alliance ? ` [${plain(g.alliance, 8)}]` : ''}: ${value === null ? c.notScanned : number.format(value)}`;
  });
  const title = fill(alliance ? t.topIn : t.top, { count, stat: c[stat as CardStat], alliance: plain(alliance ?? '', 16) });
  return embedded([{ title, color: COLOUR, description: lines.join('\n') || t.topEmpty, footer: { text: fill(t.scanOf, { date: date.format(page.scan.takenAt) }) } }]);
}

async function kvk(deps: AskDeps, asked: Asked, asker: Asker): Promise<APIInteractionResponse> {
  const t = ASK_TEXTS[asked.lang];
  const text = textOption(asked, 'governor');
  if (text) {
    const governorId = await governorNamed(deps.db, text, asker);
    if (governorId === null) return privately(fill(t.noGovernor, { query: plain(text, 64) }));
    if (!leadership(asker) && !(await ownsGovernor(deps.db, asker.id, governorId))) return privately(t.notYours);
    const field = await kvkField(deps.db, asked.lang, [governorId]);
    return embedded([{ title: field.name, color: COLOUR, description: field.value }]);
  }
  const field = await kvkField(deps.db, asked.lang, await governorsOf(deps.db, asker.id));
  const season = leadership(asker) ? await runningSeason(deps.db) : null;
  // leadership also gets the season's standings card (top 10), as the KvK Dashboard shows it
  if (!season) return embedded([{ title: field.name, color: COLOUR, description: field.value }]);
  return withCard(deps, asked, async () => [{ title: field.name, color: COLOUR, description: field.value }], { kind: 'kvk', seasonId: season.id, top: 10, lang: asked.lang, theme: 'dark' }, asker);
}

async function auctions(deps: AskDeps, asked: Asked): Promise<APIInteractionResponse> {
  const t = ASK_TEXTS[asked.lang];
  const { number } = formats(asked.lang);
  const columns = ['id', 'name', 'amount', 'start_price', 'leader_id', 'starts_at', 'ends_at'] as const;
  const [live, upcoming] = await Promise.all([
    deps.db.selectFrom('items').select(columns).where('state', '=', 'live').orderBy('ends_at').orderBy('id').limit(AUCTIONS_LISTED).execute(),
    deps.db.selectFrom('items').select(columns).where('state', '=', 'scheduled').orderBy('starts_at').orderBy('id').limit(AUCTIONS_LISTED).execute(),
  ]);
  if (live.length === 0 && upcoming.length === 0) return privately(t.noAuctions);
  // Discord writes <t:…:R> as "in 5 minutes" in the reader's own language and clock
  const when = (ms: number) => `<t:${Math.floor(Number(ms) / 1000)}:R>`;
  const fields = [];
  if (live.length)
    fields.push({ name: t.live, value: live.map((i) => fill(t.liveLine, { name: plain(i.name, 60), amount: number.format(i.leader_id === null ? i.start_price : i.amount), ends: when(i.ends_at) })).join('\n') });
  if (upcoming.length) fields.push({ name: t.upcoming, value: upcoming.map((i) => fill(t.upcomingLine, { name: plain(i.name, 60), price: number.format(i.start_price), starts: when(i.starts_at) })).join('\n') });
  const buttons = [...live, ...upcoming].slice(0, AUCTION_BUTTONS).map((i) => ({
    type: ComponentType.Button as const,
    style: ButtonStyle.Link as const,
    label: plain(i.name, 80) || String(i.id),
    url: `${deps.origin}/my-account/kingdom-store?item=${i.id}`,
  }));
  return embedded([{ title: t.auctions, color: COLOUR, fields }], { components: [{ type: ComponentType.ActionRow, components: buttons }] });
}

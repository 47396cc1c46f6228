import { createContext, Fragment, useContext, type ReactNode } from 'react';
import { FormattedDate, FormattedMessage, FormattedNumber, useIntl } from 'react-intl';
import { RANKS } from '../../../protocol/ranks';

/**
 * The audit log's entries said in the reader's language: each detail's field by its label
 * (admin.audit.field.*), a duration in the unit the form that sets it asks for, known codes (ranks,
 * stats, sources) in words; the words the server puts around a name in a target or an actor ("rule
 * #3 "…"", "bot …") in the reader's language, the name itself as it was stored.
 */

/** Detail fields with a label of their own; a field the app does not know (an older server's) shows its code. */
export const AUDIT_FIELDS = [
  'amount',
  'reason',
  'balanceAfter',
  'itemId',
  'itemName',
  'startPrice',
  'startsAt',
  'description',
  'imageUrl',
  'type',
  'minIncrement',
  'duration',
  'extendWindow',
  'maxExtensions',
  'eligibility',
  'ranks',
  'groups',
  'changes',
  'from',
  'to',
  'was',
  'released',
  'botId',
  'command',
  'args',
  'commandId',
  'sessionsRevoked',
  'name',
  'camp',
  'number',
  'ours',
  'username',
  'verified',
  'fileName',
  'rows',
  'takenAt',
  'wasTakenAt',
  'source',
  'overlappingRuns',
  'path',
  'creator',
  'stat',
  'per',
  'points',
  'cap',
  'auto',
  'season_id',
  'seasonId',
  'run',
  'fromScanId',
  'toScanId',
  'entries',
  'total',
  'players',
  'members',
  'season',
  'startScanId',
  'endScanId',
  'changed',
  'published',
  'governorId',
  'mark',
  'kingdomName',
  'kingdomNumber',
  'defaults',
  'applicationId',
  'guildId',
  'language',
  'webhooks',
  'botToken',
  'governors',
  'accounts',
  'unseen',
  'truncated',
] as const;

const KNOWN_FIELDS: ReadonlySet<string> = new Set(AUDIT_FIELDS);

/** Code values said in words (admin.audit.value.*): a scan's source, what a save did to the Discord token. */
export const AUDIT_VALUES = ['upload', 'bot', 'kept', 'removed', 'changed', 'zeroed', 'exempt', 'scheduled', 'live', 'finished', 'cancelled'] as const;
const KNOWN_VALUES: ReadonlySet<string> = new Set(AUDIT_VALUES);
const RANK_SET: ReadonlySet<string> = new Set(RANKS);

/** A field's label in the reader's language, or its code when the app does not know it. */
export function FieldName({ name }: { name: string }) {
  return KNOWN_FIELDS.has(name) ? <FormattedMessage id={`admin.audit.field.${name}`} /> : <bdi dir="ltr" className="font-mono">{name}</bdi>;
}

/** A detail's key that holds an id or a number of its own (not an amount): written without grouping. */
const ID_KEY = /(id|number)$|^(season|from|to|was|run|creator)$/i;
/** A detail's key that holds a time (epoch milliseconds: takenAt, startsAt…). */
const TIME_KEY = /At$/;
/** Durations stored in seconds, shown in the unit their form asks for: an auction's duration in minutes, its extend window in seconds. */
const DURATION_UNIT: Readonly<Record<string, 'minute' | 'second'>> = { duration: 'minute', extendWindow: 'second' };
/** Yes-or-no fields the server may write as 1 or 0. */
const FLAG_KEY = /^(auto|ours|verified|published)$/;
/** Fields whose text values name other fields (a season's changed fields). */
const FIELD_LIST_KEY = /^changed$/;

/** The entry's action, for the values whose meaning depends on it (a rank change's from and to are ranks; a link's from is a username). */
const ActionContext = createContext('');

/** Which fields hold a code said in words, by action ('*': any action). */
const CODED: Readonly<Record<string, RegExp>> = {
  'rank.change': /^(from|to)$/,
  'scan.apply': /^source$/,
  'discord.settings': /^botToken$/,
  'item.cancel': /^was$/,
  'season.mark': /^mark$/,
  'season.unmark': /^was$/,
};

function Words({ value, name }: { value: string; name: string }): ReactNode {
  const intl = useIntl();
  const action = useContext(ActionContext);
  if (FIELD_LIST_KEY.test(name) && action.startsWith('season.')) return <FieldName name={value} />;
  if (name === 'ranks' && RANK_SET.has(value)) return <FormattedMessage id={`rank.${value}`} />;
  if (name === 'stat' && action.startsWith('rule.') && intl.messages[`stat.${value}`] !== undefined) return <FormattedMessage id={`stat.${value}`} />;
  if (CODED[action]?.test(name)) {
    if (RANK_SET.has(value)) return <FormattedMessage id={`rank.${value}`} />;
    if (KNOWN_VALUES.has(value)) return <FormattedMessage id={`admin.audit.value.${value}`} />;
  }
  return <bdi>{value}</bdi>;
}

/** One value of an entry's detail: a number in the reader's format (an id as it is, a time as a date, a duration in its unit), a text as it is, a list or a record field by field. */
function DetailValue({ name, value }: { name: string; value: unknown }) {
  const intl = useIntl();
  if (value === null || value === undefined) return <>—</>;
  if (typeof value === 'number') {
    // a rule's switch is stored as 1 or 0
    if (FLAG_KEY.test(name) && (value === 0 || value === 1)) return <FormattedMessage id={value === 1 ? 'admin.audit.yes' : 'admin.audit.no'} />;
    if (TIME_KEY.test(name) && value > 1e11) return <FormattedDate value={value} dateStyle="medium" timeStyle="short" />;
    const unit = DURATION_UNIT[name];
    if (unit) return <>{intl.formatNumber(unit === 'minute' ? value / 60 : value, { style: 'unit', unit, unitDisplay: 'long', maximumFractionDigits: 2 })}</>;
    return ID_KEY.test(name) ? <bdi dir="ltr">{value}</bdi> : <FormattedNumber value={value} />;
  }
  if (typeof value === 'string') return <Words value={value} name={name} />;
  if (typeof value === 'boolean') return <FormattedMessage id={value ? 'admin.audit.yes' : 'admin.audit.no'} />;
  if (Array.isArray(value)) {
    if (value.length === 0) return <>—</>;
    return (
      <>
        {value.map((item, i) => (
          <Fragment key={i}>
            {i > 0 && intl.formatMessage({ id: 'admin.audit.listSeparator' })}
            <DetailValue name={name} value={item} />
          </Fragment>
        ))}
      </>
    );
  }
  if (typeof value === 'object') return <Fields detail={value as Record<string, unknown>} />;
  return <>{String(value)}</>;
}

/** An entry's detail as a list of its fields, each named in the reader's language. */
export function AuditDetail({ detail, action }: { detail: Record<string, unknown>; action: string }) {
  return (
    <ActionContext.Provider value={action}>
      <Fields detail={detail} />
    </ActionContext.Provider>
  );
}

function Fields({ detail }: { detail: Record<string, unknown> }) {
  const fields = Object.entries(detail);
  if (fields.length === 0) return <>—</>;
  return (
    <dl className="grid max-w-md grid-cols-[auto_minmax(0,1fr)] gap-x-2 text-xs">
      {fields.map(([name, value]) => (
        <Fragment key={name}>
          <dt className="text-muted-foreground">
            <FieldName name={name} />
          </dt>
          <dd className="min-w-0 [overflow-wrap:anywhere]">
            <DetailValue name={name} value={value} />
          </dd>
        </Fragment>
      ))}
    </dl>
  );
}

/** The shapes in which the server writes a target around a stored name or id (server/points/automatic.ts, cards/shares.ts, discord/links.ts). */
const RULE_TARGET = /^rule #(\d+) "([^]*)"$/;
const SHARE_TARGET = /^share link (\S+)$/;
const DISCORD_TARGET = /^discord:(\d+)$/;
/** A bot that imported a scan is recorded as "bot NAME" (server/scans/scans.ts). */
const BOT_ACTOR = /^bot ([^]+)$/;

const isolated = (text: string) => <bdi>{text}</bdi>;

/** What an entry acted on: the server's words around a name said in the reader's language, the name as stored. */
export function AuditTarget({ target }: { target: string }) {
  let m = RULE_TARGET.exec(target);
  if (m) return <FormattedMessage id="admin.audit.target.rule" values={{ id: m[1], name: isolated(m[2]) }} />;
  m = SHARE_TARGET.exec(target);
  if (m) return <FormattedMessage id="admin.audit.target.share" values={{ id: isolated(m[1]) }} />;
  m = DISCORD_TARGET.exec(target);
  if (m) return <FormattedMessage id="admin.audit.target.discord" values={{ id: isolated(m[1]) }} />;
  return <bdi>{target}</bdi>;
}

/** Who acted: a bot's import said as "Bot NAME" in the reader's language; a person's or the system's name as recorded. */
export function AuditActor({ actor, action }: { actor: string; action: string }) {
  const m = action === 'scan.apply' ? BOT_ACTOR.exec(actor) : null;
  if (m) return <FormattedMessage id="admin.audit.actor.bot" values={{ name: isolated(m[1]) }} />;
  return <bdi>{actor}</bdi>;
}

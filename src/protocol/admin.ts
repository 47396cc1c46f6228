import * as z from 'zod/mini';
import { rankBody, user } from './auth';
import { endpoint, okAnswer, resultTrue } from './endpoint';
import { plainName, queryPageOf } from './http';
import { RANKS } from './ranks';

// Administration: accounts, the kingdoms the site knows,
// the admin dashboard and the audit log. Fixed calls, word for word:
//   GET accounts?q=&rank=&page=            → {result, total, users:[AdminUser]}
//   POST accounts/:username/disable|enable → {result, user: AdminUser}
//   GET audit?actor=&action=&page=         → {result, total, entries:[AuditEntry]}
// and ours: POST accounts/:username/revoke-sessions → {result, user, revoked}, GET audit.csv,
// GET/POST/PUT/DELETE kingdoms, GET admin/dashboard.

export const ACCOUNTS_PAGE_SIZE = 50;
export const AUDIT_PAGE_SIZE = 50;
export const KINGDOM_NAME_MAX = 60;
export const KINGDOM_CAMP_MAX = 40;
export const KINGDOM_NUMBER_MAX = 99_999;
/** The most kingdoms the site keeps (a bound on the table and its page). */
export const KINGDOMS_MAX = 1_000;

export const ADMIN_ERRORS = {
  badQuery: 'The search may have at most 64 characters.',
  badRank: 'The rank must be user, council or admin.',
  badPage: 'The page must be a whole number from 1.',
  unknownUser: 'No user has this username.',
  selfDisable: 'You cannot disable your own account.',
  lastAdmin: 'The last admin cannot be disabled: make another account admin first.',
  disabled: 'This account is disabled. Please contact an administrator.',
  badKingdomNumber: `The kingdom number must be a whole number from 1 to ${KINGDOM_NUMBER_MAX}.`,
  kingdomNameRequired: `The kingdom needs a name of at most ${KINGDOM_NAME_MAX} characters.`,
  badCamp: `The camp may have at most ${KINGDOM_CAMP_MAX} characters.`,
  kingdomExists: 'This kingdom is already known: edit it instead.',
  unknownKingdom: 'No kingdom has this number.',
  badActor: 'The actor may have at most 64 characters.',
  badAction: 'The action may have at most 64 characters.',
  tooManyKingdoms: `The site keeps at most ${KINGDOMS_MAX} kingdoms: remove one first.`,
  tooManyCalls: 'Too many administration calls: wait a minute.',
  exportBusy: 'Your export is still being prepared: wait for it to finish.',
  exportTooMany: 'At most 6 exports an hour: wait and try again.',
} as const;

/** A query-string whole number from 1 (an empty one counts as absent). */
export const queryPage = queryPageOf(ADMIN_ERRORS.badPage);
const emptyIsAbsent = z.transform((v: string) => (v.trim() === '' ? undefined : v.trim()));

// ── accounts ────────────────────────────────────────────────────────────────────────────────

export const accountsQuery = z.object({
  q: z.optional(z.string().check(z.maxLength(64, ADMIN_ERRORS.badQuery))),
  rank: z.optional(z.pipe(z.string({ error: ADMIN_ERRORS.badRank }), z.pipe(emptyIsAbsent, z.optional(z.enum(RANKS, { error: ADMIN_ERRORS.badRank }))))),
  page: queryPage,
});

/** An account as the admin's users page shows it. */
export const adminUser = z.object({
  username: z.string(),
  email: z.string(),
  governorId: z.string(),
  rank: z.string(),
  balance: z.int(),
  disabled: z.boolean(),
  createdAt: z.number(),
  lastSeenAt: z.nullable(z.number()),
});
export type AdminUser = z.infer<typeof adminUser>;

export const accountsAnswer = z.object({ result: z.literal(true), total: z.int(), page: z.int(), pageSize: z.int(), users: z.array(adminUser) });
export type AccountsPage = z.infer<typeof accountsAnswer>;
export const accountAnswer = z.object({ result: z.literal(true), user: adminUser });
export const revokeAnswer = z.object({ result: z.literal(true), user: adminUser, revoked: z.int() });

// ── kingdoms ────────────────────────────────────────────────────────────────────────────────

export const kingdom = z.object({ number: z.int(), name: z.string(), camp: z.string(), ours: z.boolean() });
export type Kingdom = z.infer<typeof kingdom>;
export const kingdomsAnswer = z.object({ result: z.literal(true), kingdoms: z.array(kingdom) });
export const kingdomAnswer = z.object({ result: z.literal(true), kingdom });

const kingdomName = z.pipe(
  z.string({ error: ADMIN_ERRORS.kingdomNameRequired }),
  z.pipe(z.transform((v: string) => v.trim()), z.string().check(z.minLength(1, ADMIN_ERRORS.kingdomNameRequired), z.maxLength(KINGDOM_NAME_MAX, ADMIN_ERRORS.kingdomNameRequired), plainName())),
);
const kingdomCamp = z.pipe(z.string({ error: ADMIN_ERRORS.badCamp }), z.pipe(z.transform((v: string) => v.trim()), z.string().check(z.maxLength(KINGDOM_CAMP_MAX, ADMIN_ERRORS.badCamp), plainName())));
export const kingdomNumber = z.int({ error: ADMIN_ERRORS.badKingdomNumber }).check(z.gte(1, ADMIN_ERRORS.badKingdomNumber), z.lte(KINGDOM_NUMBER_MAX, ADMIN_ERRORS.badKingdomNumber));

/** POST kingdoms: a new kingdom. */
export const kingdomBody = z.object({ number: kingdomNumber, name: kingdomName, camp: z.optional(kingdomCamp) });
export type KingdomBody = z.input<typeof kingdomBody>;
/** PUT kingdoms/:number: its name and camp (the number is the kingdom). */
export const kingdomEditBody = z.object({ name: z.optional(kingdomName), camp: z.optional(kingdomCamp) });
export type KingdomEditBody = z.input<typeof kingdomEditBody>;

// ── the audit log ───────────────────────────────────────────────────────────────────────────

export const auditQuery = z.object({
  actor: z.optional(z.string().check(z.maxLength(64, ADMIN_ERRORS.badActor))),
  action: z.optional(z.string().check(z.maxLength(64, ADMIN_ERRORS.badAction))),
  page: queryPage,
});

/** One leadership action: when, who (a username, "system" or a bot's name), what (`area.verb`), on what, and what changed. */
export const auditEntry = z.object({ at: z.number(), actor: z.string(), action: z.string(), target: z.string(), detail: z.record(z.string(), z.unknown()) });
export type AuditEntry = z.infer<typeof auditEntry>;
export const auditAnswer = z.object({ result: z.literal(true), total: z.int(), page: z.int(), pageSize: z.int(), entries: z.array(auditEntry) });
export type AuditPage = z.infer<typeof auditAnswer>;

/** Every action name the server records (the filter's choices; bots, seasons and rules add theirs). */
export const AUDIT_ACTIONS = [
  'rank.change',
  'points.grant',
  'points.deduct',
  'points.bulk',
  'scan.apply',
  'scan.delete',
  'scan.redate',
  'item.create',
  'item.edit',
  'item.cancel',
  'item.duplicate',
  'settings.change',
  'store.open',
  'store.close',
  'group.create',
  'group.delete',
  'group.add',
  'group.remove',
  'player-id.link',
  'player-id.unlink',
  'player-id.import',
  'alliance.change',
  'account.disable',
  'account.enable',
  'account.revoke-sessions',
  'kingdom.create',
  'kingdom.edit',
  'kingdom.delete',
  'rule.create',
  'rule.edit',
  'rule.delete',
  'rule.apply',
  'season.create',
  'season.edit',
  'season.close',
  'season.mark',
  'season.unmark',
  'bot.register',
  'bot.rotate',
  'bot.revoke',
  'bot.command',
  'share.revoke',
  'discord.settings',
  'discord.link',
  'discord.unlink',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

// ── the dashboard ───────────────────────────────────────────────────────────────────────────

export const dashboard = z.object({
  accountsByRank: z.record(z.string(), z.int()),
  disabledAccounts: z.int(),
  sockets: z.object({ auction: z.int(), user: z.int() }),
  bidsLastHour: z.int(),
  liveItems: z.int(),
  lastScan: z.nullable(z.object({ id: z.int(), takenAt: z.number(), rows: z.int() })),
  botsOnline: z.int(),
  databaseBytes: z.number(),
  version: z.string(),
  uptimeSeconds: z.number(),
  /**
   * SQLite's backups (null on PostgreSQL, where pg_dump's are not the server's to know):
   * `everyHours` null when scheduled backups are off (no BACKUP_DIR); the last backup taken
   * (scheduled or by the admin CLI); `overdue` when scheduled backups are on and the last one is
   * older than two periods (or there is none after two periods of running).
   */
  backup: z.nullable(
    z.object({
      everyHours: z.nullable(z.number()),
      keep: z.nullable(z.int()),
      last: z.nullable(z.object({ takenAt: z.number(), bytes: z.number(), scheduled: z.boolean() })),
      overdue: z.boolean(),
    }),
  ),
});
export type Dashboard = z.infer<typeof dashboard>;
export type BackupStatus = NonNullable<Dashboard['backup']>;
export const dashboardAnswer = z.object({ result: z.literal(true), dashboard });

/** An account in a path is its username, as written. */
const usernameParams = { username: z.string() };
/** A kingdom's number in a path is read by the route: a malformed one is a 400 with its text (a failing path schema would answer 404). */
const numberParams = { number: z.string() };
const accountChangeErrors = [401, 403, 404, 409, 429] as const;

/** Site administration's JSON endpoints (the audit log's CSV and XLSX and export.zip, files rather than JSON, stay the route file's own). */
export const ADMIN_API = {
  setRank: endpoint({
    method: 'POST',
    path: 'admin/users/:username/rank',
    params: usernameParams,
    body: rankBody,
    answer: resultTrue({ user }),
    errors: [400, 401, 403, 404, 409, 429],
    tag: 'admin',
    summary: "Set a user's rank (audited); the last admin cannot be demoted (409)",
  }),
  accounts: endpoint({
    method: 'GET',
    path: 'accounts',
    query: accountsQuery,
    answer: accountsAnswer,
    errors: [400, 401, 403, 429],
    tag: 'admin',
    summary: 'Every account, by username, 50 a page; q matches a username or email (contains) or a governor id (prefix, linked governors too); rank filters',
  }),
  disable: endpoint({
    method: 'POST',
    path: 'accounts/:username/disable',
    params: usernameParams,
    answer: accountAnswer,
    errors: accountChangeErrors,
    tag: 'admin',
    summary:
      'Disable an account: it cannot sign in, its sessions are revoked and its open sockets (auction and user) close at once (4401). Nothing is deleted. Not your own account, nor the last admin (409). Audited.',
  }),
  enable: endpoint({
    method: 'POST',
    path: 'accounts/:username/enable',
    params: usernameParams,
    answer: accountAnswer,
    errors: accountChangeErrors,
    tag: 'admin',
    summary: 'Enable a disabled account: it may sign in again. Audited.',
  }),
  revokeSessions: endpoint({
    method: 'POST',
    path: 'accounts/:username/revoke-sessions',
    params: usernameParams,
    answer: revokeAnswer,
    errors: accountChangeErrors,
    tag: 'admin',
    summary: 'Sign an account out everywhere: every session revoked, every open socket closed (4401); it may sign in again. Answers how many sessions were revoked. Audited.',
  }),
  kingdoms: endpoint({
    method: 'GET',
    path: 'kingdoms',
    answer: kingdomsAnswer,
    errors: [401, 403, 429],
    tag: 'admin',
    summary: 'The kingdoms the site knows (ours and others met in KvK), by number: name, camp, and whether it is ours (the settings’ kingdom number)',
  }),
  addKingdom: endpoint({
    method: 'POST',
    path: 'kingdoms',
    body: kingdomBody,
    answer: kingdomAnswer,
    errors: [400, 401, 403, 409, 429],
    tag: 'admin',
    summary: 'Add a kingdom {number, name, camp?} (409 when its number is known). Audited.',
  }),
  editKingdom: endpoint({
    method: 'PUT',
    path: 'kingdoms/:number',
    params: numberParams,
    body: kingdomEditBody,
    answer: kingdomAnswer,
    errors: [400, 401, 403, 404, 429],
    tag: 'admin',
    summary: "Change a kingdom's name or camp. Audited.",
  }),
  removeKingdom: endpoint({
    method: 'DELETE',
    path: 'kingdoms/:number',
    params: numberParams,
    answer: okAnswer,
    errors: [400, 401, 403, 404, 429],
    tag: 'admin',
    summary: 'Forget a kingdom (scans and seasons keep its number; only the name goes). Audited.',
  }),
  dashboard: endpoint({
    method: 'GET',
    path: 'admin/dashboard',
    answer: dashboardAnswer,
    errors: [401, 403, 429],
    tag: 'admin',
    summary: 'Health at a glance: accounts by rank, sockets connected, bids in the last hour, live items, the last scan, bots online, database size, version and uptime',
  }),
  audit: endpoint({
    method: 'GET',
    path: 'audit',
    query: auditQuery,
    answer: auditAnswer,
    errors: [400, 401, 403, 429],
    tag: 'admin',
    summary: 'The audit log, newest first, 50 a page: every leadership action with who, what and when. actor: a username (any case); action: an exact action (points.grant) or an area (points)',
  }),
} as const;

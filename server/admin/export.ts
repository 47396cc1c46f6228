import { Readable } from 'node:stream';
import { sql } from 'kysely';
import yazl from 'yazl';
import type { Db } from '../db/open';
import { csvLine, csvTime, type CsvValue } from '../files/csv';

/**
 * GET /export.zip: everything the kingdom owns, one CSV file a table, with README.txt naming every
 * file's columns, so a kingdom can always leave with its data. Each CSV is written as the other
 * exports are (server/http/csv.ts: UTF-8 with a byte order mark, formula-like text quoted, times in
 * ISO 8601 UTC). What is only the server's is left out: password hashes, sessions, bot token hashes,
 * the bids' request ids.
 *
 * The zip is streamed: yazl writes one entry at a time and asks for the next CSV only when the one
 * before is written (addReadStreamLazy), each CSV is read from the database in chunks of CHUNK rows
 * (scan rows a scan at a time) as the client takes the bytes, and deflate runs in libuv's threads.
 * At most one export an account at a time and a few an hour (server/http/routes/admin.ts).
 */

const CHUNK = 2_000;

interface Column {
  name: string;
  /** What the column holds, for README.txt. */
  about: string;
}

interface ExportFile {
  file: string;
  about: string;
  table: string;
  columns: Column[];
  /** How rows are read in chunks: after the last id, a scan at a time, or all at once (small tables). */
  order: 'id' | 'scan' | { all: string };
}

const c = (name: string, about: string): Column => ({ name, about });
const AT = (name: string, about: string) => c(name, `${about} (UTC, ISO 8601; empty: never)`);
const BY = (name: string, about: string) => c(name, `${about} (an id of accounts.csv; empty: the system or an account no longer known)`);

const STATS = [
  'power',
  'killpoints',
  'deads',
  't1_kills',
  't2_kills',
  't3_kills',
  't4_kills',
  't5_kills',
  'total_kills',
  't45_kills',
  'ranged',
  'rss_gathered',
  'rss_assistance',
  'helps',
  'acclaim',
  'highest_acclaim',
].map((name) => c(name, `the governor's ${name.replace(/_/g, ' ')} in this scan (empty: not scanned)`));

export const EXPORT_FILES: ExportFile[] = [
  {
    file: 'accounts.csv',
    about: 'Every account (no password hashes).',
    table: 'users',
    order: 'id',
    columns: [
      c('id', 'the account'),
      c('email', 'its email, lowercased'),
      c('username', 'its name'),
      c('playerid', 'the governor id given at sign-up'),
      c('rank', 'user, council or admin'),
      c('balance', 'its kingdom points'),
      c('reserved', 'points held by bids it leads'),
      c('locale', 'its language'),
      AT('created_at', 'sign-up'),
      AT('disabled_at', 'disabled since'),
      BY('disabled_by', 'who disabled it'),
      AT('last_seen_at', 'last sign-in or authentication'),
    ],
  },
  {
    file: 'groups.csv',
    about: 'The groups items may limit bidding to.',
    table: 'groups',
    order: 'id',
    columns: [c('id', 'the group'), c('name', 'its name'), AT('created_at', 'created')],
  },
  {
    file: 'group_members.csv',
    about: 'Which account is in which group.',
    table: 'user_groups',
    order: { all: 'group_id, user_id' },
    columns: [c('user_id', 'an id of accounts.csv'), c('group_id', 'an id of groups.csv')],
  },
  {
    file: 'ledger.csv',
    about: 'The kingdom points ledger: every change of a balance, append-only.',
    table: 'points_transactions',
    order: 'id',
    columns: [
      c('id', 'the entry, in order'),
      c('user_id', 'whose balance (an id of accounts.csv)'),
      c('delta', 'points added (negative: taken)'),
      c('kind', 'grant, deduct, purchase, refund or automatic'),
      c('reason', 'why'),
      BY('actor_id', 'who'),
      c('balance_after', 'the balance right after'),
      AT('created_at', 'when'),
    ],
  },
  {
    file: 'items.csv',
    about: 'Every store item (auction).',
    table: 'items',
    order: 'id',
    columns: [
      c('id', 'the item'),
      c('name', 'its name'),
      c('description', 'its description'),
      c('image_url', 'its image (/uploads/… are the server’s own)'),
      c('type', 'its type'),
      c('start_price', 'the first bid’s least amount'),
      c('min_increment', 'the least raise'),
      AT('starts_at', 'start'),
      c('duration_s', 'how long it runs, in seconds'),
      AT('ends_at', 'its end (soft close moves it)'),
      c('extend_window_s', 'soft close: a bid in these last seconds extends the end'),
      c('max_extensions', 'soft close: at most this many extensions'),
      c('extensions', 'extensions used'),
      c('state', 'scheduled, live, finished or cancelled'),
      c('eligibility', 'who may bid (JSON: ranks, groups; {} is everyone)'),
      c('leader_id', 'the leading (or winning) bidder (an id of accounts.csv)'),
      c('amount', 'the leading (or winning) amount'),
      BY('created_by', 'who created it'),
      AT('created_at', 'created'),
      AT('started_at', 'started'),
      AT('settled_at', 'settled'),
      c('held_ms', 'while the store is closed: the milliseconds it had left'),
    ],
  },
  {
    file: 'bids.csv',
    about: 'Every accepted bid.',
    table: 'bids',
    order: 'id',
    columns: [
      c('id', 'the bid, in order'),
      c('item_id', 'an id of items.csv'),
      c('user_id', 'the bidder (an id of accounts.csv)'),
      c('amount', 'the amount'),
      AT('ends_at', 'the item’s end right after it'),
      c('extensions', 'soft-close extensions used by then'),
      AT('created_at', 'when'),
    ],
  },
  {
    file: 'sales.csv',
    about: 'Every item won and paid for.',
    table: 'sales',
    order: 'id',
    columns: [c('id', 'the sale'), c('item_id', 'an id of items.csv'), c('user_id', 'the winner (an id of accounts.csv)'), c('amount', 'the points paid'), AT('at', 'when')],
  },
  {
    file: 'settings.csv',
    about: 'The kingdom’s settings (one row).',
    table: 'kingdom_settings',
    order: { all: 'id' },
    columns: [
      c('id', 'always 1'),
      c('kingdom_name', 'the kingdom’s name'),
      c('kingdom_number', 'its number'),
      c('store_open', '1: the store is open; 0: closed'),
      c('default_duration_s', 'a new item’s duration, in seconds'),
      c('default_min_increment', 'a new item’s least raise'),
      c('default_extend_window_s', 'a new item’s soft-close window, in seconds'),
      c('default_max_extensions', 'a new item’s most extensions'),
      AT('updated_at', 'last changed'),
      BY('updated_by', 'changed by'),
    ],
  },
  {
    file: 'scans.csv',
    about: 'Every scan imported (a file of governors’ stats at one time).',
    table: 'scans',
    order: 'id',
    columns: [
      c('id', 'the scan'),
      AT('taken_at', 'when the scan was taken'),
      c('kind', 'kingdom or seed'),
      c('rows', 'governors in it'),
      c('file_name', 'the file’s name'),
      c('sha256', 'the file’s SHA-256 (a file is imported once)'),
      c('source', 'upload or bot'),
      BY('uploaded_by', 'who imported it'),
      AT('created_at', 'imported'),
    ],
  },
  {
    file: 'scan_governors.csv',
    about: 'Every governor row of every scan.',
    table: 'scan_rows',
    order: 'scan',
    columns: [
      c('scan_id', 'an id of scans.csv'),
      c('governor_id', 'the governor'),
      c('name', 'its name in this scan'),
      c('alliance', 'its alliance tag in this scan (empty: none)'),
      c('kingdom', 'its kingdom in this scan (empty: not scanned)'),
      ...STATS,
    ],
  },
  {
    file: 'governor_links.csv',
    about: 'Which account each governor belongs to (Player IDs).',
    table: 'governor_links',
    order: { all: 'governor_id' },
    columns: [
      c('governor_id', 'the governor'),
      c('user_id', 'its account (an id of accounts.csv)'),
      c('verified', '1: verified by an admin; 0: claimed'),
      AT('created_at', 'linked'),
      BY('updated_by', 'changed by'),
    ],
  },
  {
    file: 'alliances.csv',
    about: 'The alliances named by leadership.',
    table: 'alliances',
    order: { all: 'tag' },
    columns: [c('tag', 'the tag as scans show it'), c('name', 'its name'), c('ours', '1: one of the kingdom’s own'), AT('updated_at', 'last changed'), BY('updated_by', 'changed by')],
  },
  {
    file: 'kingdoms.csv',
    about: 'The kingdoms the site knows.',
    table: 'kingdoms',
    order: { all: 'number' },
    columns: [c('number', 'the kingdom’s number'), c('name', 'its name'), c('camp', 'its KvK camp'), AT('created_at', 'added'), AT('updated_at', 'last changed'), BY('updated_by', 'changed by')],
  },
  {
    file: 'kvk_seasons.csv',
    about: 'The KvK seasons.',
    table: 'kvk_seasons',
    order: 'id',
    columns: [
      c('id', 'the season'),
      c('name', 'its name'),
      c('start_scan_id', 'its start scan (an id of scans.csv)'),
      c('end_scan_id', 'its end scan (empty: running, the latest scan)'),
      c('weights', 'DKP weights (JSON)'),
      c('brackets', 'requirements by power bracket (JSON)'),
      c('windows', 'named windows (JSON)'),
      AT('created_at', 'created'),
      AT('updated_at', 'last changed'),
      BY('updated_by', 'changed by'),
    ],
  },
  {
    file: 'kvk_marks.csv',
    about: 'Governors marked zeroed or exempt in a season.',
    table: 'kvk_marks',
    order: { all: 'season_id, governor_id' },
    columns: [
      c('season_id', 'an id of kvk_seasons.csv'),
      c('governor_id', 'the governor'),
      c('mark', 'zeroed or exempt'),
      c('reason', 'why'),
      BY('marked_by', 'who'),
      AT('marked_at', 'when'),
    ],
  },
  {
    file: 'points_rules.csv',
    about: 'The automatic points rules (deleted ones stay, marked).',
    table: 'points_rules',
    order: 'id',
    columns: [
      c('id', 'the rule'),
      c('name', 'its name'),
      c('stat', 'the stat whose gain it pays (dkp: a season’s DKP)'),
      c('per', 'gain per payment'),
      c('points', 'points per payment'),
      c('cap', 'most points a governor per run (empty: no cap)'),
      c('auto', '1: runs by itself when a newest scan arrives'),
      c('season_id', 'for dkp: an id of kvk_seasons.csv'),
      AT('created_at', 'created'),
      AT('updated_at', 'last changed'),
      BY('updated_by', 'changed by'),
      AT('deleted_at', 'deleted'),
    ],
  },
  {
    file: 'points_runs.csv',
    about: 'Every run of a rule over two scans (its payments are in ledger.csv, kind automatic).',
    table: 'points_runs',
    order: 'id',
    columns: [
      c('id', 'the run'),
      c('rule_id', 'an id of points_rules.csv'),
      c('from_scan_id', 'the earlier scan'),
      c('to_scan_id', 'the later scan'),
      AT('from_taken_at', 'when the earlier scan was taken'),
      AT('to_taken_at', 'when the later scan was taken'),
      c('entries', 'ledger entries written'),
      c('total', 'points paid in all'),
      BY('actor_id', 'who applied it'),
      c('auto', '1: it ran by itself'),
      AT('created_at', 'when'),
    ],
  },
  {
    file: 'bulk_awards.csv',
    about: 'Bulk award files applied (their payments are in ledger.csv).',
    table: 'bulk_awards',
    order: 'id',
    columns: [c('id', 'the award'), c('sha256', 'the file’s SHA-256'), c('rows', 'rows paid'), c('total', 'points in all'), BY('actor_id', 'who applied it'), AT('created_at', 'when')],
  },
  {
    file: 'bots.csv',
    about: 'The scan bots (no token hashes).',
    table: 'bots',
    order: 'id',
    columns: [
      c('id', 'the bot'),
      c('name', 'its name'),
      AT('created_at', 'registered'),
      BY('created_by', 'registered by'),
      AT('revoked_at', 'revoked'),
      AT('last_seen_at', 'last online'),
      AT('last_scan_at', 'last scan sent'),
      c('version', 'its agent’s version'),
    ],
  },
  {
    file: 'audit_log.csv',
    about: 'The audit log: every leadership action, append-only.',
    table: 'audit_log',
    order: 'id',
    columns: [
      c('id', 'the entry, in order'),
      AT('at', 'when'),
      BY('actor_id', 'who'),
      c('actor', 'who, by name (system: the server or the shell)'),
      c('action', 'what, as a code (points.grant, rank.set, …)'),
      c('target', 'what it was done to'),
      c('detail', 'the details (JSON)'),
    ],
  },
];

/** README.txt: what the archive is, and every file's columns. */
export function exportReadme(kingdomName: string, at: number): string {
  const lines = [
    `${kingdomName}: everything the kingdom's server holds, exported ${csvTime(at)}.`,
    '',
    'One CSV file a table: UTF-8 with a byte order mark, comma-separated, one header line.',
    "Times are UTC in ISO 8601. Text that a spreadsheet would read as a formula starts with '.",
    'Ids join the files (user_id is an id of accounts.csv, item_id of items.csv, scan_id of scans.csv).',
    'Left out: password hashes, sessions and bot tokens.',
    '',
  ];
  for (const f of EXPORT_FILES) {
    lines.push(`${f.file}: ${f.about}`);
    for (const col of f.columns) lines.push(`  ${col.name}: ${col.about}`);
    lines.push('');
  }
  return lines.join('\r\n');
}

type Row = Record<string, unknown>;

async function* rowsOf(db: Db, f: ExportFile): AsyncGenerator<Row[]> {
  const cols = sql.join(f.columns.map((col) => sql.ref(col.name)));
  if (f.order === 'id') {
    let last = 0;
    for (;;) {
      const { rows } = await sql<Row>`select ${cols} from ${sql.table(f.table)} where id > ${last} order by id limit ${CHUNK}`.execute(db);
      if (rows.length === 0) return;
      yield rows;
      last = Number(rows[rows.length - 1].id);
      if (rows.length < CHUNK) return;
    }
  }
  if (f.order === 'scan') {
    // a scan has at most 25,000 governors: one scan a chunk
    let last = 0;
    for (;;) {
      const next = await db.selectFrom('scans').select('id').where('id', '>', last).orderBy('id').limit(1).executeTakeFirst();
      if (!next) return;
      last = next.id;
      const { rows } = await sql<Row>`select ${cols} from ${sql.table(f.table)} where scan_id = ${next.id} order by governor_id`.execute(db);
      if (rows.length > 0) yield rows;
    }
  }
  // small tables (a row a governor, alliance, kingdom or mark at most): in chunks by offset
  for (let offset = 0; ; offset += CHUNK) {
    const { rows } = await sql<Row>`select ${cols} from ${sql.table(f.table)} order by ${sql.raw(f.order.all)} limit ${CHUNK} offset ${offset}`.execute(db);
    if (rows.length > 0) yield rows;
    if (rows.length < CHUNK) return;
  }
}

function cell(column: Column, value: unknown): CsvValue {
  if (value === null || value === undefined) return null;
  if (column.about.includes('ISO 8601') && typeof value === 'number') return csvTime(value);
  if (typeof value === 'number' || typeof value === 'string') return value;
  return String(value);
}

function csvStream(db: Db, f: ExportFile): Readable {
  async function* lines(): AsyncGenerator<string> {
    yield '\uFEFF' + csvLine(f.columns.map((col) => col.name));
    for await (const chunk of rowsOf(db, f)) yield chunk.map((row) => csvLine(f.columns.map((col) => cell(col, row[col.name])))).join('');
  }
  return Readable.from(lines());
}

/** The archive as a stream of bytes (a failed read of the database ends it with that error). */
export function exportZip(db: Db, kingdomName: string, at: number): Readable {
  const zip = new yazl.ZipFile();
  const output = zip.outputStream as Readable;
  zip.on('error', (error: Error) => output.destroy(error));
  const mtime = new Date(at);
  zip.addBuffer(Buffer.from(exportReadme(kingdomName, at), 'utf8'), 'README.txt', { mtime });
  for (const f of EXPORT_FILES) {
    zip.addReadStreamLazy(f.file, { mtime, compress: true }, (callback) => callback(null, csvStream(db, f)));
  }
  zip.end();
  return output;
}

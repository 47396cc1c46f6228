import { likeOperator, nocase } from '../db/dialect';
import { actorOf, emit } from '../events/events';
import { sql } from 'kysely';
import {
  CUMULATIVE_STATS,
  duplicateFileText,
  redateOverlapsText,
  GOVERNORS_PAGE_SIZE,
  SCAN_ERRORS,
  SCAN_TOKEN_TTL_MS,
  SCANS_PAGE_SIZE,
  STATS,
  TOTAL_STATS,
  type GovernorChange,
  type GovernorDetail,
  type GovernorRow,
  type GovernorSort,
  type GovernorsFilter,
  type HistoryEntry,
  type KingdomSummary,
  type Scan,
  type ScanIssue,
  type ScanKind,
  type ScanPreview,
  type Stat,
  type TakenAtFrom,
  type Totals,
} from '../../src/protocol/scans';
import { SCAN_ROW_TEXTS } from '../../src/protocol/scan-file';
import { KVK_ERRORS } from '../../src/protocol/kvk';
import type { Db } from '../db/open';
import { seasonUsesScan } from '../kvk/seasons';
import type { ScanRowRow } from '../db/schema';
import { isDatabaseError, writeTransaction, type Queryable } from '../db/write';
import { recordAudit, recordAuditBy } from '../audit/audit';
import { takenAtFromFile, type ParsedRow, type Stats } from './parse';
import type { ScanFile } from './read';
import { runsOverlappingIfMoved } from '../points/run-overlaps';
import { mapInSlices } from '../slices';
import { Invalid, NotFound, Conflict } from '../errors';
import type { PreviewRules, PreviewStore } from '../previews/store';

/** The database column of a stat: `t1Kills` is `t1_kills`. */
export const columnOf = (stat: Stat) => stat.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`) as keyof ScanRowRow;

const statsOf = (row: ScanRowRow): Stats => Object.fromEntries(STATS.map((s) => [s, row[columnOf(s)] as number | null])) as Stats;

type ScanWithUploader = { id: number; taken_at: number; kind: ScanKind; rows: number; file_name: string; source: 'upload' | 'bot'; created_at: number; uploader: string | null };

function selectScans(db: Queryable) {
  return db
    .selectFrom('scans as s')
    .leftJoin('users as u', 'u.id', 's.uploaded_by')
    .select(['s.id', 's.taken_at', 's.kind', 's.rows', 's.file_name', 's.source', 's.created_at', 'u.username as uploader']);
}

const toScan = (s: ScanWithUploader): Scan => ({
  id: s.id,
  takenAt: s.taken_at,
  kind: s.kind,
  rows: s.rows,
  fileName: s.file_name,
  source: s.source,
  uploadedBy: s.uploader,
  createdAt: s.created_at,
});

/** The scan taken last before `takenAt` (by takenAt, then id), or the latest of all without it. */
export async function scanBefore(db: Queryable, takenAt: number | null, beforeId?: number): Promise<Scan | null> {
  let query = selectScans(db);
  if (takenAt !== null) {
    query = beforeId === undefined ? query.where('s.taken_at', '<', takenAt) : query.where((eb) => eb.or([eb('s.taken_at', '<', takenAt), eb.and([eb('s.taken_at', '=', takenAt), eb('s.id', '<', beforeId)])]));
  }
  const row = await query.orderBy('s.taken_at', 'desc').orderBy('s.id', 'desc').limit(1).executeTakeFirst();
  return row ? toScan(row as ScanWithUploader) : null;
}

export async function findScan(db: Queryable, id: number): Promise<Scan> {
  const row = await selectScans(db).where('s.id', '=', id).executeTakeFirst();
  if (!row) throw new NotFound(SCAN_ERRORS.unknownScan);
  return toScan(row as ScanWithUploader);
}

const dateText = (ms: number) => new Date(ms).toISOString().slice(0, 10);

// ── import: preview, then apply ────────────────────────────────────────────────────────────

/** A preview's small part (the previews table's payload): what its answer and its apply read but the rows. */
interface ScanHead {
  fileName: string;
  sheet: string | null;
  sha256: string;
  kind: ScanKind;
  takenAt: number;
  takenAtFrom: TakenAtFrom;
  /** Every data row of the file, usable or not. */
  total: number;
  /** The usable rows. */
  valid: number;
  columns: ScanPreview['columns'];
  invalid: number;
}

/** A usable row as stored with its preview: [line, governorId, name, alliance, kingdom, …STATS in order], a third of the size of the object. */
type PackedRow = [number, number, string, string, number | null, ...(number | null)[]];

/** A preview's rows (the previews table's body). */
interface ScanBody {
  rows: PackedRow[];
  errors: ScanIssue[];
  /** The file's own warnings (sentinels, kill points off the tiers); the comparison's are made again for each time. */
  fileWarnings: ScanIssue[];
}

const packRow = (r: ParsedRow): PackedRow => [r.line, r.governorId, r.name, r.alliance, r.kingdom, ...STATS.map((s) => r.stats[s])];
const unpackRow = ([line, governorId, name, alliance, kingdom, ...stats]: PackedRow): ParsedRow => ({
  line,
  governorId,
  name,
  alliance,
  kingdom,
  stats: Object.fromEntries(STATS.map((s, i) => [s, stats[i] ?? null])) as Stats,
});

/** Scan previews: 30 minutes each; one account keeps three waiting at once (each holds up to 25,000 rows), its oldest going first, never another account's. */
const SCAN_PREVIEWS: PreviewRules = { kind: 'scan', ttlMs: SCAN_TOKEN_TTL_MS, perOwner: 3 };

export interface PreviewInput {
  /** The file, read and parsed (server/scans/read.ts, scanFileOf; in a worker thread for an upload). */
  file: ScanFile;
  fileName: string;
  /** Epoch ms given by the uploader, or null. */
  takenAt: number | null;
  actorId: number;
}

/**
 * Scan import: a file is previewed (rows it cannot use, warnings,
 * new, renamed and moved governors against the scan before it), then applied in one transaction.
 * Previews are kept in the database (PreviewStore) by token, for the account that made them, for
 * 30 minutes and one apply, so the apply may reach any process.
 */
export class ScanImports {
  constructor(
    private readonly db: Db,
    private readonly now: () => number,
    private readonly previews: PreviewStore,
  ) {}

  async preview(input: PreviewInput): Promise<ScanPreview> {
    const { parsed, sha256, sheet, created } = input.file;
    await this.refuseDuplicate(this.db, sha256);
    const found = takenAtFromFile(input.fileName, sheet, created);
    const head: ScanHead = {
      fileName: input.fileName,
      sheet,
      sha256,
      kind: parsed.kind,
      takenAt: input.takenAt ?? found?.takenAt ?? this.now(),
      takenAtFrom: input.takenAt !== null ? 'given' : (found?.from ?? 'upload'),
      total: parsed.total,
      valid: parsed.rows.length,
      columns: parsed.columns,
      invalid: parsed.errors.length,
    };
    const body: ScanBody = { rows: await mapInSlices(parsed.rows, packRow), errors: parsed.errors, fileWarnings: parsed.warnings };
    const token = await this.previews.keep(SCAN_PREVIEWS, input.actorId, head, body);
    return this.describe(token, head, parsed.rows, body);
  }

  /**
   * The preview's time changed (POST scans/preview/compare): kept for its apply, and the preview
   * compared again with the scan before that time (new, renamed and moved governors, stats that went
   * down), so an older file previewed after a newer scan is not told it went down against the newer one.
   */
  async compareAt(actorId: number, token: string, takenAt: number): Promise<ScanPreview> {
    const head = await this.waiting(actorId, token);
    const body = await this.bodyOf(actorId, token);
    const moved: ScanHead = { ...head, takenAt, takenAtFrom: 'given' };
    await this.previews.update('scan', actorId, token, moved);
    return this.describe(token, moved, await mapInSlices(body.rows, unpackRow), body);
  }

  /** A preview as its answer says it: the file's findings and the comparison with the scan before its time. */
  private async describe(token: string, p: ScanHead, rows: ParsedRow[], body: ScanBody): Promise<ScanPreview> {
    const previous = await scanBefore(this.db, p.takenAt);
    // a warning names a stat as the file's header does ("Deads"), as the parse's own warnings do
    const headers = new Map(p.columns.found.map((c) => [c.stat, c.header]));
    const { changes, warnings } = await this.compare(rows, previous, headers);
    return {
      token,
      fileName: p.fileName,
      sheet: p.sheet,
      takenAt: p.takenAt,
      takenAtFrom: p.takenAtFrom,
      kind: p.kind,
      rows: p.total,
      valid: p.valid,
      previousScan: previous,
      columns: p.columns,
      governors: changes,
      errors: body.errors,
      warnings: [...body.fileWarnings, ...warnings].sort((a, b) => a.row - b.row),
    };
  }

  /** A preview of this account still waiting for its apply: unknown or expired is a 400, applied a 409. */
  private async waiting(actorId: number, token: string): Promise<ScanHead> {
    const found = await this.previews.find<ScanHead>('scan', actorId, token);
    if (!found) throw new Invalid(SCAN_ERRORS.tokenUnknown);
    if (found.applied) throw new Conflict(SCAN_ERRORS.tokenUsed);
    return found.payload;
  }

  /** Its rows; applied (or gone) since it was found, as `waiting` says. */
  private async bodyOf(actorId: number, token: string): Promise<ScanBody> {
    const body = await this.previews.body<ScanBody>('scan', actorId, token);
    if (!body) await this.waiting(actorId, token);
    if (!body) throw new Conflict(SCAN_ERRORS.tokenUsed);
    return body;
  }

  /** Applies a preview in one write transaction: the scan is there whole or not at all. */
  async apply(actorId: number, token: string, options: { takenAt: number | null; skipInvalid: boolean; source?: 'upload' | 'bot' }): Promise<Scan> {
    const found = await this.waiting(actorId, token);
    if (found.invalid > 0 && !options.skipInvalid) throw new Invalid(SCAN_ERRORS.hasErrors);
    if (found.valid === 0) throw new Invalid(SCAN_ERRORS.nothingToApply);
    const rows = await mapInSlices((await this.bodyOf(actorId, token)).rows, unpackRow);
    const takenAt = options.takenAt ?? found.takenAt;
    try {
      const id = await writeTransaction(this.db, async (trx) => {
        // marked applied in this transaction: a second apply of the same token, on any process, is refused, not raced
        const claim = await this.previews.claim(trx, 'scan', actorId, token);
        if (claim === 'applied') throw new Conflict(SCAN_ERRORS.tokenUsed);
        if (claim === 'unknown') throw new Invalid(SCAN_ERRORS.tokenUnknown);
        await this.refuseDuplicate(trx, found.sha256);
        const { id: scanId } = await trx
          .insertInto('scans')
          .values({
            taken_at: takenAt,
            kind: found.kind,
            rows: rows.length,
            file_name: found.fileName,
            sha256: found.sha256,
            source: options.source ?? 'upload',
            // a bot's previews are kept under its id negated; its scans name no account
            uploaded_by: actorId > 0 ? actorId : null,
            created_at: this.now(),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        // 500 rows of 21 columns a statement: well within SQLite's limit on bound parameters
        for (let at = 0; at < rows.length; at += 500) {
          await trx
            .insertInto('scan_rows')
            .values(
              rows.slice(at, at + 500).map((r) => ({
                scan_id: scanId,
                governor_id: r.governorId,
                name: r.name,
                alliance: r.alliance,
                kingdom: r.kingdom,
                ...Object.fromEntries(STATS.map((s) => [columnOf(s), r.stats[s]])),
              })),
            )
            .execute();
        }
        await writeAggregates(trx, scanId);
        const detail = { fileName: found.fileName, rows: rows.length, takenAt, source: options.source ?? 'upload' };
        if (options.source === 'bot') {
          // a bot's upload (its id negated, see uploaderOf): the audit names the bot
          const bot = await trx.selectFrom('bots').select('name').where('id', '=', -actorId).executeTakeFirst();
          await recordAudit(trx, { actor: { id: null, name: `bot ${bot?.name ?? `#${-actorId}`}` }, action: 'scan.apply', target: `#${scanId}`, detail }, this.now());
        } else await recordAuditBy(trx, actorId, 'scan.apply', `#${scanId}`, detail, this.now());
        // automatic points, the KvK standings and the bot's status react to it after the commit (server/reactions.ts)
        const source = options.source ?? 'upload';
        await emit(trx, 'scan.applied', { scanId, takenAt, rows: rows.length, source, botId: source === 'bot' ? -actorId : null }, actorOf(actorId), this.now());
        return scanId;
      });
      return await findScan(this.db, id);
    } catch (error) {
      if (isDatabaseError(error) && String((error as Error).message).includes('scans.sha256')) await this.refuseDuplicate(this.db, found.sha256);
      throw error;
    }
  }

  private async refuseDuplicate(db: Queryable, sha256: string): Promise<void> {
    const existing = await db.selectFrom('scans').select(['id', 'taken_at']).where('sha256', '=', sha256).executeTakeFirst();
    if (existing) throw new Conflict(duplicateFileText(existing.id, dateText(existing.taken_at)));
  }

  /** New, renamed and moved governors, and cumulative stats that went down, against the scan before. */
  private async compare(rows: ParsedRow[], previous: Scan | null, headers: ReadonlyMap<string, string>): Promise<{ changes: ScanPreview['governors']; warnings: ScanIssue[] }> {
    const changes: ScanPreview['governors'] = { new: [], renamed: [], changedAlliance: [] };
    const warnings: ScanIssue[] = [];
    const before = new Map<number, ScanRowRow>();
    if (previous) for (const row of await this.db.selectFrom('scan_rows').selectAll().where('scan_id', '=', previous.id).execute()) before.set(row.governor_id, row);
    for (const row of rows) {
      const change: GovernorChange = { governorId: row.governorId, name: row.name, alliance: row.alliance };
      const old = before.get(row.governorId);
      if (!old) {
        changes.new.push(change);
        continue;
      }
      if (row.name !== '' && old.name !== row.name) changes.renamed.push({ ...change, previousName: old.name });
      if (old.alliance !== row.alliance) changes.changedAlliance.push({ ...change, previousAlliance: old.alliance });
      for (const stat of CUMULATIVE_STATS) {
        const was = old[columnOf(stat)] as number | null;
        const now = row.stats[stat];
        if (was !== null && now !== null && now < was) warnings.push({ row: row.line, governorId: row.governorId, text: SCAN_ROW_TEXTS.wentDown(headers.get(stat) ?? stat, was, now) });
      }
    }
    return { changes, warnings };
  }
}

// ── reading ─────────────────────────────────────────────────────────────────────────────────

export async function listScans(db: Db, page = 1): Promise<{ scans: Scan[]; total: number; page: number; pageSize: number }> {
  const rows = await selectScans(db)
    .orderBy('s.taken_at', 'desc')
    .orderBy('s.id', 'desc')
    .limit(SCANS_PAGE_SIZE)
    .offset((page - 1) * SCANS_PAGE_SIZE)
    .execute();
  const { total } = await db.selectFrom('scans').select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  return { scans: rows.map((r) => toScan(r as ScanWithUploader)), total: Number(total), page, pageSize: SCANS_PAGE_SIZE };
}

export async function deleteScan(db: Db, id: number, actorId: number | null = null, now = Date.now()): Promise<void> {
  await writeTransaction(db, async (trx) => {
    const scan = await trx.selectFrom('scans').select(['file_name', 'taken_at', 'rows']).where('id', '=', id).executeTakeFirst();
    if (!scan) throw new NotFound(SCAN_ERRORS.unknownScan);
    // a KvK season's start, end or window: refused with a clear text (not a foreign-key failure)
    if (await seasonUsesScan(trx, id)) throw new Conflict(KVK_ERRORS.scanInUse);
    await trx.deleteFrom('scans').where('id', '=', id).execute();
    await recordAuditBy(trx, actorId, 'scan.delete', `#${id}`, { fileName: scan.file_name, takenAt: scan.taken_at, rows: scan.rows }, now);
    await emit(trx, 'scan.deleted', { scanId: id, takenAt: scan.taken_at }, actorOf(actorId), now);
  });
}

/**
 * PATCH scans/:scanId: a scan's date corrected. Order is read from `taken_at` everywhere (the latest,
 * the scan before, compares, migrants, series, KvK periods and the rules that run by themselves), so
 * the scan's new place counts at once; the runs of automatic points already paid keep the times they
 * paid for. When the new date would make one of those runs overlap another of its rule (runsOverlappingIfMoved),
 * nothing changes and the 409 names them, unless `confirm` says to save anyway; the audit entry then
 * names the runs. Answers the scan as saved, and whether anything changed.
 */
export async function redateScan(db: Db, id: number, takenAt: number, options: { actorId: number; confirm: boolean; now: number }): Promise<{ scan: Scan; changed: boolean }> {
  const changed = await writeTransaction(db, async (trx) => {
    const scan = await trx.selectFrom('scans').select(['file_name', 'taken_at']).where('id', '=', id).executeTakeFirst();
    if (!scan) throw new NotFound(SCAN_ERRORS.unknownScan);
    if (scan.taken_at === takenAt) return false;
    const overlaps = await runsOverlappingIfMoved(trx, id, takenAt);
    if (overlaps.length > 0 && !options.confirm) throw new Conflict(redateOverlapsText(overlaps.map((o) => o.runId), [...new Set(overlaps.map((o) => o.ruleName))]));
    await trx.updateTable('scans').set({ taken_at: takenAt }).where('id', '=', id).execute();
    const detail = { fileName: scan.file_name, wasTakenAt: scan.taken_at, takenAt, ...(overlaps.length > 0 ? { overlappingRuns: overlaps.map((o) => o.runId) } : {}) };
    await recordAuditBy(trx, options.actorId, 'scan.redate', `#${id}`, detail, options.now);
    return true;
  });
  return { scan: await findScan(db, id), changed };
}

/** The scan asked for (404 when unknown), or the latest; and the one to compare with: asked for, or the scan before it. */
async function scanPair(db: Db, scanId?: number, compareId?: number): Promise<{ scan: Scan | null; compare: Scan | null }> {
  const scan = scanId !== undefined ? await findScan(db, scanId) : await scanBefore(db, null);
  if (!scan) return { scan: null, compare: null };
  const compare = compareId !== undefined ? await findScan(db, compareId) : await scanBefore(db, scan.takenAt, scan.id);
  return { scan, compare };
}

const STAT_SQL_COLUMNS = STATS.map(columnOf);

/** A scan's sums for the kingdom and per alliance, written in the scan's own transaction (a sum of nothing scanned stays null). */
export async function writeAggregates(trx: Queryable, scanId: number): Promise<void> {
  const columns = sql.join(STAT_SQL_COLUMNS.map((c) => sql.ref(c)));
  const sums = sql.join(STAT_SQL_COLUMNS.map((c) => sql`sum(${sql.ref(c)})`));
  await sql`insert into scan_totals (scan_id, governors, ${columns}) select scan_id, count(*), ${sums} from scan_rows where scan_id = ${scanId} group by scan_id`.execute(trx);
  await sql`insert into scan_alliances (scan_id, alliance, members, ${columns}) select scan_id, alliance, count(*), ${sums} from scan_rows where scan_id = ${scanId} group by scan_id, alliance`.execute(trx);
}

async function totalsOf(db: Db, scanId: number): Promise<Totals> {
  const row = await db.selectFrom('scan_totals').selectAll().where('scan_id', '=', scanId).executeTakeFirst();
  const totals = { governors: row?.governors ?? 0 } as Totals;
  for (const stat of TOTAL_STATS) totals[stat] = (row?.[columnOf(stat) as keyof typeof row] as number | null | undefined) ?? null;
  return totals;
}

/** GET kingdom/summary: the totals of a scan (the latest by default) and their change since another (the one before by default). */
export async function kingdomSummary(db: Db, scanId?: number, compareId?: number): Promise<KingdomSummary> {
  const { scan, compare } = await scanPair(db, scanId, compareId);
  if (!scan) return { scan: null, compare: null, totals: null, change: null };
  const totals = await totalsOf(db, scan.id);
  if (!compare) return { scan, compare: null, totals, change: null };
  const before = await totalsOf(db, compare.id);
  const change = Object.fromEntries(
    Object.entries(totals).map(([k, v]) => {
      const was = before[k as keyof Totals];
      return [k, v === null || was === null ? null : v - was];
    }),
  ) as Totals;
  return { scan, compare, totals, change };
}

const SORT_COLUMNS: Record<GovernorSort, string> = {
  governorId: 'r.governor_id',
  name: 'r.name',
  alliance: 'r.alliance',
  ...(Object.fromEntries(STATS.map((s) => [s, `r.${columnOf(s)}`])) as Record<Stat, string>),
};

/** A LIKE pattern for text containing `text` (its own % _ and \\ escaped; used with `escape '\\'`). */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * GET governors: one page of a scan's governors (the latest by default), filtered by alliance (the
 * scan's alliance with that tag whatever its case, exactly; with none, every alliance containing it), by q (a name containing it, any case, or a governor id starting with it), sorted by
 * any column (nulls last, then by governor id), with each stat's change since `compare` when asked.
 */
export async function listGovernors(db: Db, filter: GovernorsFilter): Promise<{ scan: Scan | null; compare: Scan | null; total: number; governors: GovernorRow[]; page: number; pageSize: number }> {
  const page = filter.page ?? 1;
  const pageSize = filter.pageSize ?? GOVERNORS_PAGE_SIZE;
  const scan = filter.scan !== undefined ? await findScan(db, filter.scan) : await scanBefore(db, null);
  const compare = filter.compare !== undefined ? await findScan(db, filter.compare) : null;
  if (!scan) return { scan: null, compare, total: 0, governors: [], page, pageSize };

  let query = db.selectFrom('scan_rows as r').where('r.scan_id', '=', scan.id);
  const alliance = filter.alliance?.trim();
  if (alliance) {
    // an alliance of the scan with that tag, whatever its case, exactly (K1, not K10 too); else every alliance containing it
    const exact = await db.selectFrom('scan_alliances').select('alliance').where('scan_id', '=', scan.id).where(nocase(db, sql`alliance`), '=', nocase(db, sql`${alliance}`)).executeTakeFirst();
    query = exact ? query.where('r.alliance', '=', exact.alliance) : query.where(sql`r.alliance`, likeOperator(db), sql`${containing(alliance)} escape '\\'`);
  }
  const q = filter.q?.trim();
  if (q) {
    const like = containing(q);
    query = /^\d+$/.test(q)
      ? query.where((eb) => eb.or([eb(sql`cast(r.governor_id as text)`, 'like', `${q}%`), eb(sql`r.name`, likeOperator(db), sql`${like} escape '\\'`)]))
      : query.where(sql`r.name`, likeOperator(db), sql`${like} escape '\\'`);
  }
  // unfiltered, the count is the scan's own
  const filtered = !!alliance || !!q;
  const total = filtered ? (await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()).total : scan.rows;

  const sort = filter.sort ?? 'power';
  const order = filter.order ?? (sort === 'name' || sort === 'alliance' || sort === 'governorId' ? 'asc' : 'desc');
  let key = sort === 'name' || sort === 'alliance' ? sql`${nocase(db, sql.ref(SORT_COLUMNS[sort]))}` : sql`${sql.ref(SORT_COLUMNS[sort])}`;
  let sorted = query;
  if (filter.gain) {
    // top gains: the change since `compare`; a governor not in that scan has none and comes last
    if (!compare || !(STATS as readonly string[]).includes(sort)) throw new Invalid(SCAN_ERRORS.badGain);
    const column = columnOf(sort as Stat);
    sorted = sorted.leftJoin('scan_rows as c', (join) => join.onRef('c.governor_id', '=', 'r.governor_id').on('c.scan_id', '=', compare.id));
    key = sql`(${sql.ref(`r.${column}`)} - ${sql.ref(`c.${column}`)})`;
  }
  const rows = await sorted
    .selectAll('r')
    .orderBy(sql`${key} is null`)
    .orderBy(sql`${key} ${sql.raw(order)}`)
    .orderBy('r.governor_id', 'asc')
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();

  let before = new Map<number, ScanRowRow>();
  if (compare && rows.length) {
    const old = await db
      .selectFrom('scan_rows')
      .selectAll()
      .where('scan_id', '=', compare.id)
      .where(
        'governor_id',
        'in',
        rows.map((r) => r.governor_id),
      )
      .execute();
    before = new Map(old.map((r) => [r.governor_id, r]));
  }
  const governors = rows.map((r): GovernorRow => {
    const stats = statsOf(r);
    const row: GovernorRow = { governorId: r.governor_id, name: r.name, alliance: r.alliance, kingdom: r.kingdom, ...stats };
    if (compare) {
      const old = before.get(r.governor_id);
      row.change = old
        ? (Object.fromEntries(
            STATS.map((s) => {
              const was = old[columnOf(s)] as number | null;
              return [s, stats[s] === null || was === null ? null : (stats[s] as number) - was];
            }),
          ) as GovernorRow['change'])
        : null;
    }
    return row;
  });
  return { scan, compare, total: Number(total), governors, page, pageSize };
}

/** Every governor of a scan matching the filters, in the table's order, for the CSV export (read a page at a time). */
export async function* allGovernors(db: Db, filter: GovernorsFilter): AsyncGenerator<GovernorRow[]> {
  for (let page = 1; ; page++) {
    const { governors } = await listGovernors(db, { ...filter, page, pageSize: 500 });
    if (governors.length) yield governors;
    if (governors.length < 500) return;
  }
}

/** A governor's row in every scan that saw it, with the scan's time, by when the scans were taken (404 when no scan did). */
export async function governorScanRows(db: Db, governorId: number, order: 'asc' | 'desc') {
  const rows = await db
    .selectFrom('scan_rows as r')
    .innerJoin('scans as s', 's.id', 'r.scan_id')
    .selectAll('r')
    .select('s.taken_at')
    .where('r.governor_id', '=', governorId)
    .orderBy('s.taken_at', order)
    .orderBy('s.id', order)
    .execute();
  if (rows.length === 0) throw new NotFound(SCAN_ERRORS.unknownGovernor);
  return rows;
}

/** GET governors/:governorId: its history over every scan (oldest first), the names and alliances seen, and the account that claims it. */
export async function governorDetail(db: Db, governorId: number): Promise<GovernorDetail> {
  const rows = await governorScanRows(db, governorId, 'asc');
  const history: HistoryEntry[] = rows.map((r) => ({ scanId: r.scan_id, takenAt: r.taken_at, name: r.name, alliance: r.alliance, kingdom: r.kingdom, ...statsOf(r) }));
  const latest = rows[rows.length - 1];
  const account = await db.selectFrom('governor_links as l').innerJoin('users as u', 'u.id', 'l.user_id').select('u.username').where('l.governor_id', '=', governorId).executeTakeFirst();
  return {
    governorId,
    name: latest.name,
    alliance: latest.alliance,
    account: account ? { username: account.username } : null,
    names: [...new Set(rows.map((r) => r.name).filter((n) => n !== ''))],
    alliances: [...new Set(rows.map((r) => r.alliance).filter((a) => a !== ''))],
    history,
  };
}

/** The latest scan by when it was taken, or null before the first. */
export function latestScan(db: Queryable): Promise<Scan | null> {
  return scanBefore(db, null);
}

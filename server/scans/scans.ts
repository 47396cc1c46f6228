import { actorOf, emit } from '../events/events';
import { sql } from 'kysely';
import { redateOverlapsText, SCAN_ERRORS, SCANS_PAGE_SIZE, STATS, type Scan, type ScanKind, type Stat } from '../../src/protocol/scans';
import { KVK_ERRORS } from '../../src/protocol/kvk';
import type { Db } from '../db/open';
import { seasonUsesScan } from '../kvk/seasons';
import type { ScanRowRow } from '../db/schema';
import { writeTransaction, type Queryable } from '../db/write';
import { recordAuditBy } from '../audit/audit';
import { type Stats } from './parse';
import { runsOverlappingIfMoved } from '../points/run-overlaps';
import { NotFound, Conflict } from '../errors';

/** The database column of a stat: `t1Kills` is `t1_kills`. */
export const columnOf = (stat: Stat) => stat.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`) as keyof ScanRowRow;

export const statsOf = (row: ScanRowRow): Stats => Object.fromEntries(STATS.map((s) => [s, row[columnOf(s)] as number | null])) as Stats;

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

const STAT_SQL_COLUMNS = STATS.map(columnOf);

/** A scan's sums for the kingdom and per alliance, written in the scan's own transaction (a sum of nothing scanned stays null). */
export async function writeAggregates(trx: Queryable, scanId: number): Promise<void> {
  const columns = sql.join(STAT_SQL_COLUMNS.map((c) => sql.ref(c)));
  const sums = sql.join(STAT_SQL_COLUMNS.map((c) => sql`sum(${sql.ref(c)})`));
  await sql`insert into scan_totals (scan_id, governors, ${columns}) select scan_id, count(*), ${sums} from scan_rows where scan_id = ${scanId} group by scan_id`.execute(trx);
  await sql`insert into scan_alliances (scan_id, alliance, members, ${columns}) select scan_id, alliance, count(*), ${sums} from scan_rows where scan_id = ${scanId} group by scan_id, alliance`.execute(trx);
}

/** The latest scan by when it was taken, or null before the first. */
export function latestScan(db: Queryable): Promise<Scan | null> {
  return scanBefore(db, null);
}

import { actorOf, emit } from '../events/events';
import {
  CUMULATIVE_STATS,
  duplicateFileText,
  SCAN_ERRORS,
  SCAN_TOKEN_TTL_MS,
  STATS,
  type GovernorChange,
  type Scan,
  type ScanIssue,
  type ScanKind,
  type ScanPreview,
  type TakenAtFrom,
} from '../../src/protocol/scans';
import { SCAN_ROW_TEXTS } from '../../src/protocol/scan-file';
import type { Db } from '../db/open';
import type { ScanRowRow } from '../db/schema';
import { isDatabaseError, writeTransaction, type Queryable } from '../db/write';
import { recordAudit, recordAuditBy } from '../audit/audit';
import { takenAtFromFile, type ParsedRow, type Stats } from './parse';
import type { ScanFile } from './read';
import { mapInSlices } from '../slices';
import { Invalid, Conflict } from '../errors';
import type { PreviewRules, PreviewStore } from '../previews/store';
import { columnOf, findScan, scanBefore, writeAggregates } from './scans';

// A scan's import: a file previewed (kept in the previews table), then applied in one transaction.

const dateText = (ms: number) => new Date(ms).toISOString().slice(0, 10);

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

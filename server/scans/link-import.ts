import {
  LINK_FILE_ERRORS,
  LINK_IMPORT_ERRORS,
  LINK_ROW_TEMPLATES,
  LINK_ROW_TEXTS,
  LINKING_OUTCOMES,
  LINKS_MAX_ROWS,
  LINKS_TOKEN_TTL_MS,
  type LinkOutcome,
  type LinkPreview,
  type LinkRow,
} from '../../src/protocol/player-links';
import { fill } from '../../src/protocol/texts';
import { recordAuditBy } from '../audit/audit';
import type { Clock } from '../clock';
import type { Db } from '../db/open';
import { writeTransaction, type Queryable } from '../db/write';
import { Conflict, Invalid } from '../errors';
import { HEADER_WORDS, normalize, type Cell, type RawRow } from '../points/bulk';
import type { PreviewRules, PreviewStore } from '../previews/store';

/**
 * Farms linked in bulk: a CSV or XLSX file of (governor id, account) rows, read by the file readers
 * (server/files/readers.ts), previewed with each row's outcome, then applied in one write
 * transaction with one audit entry. A file never moves a governor linked to another account: that
 * row is refused with a sentence, and a person moves it on its own (PUT player-ids/:governorId).
 */

/** A governor id as the game writes it: a whole number from 1, at most 15 digits (as the single link's path). */
const GOVERNOR_ID = /^[1-9]\d{0,14}$/;

const GOVERNOR_WORDS = new Set(HEADER_WORDS.playerid);
const ACCOUNT_WORDS = new Set(HEADER_WORDS.username);

function text(cell: Cell | undefined): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'number') return Number.isFinite(cell) ? String(cell) : '';
  return String(cell).trim();
}

/** A header row names both columns (in any of the six languages); a file without one is governor id, account. */
function columnsOf(first: Cell[]): { governor: number; account: number; header: boolean } {
  const keys = first.map(normalize);
  const governor = keys.findIndex((k) => GOVERNOR_WORDS.has(k));
  const account = keys.findIndex((k) => ACCOUNT_WORDS.has(k));
  if (governor >= 0 && account >= 0) return { governor, account, header: true };
  if (GOVERNOR_ID.test(text(first[0]))) return { governor: 0, account: 1, header: false };
  throw new Invalid(LINK_IMPORT_ERRORS.header);
}

const asciiLower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** The governors' names in the latest scan that saw each, for the ids asked (absent: never scanned). */
async function latestNames(db: Db, ids: number[]): Promise<Map<number, string>> {
  const names = new Map<number, string>();
  for (let at = 0; at < ids.length; at += 500) {
    const rows = await db
      .selectFrom('scan_rows as r')
      .innerJoin('scans as s', 's.id', 'r.scan_id')
      .select(['r.governor_id', 'r.name'])
      .where('r.governor_id', 'in', ids.slice(at, at + 500))
      .where((eb) =>
        eb(
          's.id',
          '=',
          eb
            .selectFrom('scan_rows as r2')
            .innerJoin('scans as s2', 's2.id', 'r2.scan_id')
            .select('s2.id')
            .whereRef('r2.governor_id', '=', 'r.governor_id')
            .orderBy('s2.taken_at', 'desc')
            .orderBy('s2.id', 'desc')
            .limit(1),
        ),
      )
      .execute();
    for (const row of rows) names.set(Number(row.governor_id), row.name);
  }
  return names;
}

/** A row the apply links. */
interface PlannedLink {
  line: number;
  governorId: number;
  userId: number;
  unseen: boolean;
}

/** Each row's outcome, and the rows to link. Blank rows are skipped; a file without data rows is refused. */
export async function checkLinkRows(db: Db, raw: RawRow[]): Promise<{ rows: LinkRow[]; planned: PlannedLink[] }> {
  const nonEmpty = raw.filter((r) => r.cells.some((c) => text(c) !== ''));
  if (nonEmpty.length === 0) throw new Invalid(LINK_FILE_ERRORS.empty);
  const columns = columnsOf(nonEmpty[0].cells);
  const data = columns.header ? nonEmpty.slice(1) : nonEmpty;
  if (data.length === 0) throw new Invalid(LINK_FILE_ERRORS.empty);
  if (data.length > LINKS_MAX_ROWS) throw new Invalid(LINK_FILE_ERRORS.tooManyRows);

  const users = await db.selectFrom('users').select(['id', 'username']).execute();
  const byName = new Map(users.map((u) => [asciiLower(u.username), u]));
  const nameOf = new Map(users.map((u) => [u.id, u.username]));
  const ids = [...new Set(data.map((r) => text(r.cells[columns.governor])).filter((v) => GOVERNOR_ID.test(v)).map(Number))];
  const current = new Map<number, number>();
  for (let at = 0; at < ids.length; at += 500) {
    const links = await db.selectFrom('governor_links').select(['governor_id', 'user_id']).where('governor_id', 'in', ids.slice(at, at + 500)).execute();
    for (const link of links) current.set(Number(link.governor_id), link.user_id);
  }
  const names = await latestNames(db, ids);

  const firstLine = new Map<number, number>();
  const rows: LinkRow[] = [];
  const planned: PlannedLink[] = [];
  for (const { line, cells } of data) {
    const idText = text(cells[columns.governor]);
    const accountText = text(cells[columns.account]);
    const governorId = GOVERNOR_ID.test(idText) ? Number(idText) : null;
    const user = byName.get(asciiLower(accountText));
    const row = (outcome: LinkOutcome, said: string | null): LinkRow => ({
      line,
      governorId,
      username: user?.username ?? (accountText || null),
      name: governorId === null ? null : (names.get(governorId) ?? null),
      outcome,
      text: said,
    });
    const seenOn = governorId === null ? undefined : firstLine.get(governorId);
    if (governorId !== null && seenOn === undefined) firstLine.set(governorId, line);
    const linkedTo = governorId === null ? undefined : current.get(governorId);

    if (governorId === null || accountText === '') {
      const said = [governorId === null ? LINK_ROW_TEXTS.badGovernorId : null, accountText === '' ? LINK_ROW_TEXTS.noAccount : null].filter((t) => t !== null);
      rows.push(row('invalid', said.join(' ')));
    } else if (seenOn !== undefined) rows.push(row('duplicate', fill(LINK_ROW_TEMPLATES.duplicate, { line: seenOn })));
    else if (!user) rows.push(row('unknown-account', LINK_FILE_ERRORS.unknownAccount));
    else if (linkedTo !== undefined && linkedTo !== user.id) rows.push(row('taken', fill(LINK_ROW_TEMPLATES.taken, { username: nameOf.get(linkedTo) ?? `#${linkedTo}` })));
    else if (linkedTo === user.id) rows.push(row('already', LINK_ROW_TEXTS.already));
    else {
      const unseen = !names.has(governorId);
      rows.push(row(unseen ? 'unseen' : 'link', unseen ? LINK_ROW_TEXTS.unseen : null));
      planned.push({ line, governorId, userId: user.id, unseen });
    }
  }
  return { rows, planned };
}

/**
 * Previews kept at once per account (its oldest goes first); each holds at most LINKS_MAX_ROWS
 * rows and only admins make them.
 */
const LINK_PREVIEWS: PreviewRules = { kind: 'links', ttlMs: LINKS_TOKEN_TTL_MS, perOwner: 10 };

/** A links preview's small part: how many rows it links. */
interface LinksHead {
  toLink: number;
}

export class LinkImports {
  constructor(
    private readonly db: Db,
    private readonly previews: PreviewStore,
    private readonly now: Clock,
  ) {}

  /** Keeps the checked rows under a token (good for 10 minutes, for this admin, for one apply). */
  async preview(actorId: number, rows: LinkRow[], planned: PlannedLink[]): Promise<LinkPreview> {
    const token = await this.previews.keep<LinksHead, PlannedLink[]>(LINK_PREVIEWS, actorId, { toLink: planned.length }, planned);
    const linking = rows.filter((r) => LINKING_OUTCOMES.includes(r.outcome));
    return { token, rows, toLink: linking.length, unseen: linking.filter((r) => r.outcome === 'unseen').length, leftOut: rows.filter((r) => r.outcome !== 'already' && !LINKING_OUTCOMES.includes(r.outcome)).length };
  }

  /**
   * Links every planned row, verified, in one write transaction with its audit entry, once. A
   * governor linked to another account since the preview stops the whole apply, naming its line.
   * Answers the number of governors linked.
   */
  async apply(token: string, actorId: number): Promise<number> {
    const found = await this.previews.find<LinksHead>('links', actorId, token);
    if (!found) throw new Invalid(LINK_FILE_ERRORS.tokenUnknown);
    if (found.applied) throw new Conflict(LINK_FILE_ERRORS.tokenUsed);
    if (found.payload.toLink === 0) throw new Invalid(LINK_IMPORT_ERRORS.nothingToLink);
    const planned = await this.previews.body<PlannedLink[]>('links', actorId, token);
    if (!planned) throw new Conflict(LINK_FILE_ERRORS.tokenUsed);
    const now = this.now();
    await writeTransaction(this.db, async (trx) => {
      const claim = await this.previews.claim(trx, 'links', actorId, token);
      if (claim === 'applied') throw new Conflict(LINK_FILE_ERRORS.tokenUsed);
      if (claim === 'unknown') throw new Invalid(LINK_FILE_ERRORS.tokenUnknown);
      await refuseMoved(trx, planned);
      for (let at = 0; at < planned.length; at += 500) {
        const values = planned.slice(at, at + 500).map((p) => ({ governor_id: p.governorId, user_id: p.userId, verified: 1, created_at: now, updated_by: actorId }));
        // linked to its own account since the preview: verified now, as the file says
        await trx
          .insertInto('governor_links')
          .values(values)
          .onConflict((oc) => oc.column('governor_id').doUpdateSet((eb) => ({ verified: 1, updated_by: eb.ref('excluded.updated_by') })))
          .execute();
      }
      const accounts = new Set(planned.map((p) => p.userId)).size;
      const unseen = planned.filter((p) => p.unseen).length;
      await recordAuditBy(trx, actorId, 'player-id.import', `${planned.length} ${planned.length === 1 ? 'governor' : 'governors'}`, { governors: planned.length, accounts, unseen }, now);
    });
    return planned.length;
  }
}

/** Refuses the apply when a planned governor is now linked to another account (nothing is moved by a file). */
async function refuseMoved(trx: Queryable, planned: PlannedLink[]): Promise<void> {
  const byGovernor = new Map(planned.map((p) => [p.governorId, p]));
  for (let at = 0; at < planned.length; at += 500) {
    const links = await trx
      .selectFrom('governor_links as l')
      .innerJoin('users as u', 'u.id', 'l.user_id')
      .select(['l.governor_id', 'l.user_id', 'u.username'])
      .where('l.governor_id', 'in', planned.slice(at, at + 500).map((p) => p.governorId))
      .execute();
    const moved = links.find((l) => byGovernor.get(Number(l.governor_id))?.userId !== l.user_id);
    if (moved) {
      const line = byGovernor.get(Number(moved.governor_id))?.line ?? 0;
      throw new Conflict(fill(LINK_ROW_TEMPLATES.takenSince, { line, governorId: Number(moved.governor_id), username: moved.username }));
    }
  }
}

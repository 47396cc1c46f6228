import {
  BULK_EARLIER_MAX,
  type BulkEarlier,
  POINTS_TEMPLATES,
  BULK_MAX_ROWS,
  BULK_ROW_ERRORS,
  BULK_TOKEN_TTL_MS,
  MAX_POINTS_DELTA,
  POINTS_ERRORS,
  REASON_MAX_LENGTH,
  type BulkMatch,
  type BulkPreview,
  type BulkRow,
} from '../../src/protocol/points';
import { fill } from '../../src/protocol/texts';
import type { Db } from '../db/open';
import type { Queryable } from '../db/write';
import type { UserRow } from '../db/schema';
import { Conflict, Invalid } from '../errors';
import type { PreviewRules, PreviewStore } from '../previews/store';
import type { PointsService } from './service';

/**
 * Bulk awards: a CSV or XLSX file of (governor id or username, amount, reason) rows, previewed with
 * an error on each bad row, then applied all-or-nothing in one write transaction.
 */
export type Cell = string | number | boolean | null;

/** A row of the file with its 1-based line (the spreadsheet's row number; the header counts). */
export interface RawRow {
  line: number;
  cells: Cell[];
}

/** Reading the file (CSV or XLSX, whole or refused, with bounded work): bulk-file.ts. */
export { fileSha256, readRows } from './bulk-file';

// ── understanding the rows ──────────────────────────────────────────────────────────────────

type HeaderName = 'playerid' | 'username' | 'player' | 'amount' | 'reason';

/**
 * Header names in the app's six languages, as its pages name the columns (case, accents, spaces
 * and punctuation ignored). A player column may hold governor ids or usernames whatever its header
 * says: the header only says which to try first.
 */
export const HEADER_WORDS: Record<HeaderName, string[]> = {
  playerid: [
    'governorid', 'govid', 'playerid', 'governor', 'id',
    'iddegouverneur', 'idgouverneur', 'gouverneur', 'iddegobernador', 'idgobernador', 'gobernador', 'idgovernatore', 'governatore',
    'معرفالحاكم', 'الحاكم', '总督id', '总督',
  ],
  username: [
    'username', 'user', 'account',
    'nomdutilisateur', 'utilisateur', 'compte', 'nombredeusuario', 'usuario', 'cuenta', 'nomeutente', 'utente',
    'اسمالمستخدم', 'المستخدم', '用户名', '用户',
  ],
  player: ['player', 'players', 'joueur', 'joueurs', 'jugador', 'jugadores', 'giocatore', 'giocatori', 'اللاعب', 'لاعب', '玩家'],
  amount: ['amount', 'points', 'montant', 'cantidad', 'puntos', 'quantita', 'importo', 'punti', 'المقدار', 'النقاط', 'نقاط', '数量', '积分'],
  reason: ['reason', 'motif', 'raison', 'motivo', 'razon', 'causale', 'السبب', 'سبب', '原因', '理由'],
};
const HEADER_NAMES = new Map<string, HeaderName>(Object.entries(HEADER_WORDS).flatMap(([name, words]) => words.map((w) => [w, name as HeaderName] as const)));

/** A header cell as HEADER_WORDS spells it: lower case, no accents or Arabic marks, letters and digits only. */
export const normalize = (cell: Cell) => (typeof cell === 'string' ? cell.normalize('NFKD').toLowerCase().replace(/[^\p{L}\p{N}]/gu, '') : '');

/** A column that names the player, and what to try first in it (null: a governor id when the cell is all digits). */
interface PlayerColumn {
  index: number;
  prefer: BulkMatch | null;
}

interface Columns {
  players: PlayerColumn[];
  amount: number;
  reason: number;
}

/** A header row names its columns; without one the columns are player (governor id or username), amount, reason. */
function columnsOf(first: Cell[]): { columns: Columns; header: boolean } {
  const names = first.map((c) => HEADER_NAMES.get(normalize(c)));
  if (!names.includes('amount')) return { columns: { players: [{ index: 0, prefer: null }], amount: 1, reason: 2 }, header: false };
  const players: PlayerColumn[] = [];
  names.forEach((name, index) => {
    if (name === 'playerid' || name === 'username') players.push({ index, prefer: name });
    else if (name === 'player') players.push({ index, prefer: null });
  });
  if (players.length === 0) throw new Invalid(POINTS_ERRORS.bulkHeader);
  return { columns: { players, amount: names.indexOf('amount'), reason: names.indexOf('reason') }, header: true };
}

function text(cell: Cell | undefined): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'number') return Number.isFinite(cell) ? String(cell) : '';
  return String(cell).trim();
}

function parseAmount(cell: Cell | undefined): { amount: number | null; error: string | null } {
  let value: number;
  if (typeof cell === 'number') value = cell;
  else {
    const raw = text(cell).replace(/\s/g, '');
    if (!/^[+-]?\d+$/.test(raw)) return { amount: null, error: BULK_ROW_ERRORS.amount };
    value = Number(raw);
  }
  if (!Number.isSafeInteger(value) || value === 0) return { amount: null, error: BULK_ROW_ERRORS.amount };
  if (Math.abs(value) > MAX_POINTS_DELTA) return { amount: null, error: BULK_ROW_ERRORS.amountTooLarge };
  return { amount: value, error: null };
}

/**
 * The accounts a file may name: by ASCII-lowercased username (as the NOCASE column compares), by
 * the governor a link gives them (Player IDs: a sign-up's claim, a farm, a corrected main) and by
 * the governor id they signed up with.
 */
interface Directory {
  byName: Map<string, UserRow>;
  byGovernor: Map<string, { user: UserRow; verified: boolean }>;
  byPlayerId: Map<string, UserRow[]>;
}

const asciiLower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

async function directory(db: Db): Promise<Directory> {
  const users = await db.selectFrom('users').selectAll().execute();
  const links = await db.selectFrom('governor_links').select(['governor_id', 'user_id', 'verified']).execute();
  const byName = new Map<string, UserRow>();
  const byId = new Map<number, UserRow>();
  const byPlayerId = new Map<string, UserRow[]>();
  for (const user of users) {
    byName.set(asciiLower(user.username), user);
    byId.set(user.id, user);
    byPlayerId.set(user.playerid, [...(byPlayerId.get(user.playerid) ?? []), user]);
  }
  const byGovernor = new Map<string, { user: UserRow; verified: boolean }>();
  for (const link of links) {
    const user = byId.get(link.user_id);
    if (user) byGovernor.set(String(link.governor_id), { user, verified: link.verified === 1 });
  }
  return { byName, byGovernor, byPlayerId };
}

/**
 * The account a governor id pays, as automatic points pay it: the account the governor is linked
 * to, else the one account that signed up with it. An id that several accounts signed up with (only
 * a database from before ids were unique has one) stays ambiguous until an admin verifies its link.
 */
function byGovernorId(users: Directory, value: string): UserRow | 'ambiguous' | null {
  const linked = users.byGovernor.get(value);
  const claimants = users.byPlayerId.get(value) ?? [];
  if (linked && (linked.verified || claimants.length <= 1)) return linked.user;
  if (claimants.length > 1) return 'ambiguous';
  return claimants[0] ?? null;
}

/**
 * The account a player cell names: by governor id or by username, the column's preference first
 * (a governor id first when it has none), so a username under a "governor id" header still matches.
 */
function findPlayer(users: Directory, value: string, prefer: BulkMatch | null): { user: UserRow; matchedBy: BulkMatch } | { error: string } {
  const digits = /^\d+$/.test(value);
  const byId = digits ? byGovernorId(users, value) : null;
  const byName = users.byName.get(asciiLower(value));
  const order: BulkMatch[] = prefer === 'username' ? ['username', 'playerid'] : ['playerid', 'username'];
  for (const kind of order) {
    if (kind === 'playerid' && byId === 'ambiguous') return { error: BULK_ROW_ERRORS.ambiguousPlayerId };
    if (kind === 'playerid' && byId !== null && byId !== 'ambiguous') return { user: byId, matchedBy: 'playerid' };
    if (kind === 'username' && byName) return { user: byName, matchedBy: 'username' };
  }
  if (!digits) return { error: BULK_ROW_ERRORS.unknownUsername };
  return { error: prefer === 'playerid' ? BULK_ROW_ERRORS.unknownPlayerId : BULK_ROW_ERRORS.unknownPlayer };
}

/** A row ready to book: only in a preview without errors. */
export interface PlannedRow {
  line: number;
  userId: number;
  username: string;
  amount: number;
  reason: string;
}

/**
 * Checks every row: the player (one player cell, a known governor id or username), the amount
 * (a whole number other than 0), the reason (given, not too long), and, taking the rows in order,
 * that no balance would go below 0 or below what the player's leading bids reserve. Blank rows are skipped.
 */
export async function checkRows(db: Db, raw: RawRow[]): Promise<{ rows: BulkRow[]; planned: PlannedRow[] }> {
  const nonEmpty = raw.filter((r) => r.cells.some((c) => text(c) !== ''));
  if (nonEmpty.length === 0) throw new Invalid(POINTS_ERRORS.bulkEmpty);
  const { columns, header } = columnsOf(nonEmpty[0].cells);
  const data = header ? nonEmpty.slice(1) : nonEmpty;
  if (data.length === 0) throw new Invalid(POINTS_ERRORS.bulkEmpty);
  if (data.length > BULK_MAX_ROWS) throw new Invalid(POINTS_ERRORS.bulkTooManyRows);

  const users = await directory(db);
  const running = new Map<number, number>();
  const rows: BulkRow[] = [];
  const planned: PlannedRow[] = [];
  for (const { line, cells } of data) {
    const errors: string[] = [];
    const at = (i: number | null) => (i === null || i < 0 ? '' : text(cells[i]));
    const given = columns.players.map((c) => ({ ...c, value: at(c.index) })).filter((c) => c.value !== '');
    let playerid: string | null = null;
    let username: string | null = null;
    let user: UserRow | undefined;
    let matchedBy: BulkMatch | null = null;
    if (given.length === 0) errors.push(BULK_ROW_ERRORS.noPlayer);
    else if (given.length > 1) {
      errors.push(BULK_ROW_ERRORS.bothIds);
      for (const g of given) {
        if (g.prefer === 'username') username = g.value;
        else playerid = g.value;
      }
    } else {
      const found = findPlayer(users, given[0].value, given[0].prefer);
      if ('error' in found) {
        errors.push(found.error);
        if (/^\d+$/.test(given[0].value)) playerid = given[0].value;
        else username = given[0].value;
      } else {
        ({ user, matchedBy } = found);
        username = user.username;
        // the governor the row names (a farm's own id), or the account's own when named by username
        playerid = matchedBy === 'playerid' ? given[0].value : user.playerid;
      }
    }

    const { amount, error: amountError } = parseAmount(columns.amount < 0 ? null : cells[columns.amount]);
    if (amountError) errors.push(amountError);
    const reason = at(columns.reason) || null;
    if (!reason) errors.push(BULK_ROW_ERRORS.reasonRequired);
    else if (reason.length > REASON_MAX_LENGTH) errors.push(BULK_ROW_ERRORS.reasonTooLong);

    if (errors.length === 0 && user && amount !== null && reason) {
      const balance = (running.get(user.id) ?? user.balance) + amount;
      if (balance < 0) errors.push(BULK_ROW_ERRORS.moreThanBalance);
      else if (balance < user.reserved) errors.push(BULK_ROW_ERRORS.belowReserved);
      else {
        running.set(user.id, balance);
        planned.push({ line, userId: user.id, username: user.username, amount, reason });
      }
    }
    rows.push({ line, username, playerid, matchedBy, amount, reason, error: errors.length ? errors.join(' ') : null });
  }
  return { rows, planned };
}

// ── previews waiting to be applied ──────────────────────────────────────────────────────────

/** A bulk preview's small part (the previews table's payload); its body is the planned rows. */
interface BulkHead {
  /** The file's SHA-256, kept with the apply (bulk_awards). */
  sha256: string;
  invalid: number;
}

/**
 * Previews kept at once per account; that account's oldest goes first. Each holds at most
 * BULK_MAX_ROWS rows, and only council and admins make them, so the table stays bounded by the
 * leadership's size while no one's previews can push out another's.
 */
export const MAX_PENDING_PER_USER = 20;

const BULK_PREVIEWS: PreviewRules = { kind: 'bulk', ttlMs: BULK_TOKEN_TTL_MS, perOwner: MAX_PENDING_PER_USER };

/** The earlier applies of a file, newest first (at most BULK_EARLIER_MAX). */
export async function earlierApplies(db: Queryable, sha256: string): Promise<BulkEarlier[]> {
  const rows = await db
    .selectFrom('bulk_awards as b')
    .leftJoin('users as u', 'u.id', 'b.actor_id')
    .select(['b.created_at', 'u.username', 'b.rows', 'b.total'])
    .where('b.sha256', '=', sha256)
    .orderBy('b.id', 'desc')
    .limit(BULK_EARLIER_MAX)
    .execute();
  return rows.map((r) => ({ at: Number(r.created_at), by: r.username ?? null, rows: Number(r.rows), total: Number(r.total) }));
}

/**
 * Bulk previews by token, kept in the database (PreviewStore) so the apply may reach any process:
 * a token is good for 10 minutes, for the account that made it, and for one apply.
 */
export class BulkPreviews {
  constructor(private readonly previews: PreviewStore) {}

  async add(actorId: number, rows: BulkRow[], planned: PlannedRow[], file: { sha256: string; earlier: BulkEarlier[] }): Promise<BulkPreview> {
    const invalid = rows.filter((r) => r.error !== null).length;
    const token = await this.previews.keep<BulkHead, PlannedRow[]>(BULK_PREVIEWS, actorId, { sha256: file.sha256, invalid }, planned);
    return { rows, valid: rows.length - invalid, invalid, token, earlier: file.earlier };
  }

  /** The preview to apply and its rows, or the reason it cannot be applied. */
  private async take(token: string, actorId: number): Promise<{ head: BulkHead; planned: PlannedRow[] }> {
    const found = await this.previews.find<BulkHead>('bulk', actorId, token);
    if (!found) throw new Invalid(POINTS_ERRORS.bulkTokenUnknown);
    if (found.applied) throw new Conflict(POINTS_ERRORS.bulkTokenUsed);
    if (found.payload.invalid > 0) throw new Invalid(POINTS_ERRORS.bulkHasErrors);
    const planned = await this.previews.body<PlannedRow[]>('bulk', actorId, token);
    // applied (or gone) since it was found
    if (!planned) throw new Conflict(POINTS_ERRORS.bulkTokenUsed);
    return { head: found.payload, planned };
  }

  /**
   * Applies a preview, once: every row becomes a ledger entry (grant or deduct by sign, the row's
   * reason, the caller as actor) through the points service, all or none. When a row is refused
   * now (a balance would go below what is reserved, because bids changed since the preview),
   * nothing is applied and the refusal names its line. Answers the number of rows booked.
   */
  async apply(points: PointsService, token: string, actorId: number): Promise<number> {
    const { head, planned: rows } = await this.take(token, actorId);
    const total = rows.reduce((sum, row) => sum + row.amount, 0);
    await points.book(
      rows.map((row) => ({ userId: row.userId, delta: row.amount, reason: row.reason })),
      {
        actorId,
        // first in the transaction: a second apply of the same token, on any process, waits for this one, then finds it used
        claim: async (trx) => {
          const claim = await this.previews.claim(trx, 'bulk', actorId, token);
          if (claim === 'applied') throw new Conflict(POINTS_ERRORS.bulkTokenUsed);
          if (claim === 'unknown') throw new Invalid(POINTS_ERRORS.bulkTokenUnknown);
        },
        refusalText: (index, message) => fill(POINTS_TEMPLATES.bulkRefusal, { line: rows[index].line, username: rows[index].username, message }),
        audit: ({ users }) => ({
          action: 'points.bulk',
          target: `${rows.length} ${rows.length === 1 ? 'row' : 'rows'}`,
          detail: { rows: rows.length, players: users.length, total },
        }),
        // the file applied, so its next preview can say so
        alsoIn: async (trx, at) => {
          await trx.insertInto('bulk_awards').values({ sha256: head.sha256, rows: rows.length, total, actor_id: actorId, created_at: at }).execute();
        },
      },
    );
    return rows.length;
  }
}

import crypto from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Clock } from '../clock';
import type { Db } from '../db/open';
import type { Queryable } from '../db/write';
import { stringifyInSlices } from '../slices';

const deflate = promisify(zlib.deflate);
const inflate = promisify(zlib.inflate);

/** What a preview previews: a scan file, a bulk award file, an automatic-points run, a file of farm links. */
export type PreviewKind = 'scan' | 'bulk' | 'rule' | 'links';

/** How long a kind's previews are good for, and how many one account keeps at once (its oldest goes first, never another's). */
export interface PreviewRules {
  kind: PreviewKind;
  ttlMs: number;
  perOwner: number;
}

/** A preview as its owner finds it again: its small part, and whether it was applied. */
export interface Found<P> {
  payload: P;
  applied: boolean;
}

/**
 * Previews waiting for their apply, kept in the database (the previews table) so that an apply
 * may land on any process serving the kingdom. A preview has two parts: its payload (small JSON:
 * names, counts, the file's hash) and its body (the rows the apply writes), stored as JSON deflated
 * by zlib (level 1) in the thread pool, so the event loop does not pay for the rows' size: a
 * 25,000-row scan preview is ~3.7 MB of JSON stored as ~1.1 MB (tests/server/previews.test.ts
 * holds it under 2 MB); the rows of any file within the scan limits (25,000 rows, names cut at 64
 * characters, 16 stats) are under 21 MB of JSON before deflating, and an account keeps at most
 * its kind's cap of them.
 *
 * A preview is found only by its owner, with its kind, before it expires; any other asker finds
 * nothing, as for a token never made. Applying claims it inside the apply's own write transaction
 * (claim), so it applies once across processes and a rolled-back apply leaves it to be tried again.
 * Expired rows go at each new preview, and an account's oldest beyond its kind's cap.
 */
export class PreviewStore {
  constructor(
    private readonly db: Db,
    private readonly now: Clock,
  ) {}

  /** Stores a preview of `ownerId` (a bot's id negated); answers its token. */
  async keep<P, B>(rules: PreviewRules, ownerId: number, payload: P, body: B): Promise<string> {
    const token = crypto.randomBytes(24).toString('base64url');
    const packed = await deflate(Buffer.from(await stringifyInSlices(body)), { level: zlib.constants.Z_BEST_SPEED });
    const now = this.now();
    await this.db.deleteFrom('previews').where('expires_at', '<', now).execute();
    await this.db
      .insertInto('previews')
      .values({ token, kind: rules.kind, owner_id: ownerId, payload: JSON.stringify(payload), body: packed, created_at: now, expires_at: now + rules.ttlMs, applied_at: null })
      .execute();
    // after the insert: two previews made at once on two processes each trim what both have committed
    const keep = this.db
      .selectFrom('previews')
      .select('id')
      .where('owner_id', '=', ownerId)
      .where('kind', '=', rules.kind)
      .orderBy('id', 'desc')
      .limit(rules.perOwner);
    await this.db.deleteFrom('previews').where('owner_id', '=', ownerId).where('kind', '=', rules.kind).where('id', 'not in', keep).execute();
    return token;
  }

  /** `ownerId`'s preview of `kind` under `token`, unless it expired; null for anyone else's or none. */
  async find<P>(kind: PreviewKind, ownerId: number, token: string): Promise<Found<P> | null> {
    const row = await this.db
      .selectFrom('previews')
      .select(['payload', 'applied_at', 'expires_at'])
      .where('token', '=', token)
      .where('kind', '=', kind)
      .where('owner_id', '=', ownerId)
      .executeTakeFirst();
    if (!row || row.expires_at < this.now()) return null;
    return { payload: JSON.parse(row.payload) as P, applied: row.applied_at !== null };
  }

  /** The preview's body (its rows), null once it was applied or when it is gone. */
  async body<B>(kind: PreviewKind, ownerId: number, token: string): Promise<B | null> {
    const row = await this.db.selectFrom('previews').select('body').where('token', '=', token).where('kind', '=', kind).where('owner_id', '=', ownerId).executeTakeFirst();
    if (!row?.body) return null;
    return JSON.parse((await inflate(row.body)).toString()) as B;
  }

  /** Changes a preview's payload (the time a scan was taken, say); its body stays. */
  async update<P>(kind: PreviewKind, ownerId: number, token: string, payload: P): Promise<void> {
    await this.db.updateTable('previews').set({ payload: JSON.stringify(payload) }).where('token', '=', token).where('kind', '=', kind).where('owner_id', '=', ownerId).execute();
  }

  /**
   * Marks the preview applied in `trx`, the apply's write transaction, and drops its body (it stays,
   * without its rows, until it expires, so a second apply is told it was applied). On PostgreSQL a
   * second apply waits here for the first to commit, then finds it applied; a rolled-back apply
   * leaves it as it was. Answers 'applied' when it was already, 'unknown' when it is gone.
   */
  async claim(trx: Queryable, kind: PreviewKind, ownerId: number, token: string): Promise<'claimed' | 'applied' | 'unknown'> {
    const result = await trx
      .updateTable('previews')
      .set({ applied_at: this.now(), body: null })
      .where('token', '=', token)
      .where('kind', '=', kind)
      .where('owner_id', '=', ownerId)
      .where('applied_at', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) return 'claimed';
    const still = await trx.selectFrom('previews').select('id').where('token', '=', token).where('kind', '=', kind).where('owner_id', '=', ownerId).executeTakeFirst();
    return still ? 'applied' : 'unknown';
  }
}

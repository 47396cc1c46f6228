import type { z } from 'zod/mini';
import { Conflict, NotFound } from '../errors';
import { ADMIN_ERRORS, KINGDOMS_MAX, type Kingdom, type kingdomBody, type kingdomEditBody } from '../../src/protocol/admin';
import { recordAudit, type AuditEntry } from '../audit/audit';
import type { Db } from '../db/open';
import type { Queryable } from '../db/write';
import { writeTransaction } from '../db/write';

/**
 * The kingdoms the site knows: ours and the others met in KvK, by number, with
 * a name and a camp. KvK seasons read them, and the scans' kingdom column shows a known kingdom's
 * name beside its number. Ours is the one whose number the kingdom settings name.
 */
type Actor = AuditEntry['actor'];

async function ourNumber(db: Queryable): Promise<number | null> {
  const row = await db.selectFrom('kingdom_settings').select('kingdom_number').where('id', '=', 1).executeTakeFirst();
  return row?.kingdom_number ?? null;
}

const toKingdom = (r: { number: number; name: string; camp: string }, ours: number | null): Kingdom => ({ number: r.number, name: r.name, camp: r.camp, ours: r.number === ours });

/** Every known kingdom by number (a few dozen at most: a kingdom meets a handful each KvK). */
export async function listKingdoms(db: Db): Promise<Kingdom[]> {
  const [rows, ours] = await Promise.all([db.selectFrom('kingdoms').select(['number', 'name', 'camp']).orderBy('number').execute(), ourNumber(db)]);
  return rows.map((r) => toKingdom(r, ours));
}

export async function createKingdom(db: Db, body: z.output<typeof kingdomBody>, actor: Actor, now: number): Promise<Kingdom> {
  return writeTransaction(db, async (trx) => {
    const existing = await trx.selectFrom('kingdoms').select('number').where('number', '=', body.number).executeTakeFirst();
    if (existing) throw new Conflict(ADMIN_ERRORS.kingdomExists);
    const { n } = await trx.selectFrom('kingdoms').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    if (Number(n) >= KINGDOMS_MAX) throw new Conflict(ADMIN_ERRORS.tooManyKingdoms);
    const camp = body.camp ?? '';
    await trx.insertInto('kingdoms').values({ number: body.number, name: body.name, camp, created_at: now, updated_at: now, updated_by: actor.id }).execute();
    await recordAudit(trx, { actor, action: 'kingdom.create', target: String(body.number), detail: { name: body.name, camp } }, now);
    return toKingdom({ number: body.number, name: body.name, camp }, await ourNumber(trx));
  });
}

export async function editKingdom(db: Db, number: number, body: z.output<typeof kingdomEditBody>, actor: Actor, now: number): Promise<Kingdom> {
  return writeTransaction(db, async (trx) => {
    const current = await trx.selectFrom('kingdoms').select(['number', 'name', 'camp']).where('number', '=', number).executeTakeFirst();
    if (!current) throw new NotFound(ADMIN_ERRORS.unknownKingdom);
    const next = { number, name: body.name ?? current.name, camp: body.camp ?? current.camp };
    await trx.updateTable('kingdoms').set({ name: next.name, camp: next.camp, updated_at: now, updated_by: actor.id }).where('number', '=', number).execute();
    await recordAudit(trx, { actor, action: 'kingdom.edit', target: String(number), detail: { name: next.name, camp: next.camp, was: { name: current.name, camp: current.camp } } }, now);
    return toKingdom(next, await ourNumber(trx));
  });
}

/**
 * Forgets a kingdom. Nothing points at the row (scans keep the number they read, seasons name
 * kingdoms by number too), so this only takes the name away from those places; audited.
 */
export async function removeKingdom(db: Db, number: number, actor: Actor, now: number): Promise<void> {
  await writeTransaction(db, async (trx) => {
    const current = await trx.selectFrom('kingdoms').select(['name', 'camp']).where('number', '=', number).executeTakeFirst();
    if (!current) throw new NotFound(ADMIN_ERRORS.unknownKingdom);
    await trx.deleteFrom('kingdoms').where('number', '=', number).execute();
    await recordAudit(trx, { actor, action: 'kingdom.delete', target: String(number), detail: current }, now);
  });
}

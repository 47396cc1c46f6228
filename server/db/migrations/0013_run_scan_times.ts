import { sql, type Kysely } from 'kysely';
import { fillAppendOnly } from '../append-only';

// A run of automatic points keeps when its two scans were taken, so a later preview still sees the
// gain it paid after one of those scans is deleted (and perhaps imported again under a new id).
// Runs whose scans are already gone keep nulls: their times are lost.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('points_runs').addColumn('from_taken_at', 'integer').execute();
  await db.schema.alterTable('points_runs').addColumn('to_taken_at', 'integer').execute();
  // runs are append-only (0010): the refusal is lifted for this one fill, then put back as it was
  await fillAppendOnly(db, 'points_runs', 'automatic points runs are append-only', async () => {
    await sql`update points_runs set
      from_taken_at = (select s.taken_at from scans s where s.id = points_runs.from_scan_id),
      to_taken_at = (select s.taken_at from scans s where s.id = points_runs.to_scan_id)`.execute(db);
  });
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('points_runs').dropColumn('to_taken_at').execute();
  await db.schema.alterTable('points_runs').dropColumn('from_taken_at').execute();
}

import { sql, type Kysely } from 'kysely';
import { makeAppendOnly } from '../append-only';

// Automatic points. A rule pays points for a stat's gain between two
// scans (or a season's DKP); a run is one rule over one pair of scans. The unique key on
// (rule, from, to) is what makes a run apply at most once, ever: the run's row is written in the
// same transaction as its ledger entries, so two applies at the same moment, or one retried after a
// crash, meet the constraint and the second books nothing. A deleted rule keeps its row (its runs
// and ledger entries name it), marked deleted. Scans are named by id without a foreign key: a run
// stays on record when one of its scans is deleted.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('points_rules')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('stat', 'text', (c) => c.notNull())
    .addColumn('per', 'integer', (c) => c.notNull().check(sql`per >= 1`))
    .addColumn('points', 'integer', (c) => c.notNull().check(sql`points >= 1`))
    .addColumn('cap', 'integer', (c) => c.check(sql`cap is null or cap >= 1`))
    .addColumn('auto', 'integer', (c) => c.notNull().defaultTo(0).check(sql`auto in (0, 1)`))
    .addColumn('season_id', 'integer', (c) => c.references('kvk_seasons.id'))
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'integer', (c) => c.notNull())
    .addColumn('updated_by', 'integer', (c) => c.references('users.id'))
    .addColumn('deleted_at', 'integer')
    .execute();
  await db.schema
    .createTable('points_runs')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('rule_id', 'integer', (c) => c.notNull().references('points_rules.id'))
    .addColumn('from_scan_id', 'integer', (c) => c.notNull())
    .addColumn('to_scan_id', 'integer', (c) => c.notNull())
    .addColumn('entries', 'integer', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('actor_id', 'integer', (c) => c.references('users.id'))
    .addColumn('auto', 'integer', (c) => c.notNull().defaultTo(0).check(sql`auto in (0, 1)`))
    .addColumn('created_at', 'integer', (c) => c.notNull())
    .addUniqueConstraint('points_runs_once', ['rule_id', 'from_scan_id', 'to_scan_id'])
    .execute();
  await db.schema.createIndex('points_runs_created').on('points_runs').columns(['created_at', 'id']).execute();
  // a run is history: never edited nor removed
  await makeAppendOnly(db, 'points_runs', 'automatic points runs are append-only');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('points_runs').execute();
  await db.schema.dropTable('points_rules').execute();
}

import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { isPostgres } from './dialect';
import * as m0001 from './migrations/0001_users_sessions';
import * as m0002 from './migrations/0002_points_ledger';
import * as m0003 from './migrations/0003_auction';
import * as m0004 from './migrations/0004_back_office';
import * as m0005 from './migrations/0005_store_pause';
import * as m0006 from './migrations/0006_scans';
import * as m0007 from './migrations/0007_governor_ids_safe_times';
import * as m0008 from './migrations/0008_audit_log';
import * as m0009 from './migrations/0009_kvk';
import * as m0010 from './migrations/0010_automatic_points';
import * as m0011 from './migrations/0011_administration';
import * as m0012 from './migrations/0012_bots';
import * as m0013 from './migrations/0013_run_scan_times';
import * as m0014 from './migrations/0014_bulk_awards';
import * as m0015 from './migrations/0015_share_links';
import * as m0016 from './migrations/0016_backups';
import * as m0017 from './migrations/0017_events';
import * as m0018 from './migrations/0018_previews';
import * as m0019 from './migrations/0019_discord';
import * as m0020 from './migrations/0020_kvk_published';
import * as m0021 from './migrations/0021_discord_outbox';
import * as m0022 from './migrations/0022_item_formats';
import * as m0023 from './migrations/0023_notices';
import * as m0024 from './migrations/0024_max_bids';

/** Every migration, in order. Add the next one here (0002_…) and it runs at the next start. */
export const MIGRATIONS: Record<string, Migration> = {
  '0001_users_sessions': m0001,
  '0002_points_ledger': m0002,
  '0003_auction': m0003,
  '0004_back_office': m0004,
  '0005_store_pause': m0005,
  '0006_scans': m0006,
  '0007_governor_ids_safe_times': m0007,
  '0008_audit_log': m0008,
  '0009_kvk': m0009,
  '0010_automatic_points': m0010,
  '0011_administration': m0011,
  '0012_bots': m0012,
  '0013_run_scan_times': m0013,
  '0014_bulk_awards': m0014,
  '0015_share_links': m0015,
  '0016_backups': m0016,
  '0017_events': m0017,
  '0018_previews': m0018,
  '0019_discord': m0019,
  '0020_kvk_published': m0020,
  '0021_discord_outbox': m0021,
  '0022_item_formats': m0022,
  '0023_notices': m0023,
  '0024_max_bids': m0024,
};

/**
 * SQLite: each migration in a transaction of its own. Kysely runs them in transactions only where
 * its adapter claims transactional DDL (PostgreSQL), so on SQLite a migration that failed half way
 * left its first changes behind, recorded as not applied, and the next start failed on them (a
 * column already there). SQLite's DDL is transactional: now a failed migration leaves nothing.
 */
function atomic(migration: Migration): Migration {
  return {
    ...migration,
    async up(db) {
      await sql`begin immediate`.execute(db);
      try {
        await migration.up(db);
      } catch (error) {
        await sql`rollback`.execute(db);
        throw error;
      }
      await sql`commit`.execute(db);
    },
  };
}

/** Brings the database to the latest schema; throws (with the failing migration's name) on error. `migrations`: tests pass their own. */
export async function migrateToLatest(db: Kysely<unknown>, migrations: Record<string, Migration> = MIGRATIONS): Promise<void> {
  const own = isPostgres(db) ? migrations : Object.fromEntries(Object.entries(migrations).map(([name, m]) => [name, atomic(m)]));
  const provider: MigrationProvider = { getMigrations: async () => own };
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Database migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import SQLite from 'better-sqlite3';
import yauzl from 'yauzl';
import { MIGRATIONS } from '../db/migrations';
import { DB_FILE, openDatabase } from '../db/open';
import { UPLOAD_NAME, uploadsDir } from '../files/uploads';
import { checkLedger } from '../points/ledger';
import { BACKUP_FORMAT, DATABASE_ENTRY, MANIFEST_ENTRY, UPLOADS_PREFIX, type BackupManifest } from './backup';

/** A restore refused, said in a sentence; nothing in DATA_DIR was changed. */
export class RestoreRefused extends Error {}

export interface RestoreResult {
  /** The backup's snapshot time. */
  takenAt: number;
  uploads: number;
  /** Where the database that was replaced now is (null: there was none). */
  keptDatabase: string | null;
  keptUploads: string | null;
}

/** The biggest manifest read (it is a few hundred bytes). */
const MANIFEST_MAX_BYTES = 1 << 20;

/** A name for what a restore set aside: `kingdom.db.replaced-20261127-204500`. */
export function stamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d+Z$/, '').replace(/[-:]/g, '').replace('T', '-');
}

/**
 * Holds DATA_DIR/kingdom.db exclusively, or refuses: in WAL mode every open connection keeps a
 * shared lock on the database file for as long as it is open, so an exclusive lock is had only
 * when no server (nor any other program) has the database open. Answers the connection holding
 * the lock (close it to let go), or null when there is no database yet.
 */
function lockDatabase(dataDir: string): SQLite.Database | null {
  const file = path.join(dataDir, DB_FILE);
  if (!fs.existsSync(file)) return null;
  const db = new SQLite(file, { fileMustExist: true, timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('begin exclusive');
    db.exec('commit');
    return db;
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') {
      throw new RestoreRefused(`${file} is in use: stop the server (and anything else that has the database open) before a restore.`);
    }
    throw error;
  }
}

function readManifest(bytes: Buffer, file: string): BackupManifest {
  let manifest: unknown;
  try {
    manifest = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new RestoreRefused(`${file} is not a Kingdom backup: its ${MANIFEST_ENTRY} is not JSON.`);
  }
  const m = manifest as Partial<BackupManifest> | null;
  if (m === null || typeof m !== 'object' || m.format !== BACKUP_FORMAT || typeof m.takenAt !== 'number' || !Array.isArray(m.migrations)) {
    throw new RestoreRefused(`${file} is not a Kingdom backup: its ${MANIFEST_ENTRY} does not describe one.`);
  }
  return m as BackupManifest;
}

/** Writes one entry to `dest` (or collects it, for the manifest), checking its CRC-32 against the archive's. */
async function extract(zip: yauzl.ZipFile, entry: yauzl.Entry, dest: string | null, file: string): Promise<Buffer | null> {
  const stream = await zip.openReadStreamPromise(entry);
  let crc = 0;
  const chunks: Buffer[] = [];
  let size = 0;
  const sink = dest
    ? fs.createWriteStream(dest, { flags: 'wx' })
    : new Writable({
        write(chunk: Buffer, _encoding, callback) {
          size += chunk.length;
          if (size > MANIFEST_MAX_BYTES) return callback(new RestoreRefused(`${file} is not a Kingdom backup: its ${MANIFEST_ENTRY} is too large.`));
          chunks.push(chunk);
          callback();
        },
      });
  stream.on('data', (chunk: Buffer) => {
    crc = zlib.crc32(chunk, crc);
  });
  await pipeline(stream, sink);
  if (crc >>> 0 !== entry.crc32 >>> 0) throw new RestoreRefused(`${file} is damaged: ${entry.fileName} does not match its checksum.`);
  return dest ? null : Buffer.concat(chunks);
}

/** Unpacks the backup into `stage` (a new folder in DATA_DIR), refusing anything that is not a whole Kingdom backup. */
async function unpack(file: string, stage: string): Promise<BackupManifest> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(file, { lazyEntries: true, validateEntrySizes: true, strictFileNames: true });
  } catch (error) {
    throw new RestoreRefused(`${file} is not a Kingdom backup (it is not a whole zip archive: ${(error as Error).message}).`);
  }
  let manifest: BackupManifest | null = null;
  let database = false;
  try {
    fs.mkdirSync(path.join(stage, 'uploads'), { recursive: true });
    for await (const entry of zip.eachEntry()) {
      const name = entry.fileName;
      if (name === MANIFEST_ENTRY) {
        manifest = readManifest((await extract(zip, entry, null, file)) as Buffer, file);
      } else if (name === DATABASE_ENTRY) {
        await extract(zip, entry, path.join(stage, DB_FILE), file);
        database = true;
      } else if (name.startsWith(UPLOADS_PREFIX) && UPLOAD_NAME.test(name.slice(UPLOADS_PREFIX.length))) {
        await extract(zip, entry, path.join(stage, 'uploads', name.slice(UPLOADS_PREFIX.length)), file);
      } else if (name !== UPLOADS_PREFIX) {
        throw new RestoreRefused(`${file} is not a Kingdom backup: it holds ${JSON.stringify(name)}, which no backup holds.`);
      }
    }
  } catch (error) {
    if (error instanceof RestoreRefused) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new RestoreRefused(`${file} is not a Kingdom backup: it holds an entry twice.`);
    if (code === 'ENOSPC') throw new RestoreRefused(`There is no room left on the disk of ${stage} to unpack ${file}.`);
    throw new RestoreRefused(`${file} is damaged: ${(error as Error).message}.`);
  } finally {
    zip.close();
  }
  if (!manifest) throw new RestoreRefused(`${file} is not a Kingdom backup: it has no ${MANIFEST_ENTRY}.`);
  if (!database) throw new RestoreRefused(`${file} is not a Kingdom backup: it has no ${DATABASE_ENTRY}.`);
  return manifest;
}

/** SQLite's integrity check and the migrations of the unpacked database: refuses a damaged one, or one from a newer version. */
function checkDatabase(databaseFile: string, file: string): void {
  let db: SQLite.Database | null = null;
  try {
    db = new SQLite(databaseFile, { fileMustExist: true });
    const problems = (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check);
    if (problems.length !== 1 || problems[0] !== 'ok') throw new RestoreRefused(`${file} is damaged: SQLite's integrity check found ${problems.slice(0, 3).join('; ')}.`);
    const hasMigrations = db.prepare("select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'").get();
    if (!hasMigrations) throw new RestoreRefused(`${file} is not a Kingdom backup: its database has no migrations table.`);
    const names = (db.prepare('select name from kysely_migration order by name').all() as { name: string }[]).map((r) => r.name);
    const unknown = names.filter((name) => !(name in MIGRATIONS));
    if (unknown.length > 0) {
      throw new RestoreRefused(`${file} comes from a newer version of Kingdom (its database has the migration ${unknown[0]}, which this version does not know): restore it with that version.`);
    }
  } catch (error) {
    if (error instanceof RestoreRefused) throw error;
    throw new RestoreRefused(`${file} is damaged: its database cannot be read (${(error as Error).message}).`);
  } finally {
    db?.close();
  }
}

/**
 * `npm run admin -- restore FILE`, with the server stopped. Checks the copy before replacing
 * anything: a whole zip whose every entry matches its checksum, SQLite's integrity check, every
 * migration known to this version, then (migrated to this version, still aside in DATA_DIR) the
 * ledger check. Only then are DATA_DIR/kingdom.db and DATA_DIR/uploads set aside as
 * `kingdom.db.replaced-STAMP` and `uploads.replaced-STAMP` and the restored ones put in their place.
 * Throws RestoreRefused (a sentence; DATA_DIR as it was) for a damaged or foreign file, or while
 * the database is in use.
 */
export async function restoreBackup(dataDir: string, file: string, now: () => number = Date.now): Promise<RestoreResult> {
  const source = path.resolve(file);
  if (!fs.existsSync(source) || !fs.statSync(source).isFile()) throw new RestoreRefused(`${source} is not a file.`);
  fs.mkdirSync(dataDir, { recursive: true });
  const lock = lockDatabase(dataDir);
  const stage = path.join(dataDir, `.restore-${crypto.randomBytes(6).toString('hex')}`);
  try {
    const manifest = await unpack(source, stage);
    const staged = path.join(stage, DB_FILE);
    checkDatabase(staged, source);
    const db = await openDatabase(stage).catch((error: unknown) => {
      throw new RestoreRefused(`${source} cannot be brought to this version's schema: ${(error as Error).message}.`);
    });
    try {
      const ledger = await checkLedger(db);
      if (!ledger.ok) {
        const names = ledger.mismatches.slice(0, 3).map((m) => m.username).join(', ');
        throw new RestoreRefused(`${source} fails the ledger check: ${ledger.mismatches.length} account(s) whose balance or reserved points do not match their ledger (${names}).`);
      }
    } finally {
      await db.destroy();
    }
    // checked: now set the current data aside and put the restored data in its place
    const when = stamp(now());
    let keptDatabase: string | null = null;
    let keptUploads: string | null = null;
    const live = path.join(dataDir, DB_FILE);
    if (lock) {
      // the set-aside database is whole by itself: its write-ahead log folded in, then closed
      lock.pragma('wal_checkpoint(TRUNCATE)');
      lock.close();
      keptDatabase = `${live}.replaced-${when}`;
      fs.renameSync(live, keptDatabase);
      for (const suffix of ['-wal', '-shm']) fs.rmSync(live + suffix, { force: true });
    }
    fs.renameSync(staged, live);
    const uploads = uploadsDir(dataDir);
    if (fs.existsSync(uploads)) {
      keptUploads = `${uploads}.replaced-${when}`;
      fs.renameSync(uploads, keptUploads);
    }
    fs.renameSync(path.join(stage, 'uploads'), uploads);
    const dir = fs.openSync(dataDir, 'r');
    try {
      fs.fsyncSync(dir);
    } finally {
      fs.closeSync(dir);
    }
    return { takenAt: manifest.takenAt, uploads: fs.readdirSync(uploads).length, keptDatabase, keptUploads };
  } finally {
    if (lock?.open) lock.close();
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

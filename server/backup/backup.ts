import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import SQLite from 'better-sqlite3';
import yazl from 'yazl';
import { DB_FILE } from '../db/open';
import { UPLOAD_NAME, uploadsDir } from '../files/uploads';

/**
 * A backup is one zip file: `kingdom-backup.json` (what it is, when, by which version, the
 * migrations its database has), `kingdom.db` (a consistent copy of the SQLite database) and
 * `uploads/…` (the item images the server stores). Any zip tool opens it; `npm run admin --
 * restore` reads it back (server/backup/restore.ts).
 */
export const MANIFEST_ENTRY = 'kingdom-backup.json';
export const DATABASE_ENTRY = 'kingdom.db';
export const UPLOADS_PREFIX = 'uploads/';
export const BACKUP_FORMAT = 'kingdom-backup';
export const BACKUP_FORMAT_VERSION = 1;

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  /** When the database's snapshot was taken (epoch ms): everything committed before it is in the copy. */
  takenAt: number;
  appVersion: string;
  migrations: string[];
  uploads: number;
}

export interface BackupResult {
  file: string;
  bytes: number;
  takenAt: number;
  tookMs: number;
  uploads: number;
}

/** A backup that cannot be taken, said in a sentence (a missing database, a folder that is not there). */
export class BackupError extends Error {}

export interface BackupOptions {
  now?: () => number;
  /** Recorded as the server's scheduled backup (the dashboard tells them apart). */
  scheduled?: boolean;
  appVersion?: string;
  /** Tests: called once the zip is being written, before it is complete (to kill the process there). */
  onWriting?: () => void;
}

/** fsync a directory, so a rename in it survives a power loss (a no-op where directories cannot be opened). */
async function syncDir(dir: string): Promise<void> {
  let handle: fs.promises.FileHandle | null = null;
  try {
    handle = await fs.promises.open(dir, 'r');
    await handle.sync();
  } catch {
    // Windows cannot open a directory; its renames are durable enough for this
  } finally {
    await handle?.close();
  }
}

/**
 * Takes a backup of DATA_DIR's database and images into `file`, while the server runs and bids go
 * on. The database is copied with `VACUUM INTO` on a connection of its own: one read transaction,
 * so the copy is the database as it was at one instant (in WAL mode the server's writers are not
 * held up by it), compacted, and never restarted by the server's writes (SQLite's online backup API
 * starts over whenever another connection writes between its steps: under a steady stream of bids
 * a large copy might never finish). It holds the thread that runs it, so the server runs it in a
 * child process (server/backup/schedule.ts), the CLI in its own.
 *
 * The zip is written under a temporary name beside `file` (`.NAME.RANDOM.part`), fsynced, and only
 * then renamed to `file` and its directory fsynced: a backup killed at any moment leaves at most a
 * `.part` file, never a file under the backup's name that is not whole.
 */
export async function writeBackup(dataDir: string, file: string, options: BackupOptions = {}): Promise<BackupResult> {
  const now = options.now ?? Date.now;
  const target = path.resolve(file);
  const dir = path.dirname(target);
  const source = path.join(dataDir, DB_FILE);
  if (!fs.existsSync(source)) throw new BackupError(`There is no database to back up at ${source} (set DATA_DIR to the server's folder).`);
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new BackupError(`The folder ${dir} does not exist: create it first.`);
  if (fs.existsSync(target)) throw new BackupError(`${target} already exists: choose another name (a backup never overwrites a file).`);
  const started = now();
  const part = path.join(dir, `.${path.basename(target)}.${crypto.randomBytes(6).toString('hex')}.part`);
  const snapshot = `${part}-db`;
  const db = new SQLite(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    // the snapshot is a scratch file deleted below (the zip is what is made durable): with the
    // connection's synchronous FULL, VACUUM INTO would fsync all of it at once, a flush of the
    // whole database that the server's own commit fsyncs would queue behind
    db.pragma('synchronous = OFF');
    const takenAt = now();
    db.prepare('VACUUM INTO ?').run(snapshot);
    const migrations = readMigrations(snapshot);
    // images are written once under a new name and never changed: every image the snapshot names
    // was there before it was taken, so listing them now finds them all
    const images = listUploads(dataDir);
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      formatVersion: BACKUP_FORMAT_VERSION,
      takenAt,
      appVersion: options.appVersion ?? 'unknown',
      migrations,
      uploads: images.length,
    };
    const zip = new yazl.ZipFile();
    const mtime = new Date(takenAt);
    zip.addBuffer(Buffer.from(JSON.stringify(manifest, null, 2) + '\n'), MANIFEST_ENTRY, { mtime });
    // deflate runs in libuv's threads (node:zlib); at level 1 SQLite pages still shrink to about
    // half, for a fraction of level 6's CPU (which players' bids share on a small machine)
    zip.addFile(snapshot, DATABASE_ENTRY, { mtime, compress: true, compressionLevel: 1 });
    for (const name of images) zip.addFile(path.join(uploadsDir(dataDir), name), UPLOADS_PREFIX + name, { mtime, compress: false });
    zip.end();
    options.onWriting?.();
    // written in small synced steps, so the disk is never handed tens of MB at once (see pacedFile);
    // the last step's fsync puts the whole file on disk before it gets its name
    await pipeline(zip.outputStream, await pacedFile(part));
    await fs.promises.rename(part, target);
    await syncDir(dir);
    const bytes = (await fs.promises.stat(target)).size;
    const tookMs = Math.max(0, now() - started);
    recordBackup(db, { takenAt, file: target, bytes, tookMs, scheduled: options.scheduled ?? false });
    return { file: target, bytes, takenAt, tookMs, uploads: images.length };
  } finally {
    db.close();
    await fs.promises.rm(part, { force: true });
    await fs.promises.rm(snapshot, { force: true });
  }
}

/** How much of the zip is written between two fsyncs. */
const SYNC_EVERY_BYTES = 256 * 1024;

/**
 * A new file (`wx`) written in steps of SYNC_EVERY_BYTES (256 KB: 1 MB steps still doubled the p99 of bids meanwhile), each fsynced before the next is taken.
 * Left to the page cache, a 50 MB zip is flushed by one fsync at the end (or by the kernel's
 * writeback): the disk's queue then holds the whole file, and every commit the server fsyncs in
 * the meantime waits behind it (bid p99 ×6–11 during a backup). In steps, a commit waits behind
 * at most one step, and the backup goes at the disk's pace. The last step ends in an fsync of the
 * whole file.
 */
async function pacedFile(file: string): Promise<Writable> {
  const handle = await fs.promises.open(file, 'wx');
  let unsynced = 0;
  return new Writable({
    async write(chunk: Buffer, _encoding, done) {
      try {
        await handle.write(chunk);
        unsynced += chunk.length;
        if (unsynced >= SYNC_EVERY_BYTES) {
          unsynced = 0;
          await handle.datasync();
        }
        done();
      } catch (error) {
        done(error as Error);
      }
    },
    async final(done) {
      try {
        await handle.sync();
        await handle.close();
        done();
      } catch (error) {
        done(error as Error);
      }
    },
    async destroy(error, done) {
      await handle.close().catch(() => undefined);
      done(error);
    },
  });
}

/** The migrations a database has had, by name (Kysely's table); empty when it has none. */
export function readMigrations(databaseFile: string): string[] {
  const db = new SQLite(databaseFile, { readonly: true, fileMustExist: true });
  try {
    const table = db.prepare("select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'").get();
    if (!table) return [];
    return (db.prepare('select name from kysely_migration order by name').all() as { name: string }[]).map((r) => r.name);
  } finally {
    db.close();
  }
}

function listUploads(dataDir: string): string[] {
  try {
    return fs.readdirSync(uploadsDir(dataDir)).filter((name) => UPLOAD_NAME.test(name)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** Notes the finished backup in the live database (the Admin Dashboard reads it). */
function recordBackup(db: SQLite.Database, backup: { takenAt: number; file: string; bytes: number; tookMs: number; scheduled: boolean }): void {
  // a database not yet migrated by this version (its server is older) has no table for it: the backup stands
  if (!db.prepare("select 1 from sqlite_master where type = 'table' and name = 'backups'").get()) return;
  db.prepare('insert into backups (taken_at, file, bytes, took_ms, scheduled) values (?, ?, ?, ?, ?)').run(
    backup.takenAt,
    backup.file,
    backup.bytes,
    backup.tookMs,
    backup.scheduled ? 1 : 0,
  );
}

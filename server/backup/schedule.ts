import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Clock } from '../clock';
import type { BackupConfig } from '../config';
import { lowerPriority } from './priority';

const HOUR_MS = 3_600_000;
/** setTimeout's longest delay; a longer wait is taken in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** After a failed backup, the next try. */
const RETRY_MS = 10 * 60_000;

/** The scheduled backups' names: `kingdom-20261127-204500.zip` (UTC), so that names sort as times. */
const SCHEDULED_NAME = /^kingdom-(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})\.zip$/;

export function scheduledName(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `kingdom-${iso.slice(0, 10).replace(/-/g, '')}-${iso.slice(11, 19).replace(/:/g, '')}.zip`;
}

function timeOfName(name: string): number | null {
  const m = SCHEDULED_NAME.exec(name);
  return m ? Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]) : null;
}

/** The scheduled backups in `dir`, oldest first (other files are not ours and are left alone). */
export function scheduledBackups(dir: string): { name: string; at: number }[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return names
    .map((name) => ({ name, at: timeOfName(name) }))
    .filter((b): b is { name: string; at: number } => b.at !== null)
    .sort((a, b) => a.at - b.at);
}

/** Takes one backup of DATA_DIR into `file`. */
export type RunBackup = (file: string) => Promise<void>;

const CLI = fileURLToPath(new URL('../cli/admin.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The server's backup runs in a child process (`npm run admin -- backup FILE --scheduled`) at the
 * lowest CPU priority: VACUUM INTO and the zip hold the thread that runs them for seconds on a large
 * kingdom, and that must never be the thread answering bids.
 */
export function backupInChildProcess(dataDir: string): RunBackup {
  return (file) =>
    new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'backup', file, '--scheduled'], {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      // at once, so that its start too (loading the CLI) takes only the CPU the server leaves; the CLI
      // lowers all its threads again when the backup begins
      if (child.pid !== undefined) lowerPriority(child.pid);
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        if (stderr.length < 4000) stderr += chunk;
      });
      child.on('error', reject);
      child.on('exit', (code, signal) => {
        if (code === 0) resolve();
        else reject(new Error(`the backup process ended with ${signal ?? `code ${code}`}: ${stderr.trim()}`));
      });
    });
}

export interface BackupScheduleOptions {
  config: BackupConfig;
  now: Clock;
  run: RunBackup;
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/**
 * BACKUP_DIR, BACKUP_EVERY, BACKUP_KEEP: a backup into BACKUP_DIR whenever the newest one there is
 * BACKUP_EVERY hours old (at once when there is none), then the oldest scheduled ones removed so
 * that exactly BACKUP_KEEP remain. The folder is the schedule's memory: a restarted server waits
 * for the rest of the period. Only a SQLite server has one (config.ts refuses BACKUP_DIR with
 * DATABASE_URL), and SQLite has one server process.
 */
export class BackupSchedule {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<string | null> | null = null;
  private stopped = false;
  /** When this process last took a scheduled backup (a backup that left no file in the folder must not be retried at once). */
  private lastRunAt: number | null = null;

  constructor(private readonly opts: BackupScheduleOptions) {}

  private get everyMs(): number {
    return this.opts.config.everyHours * HOUR_MS;
  }

  /** When the next backup is due (epoch ms): the newest scheduled backup's time plus the period. */
  nextDueAt(): number {
    const newest = scheduledBackups(this.opts.config.dir).at(-1)?.at ?? null;
    const last = Math.max(newest ?? -Infinity, this.lastRunAt ?? -Infinity);
    return Number.isFinite(last) ? last + this.everyMs : this.opts.now();
  }

  /** Takes a backup if one is due, then keeps the newest BACKUP_KEEP; answers the new file, or null when none was due. */
  runIfDue(): Promise<string | null> {
    this.running ??= this.runOnce().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async runOnce(): Promise<string | null> {
    const now = this.opts.now();
    if (now < this.nextDueAt()) return null;
    const { dir, keep } = this.opts.config;
    await fs.promises.mkdir(dir, { recursive: true });
    const file = path.join(dir, scheduledName(now));
    await this.opts.run(file);
    this.lastRunAt = now;
    this.prune(keep);
    this.opts.log.info({ file }, 'scheduled backup written');
    return file;
  }

  /** Removes the oldest scheduled backups beyond `keep` (and nothing else in the folder). */
  prune(keep: number): void {
    const all = scheduledBackups(this.opts.config.dir);
    for (const old of all.slice(0, Math.max(0, all.length - keep))) fs.rmSync(path.join(this.opts.config.dir, old.name), { force: true });
  }

  start(): void {
    this.stopped = false;
    this.arm(Math.max(0, this.nextDueAt() - this.opts.now()));
  }

  private arm(delay: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.runIfDue().then(
        () => this.arm(Math.max(0, this.nextDueAt() - this.opts.now())),
        (error: unknown) => {
          this.opts.log.error({ err: error }, 'scheduled backup failed; trying again in 10 minutes');
          this.arm(RETRY_MS);
        },
      );
    }, Math.min(delay, MAX_TIMER_MS));
    this.timer.unref();
  }

  /** Stops the timer and waits for a backup under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }
}

import { execFileSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { writeBackup } from '../../server/backup/backup';
import { RestoreRefused, restoreBackup } from '../../server/backup/restore';
import { BACKUP_NICE, lowerPriority } from '../../server/backup/priority';
import { BackupSchedule, backupInChildProcess, scheduledBackups, scheduledName } from '../../server/backup/schedule';
import { ConfigError, loadConfig } from '../../server/config';
import { openDatabase } from '../../server/db/open';
import { checkLedger } from '../../server/points/ledger';
import { bidCreated, bidder, createItem, ManualClock, sendBid } from './auction-helpers';
import { call, signedIn, startTestServer } from './helpers';
import { onPostgres } from './test-database';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const temps: string[] = [];
function tempDir(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `kingdom-${name}-`));
  temps.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
});

/** A PNG's first bytes and some more: what the server stores under DATA_DIR/uploads. */
const IMAGE = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), crypto.randomBytes(3000)]);
const IMAGE_NAME = `${'ab'.repeat(16)}.png`;

/** `npm run admin -- …` as a real process over `dataDir`. */
function adminCli(dataDir: string, args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli/admin.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', BACKUP_DIR: '', BACKUP_EVERY: '', BACKUP_KEEP: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, output })),
  );
  return { child, exited };
}

/** Every file under `dir` with its SHA-256: what "changes nothing" compares. */
function treeOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    out[path.relative(dir, full)] = crypto.createHash('sha256').update(fs.readFileSync(full)).digest('hex');
  }
  return out;
}

/** A migrated database in a new DATA_DIR with one account whose ledger balances, and an image. */
async function dataDirWithData(): Promise<string> {
  const dataDir = tempDir('data');
  const db = await openDatabase(dataDir);
  const user = await db
    .insertInto('users')
    .values({ email: 'a@k.test', username: 'alice', playerid: '1234567', password_hash: 'x', balance: 500, created_at: 1 })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('points_transactions').values({ user_id: user.id, delta: 500, kind: 'grant', reason: 'r', actor_id: null, balance_after: 500, created_at: 1 }).execute();
  await db.destroy();
  fs.mkdirSync(path.join(dataDir, 'uploads'));
  fs.writeFileSync(path.join(dataDir, 'uploads', IMAGE_NAME), IMAGE);
  return dataDir;
}

/** A zip of `entries` (name → bytes) as a backup would be, for the forged and foreign files. */
async function zipOf(file: string, entries: Record<string, Buffer | string>): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const [name, bytes] of Object.entries(entries)) {
    if (typeof bytes === 'string') zip.addFile(bytes, name);
    else zip.addBuffer(bytes, name);
  }
  zip.end();
  await new Promise<void>((resolve, reject) => {
    zip.outputStream.pipe(fs.createWriteStream(file)).on('finish', resolve).on('error', reject);
  });
}

describe.skipIf(onPostgres)('backups of the SQLite database', () => {
  it('a backup taken by the CLI during a burst of bids restores to a database whose ledger check passes and holds every bid acknowledged before it began', { timeout: 60_000 }, async () => {
    const dataDir = tempDir('burst');
    const file = path.join(tempDir('out'), 'kingdom.zip');
    const server = await startTestServer({ dataDir });
    try {
      const admin = await signedIn(server, 'admin');
      const players = [await bidder(server, admin.token, 10_000_000), await bidder(server, admin.token, 10_000_000)];
      const item = await createItem(server, admin.token, { duration: 3_600, start_price: 100, minIncrement: 1 });
      fs.mkdirSync(path.join(dataDir, 'uploads'), { recursive: true });
      fs.writeFileSync(path.join(dataDir, 'uploads', IMAGE_NAME), IMAGE);

      // players bid one after the other, each bid once the one before is acknowledged, ~30 a second
      // (each account's frame budget is 20 a second)
      const acknowledged: string[] = [];
      let stop = false;
      let reached: () => void = () => undefined;
      const thirty = new Promise<void>((resolve) => (reached = resolve));
      const burst = (async () => {
        let amount = item.amount;
        for (let i = 0; !stop; i++) {
          const p = players[i % 2];
          amount += 1;
          const requestId = sendBid(p.auction, item.itemId, amount);
          await bidCreated(p.auction, item.itemId, amount, p.username, 10_000);
          acknowledged.push(requestId);
          if (acknowledged.length === 30) reached();
          await new Promise((resolve) => setTimeout(resolve, 30));
        }
      })();
      await thirty;
      const before = [...acknowledged];
      const backup = adminCli(dataDir, ['backup', file]);
      const done = await backup.exited;
      const during = acknowledged.length - before.length;
      stop = true;
      await burst;
      expect(done.code, done.output).toBe(0);
      expect(done.output).toMatch(/^Backup written to .*kingdom\.zip: [\d.]+ MB \(the database and 1 image\(s\)\)/);
      // bids went on while it ran
      expect(during).toBeGreaterThan(0);

      // the server still runs: a restore over its data is refused and changes nothing
      const tree = treeOf(path.join(dataDir, 'uploads'));
      await expect(restoreBackup(dataDir, file)).rejects.toThrow(/is in use: stop the server/);
      expect(treeOf(path.join(dataDir, 'uploads'))).toEqual(tree);

      // restored elsewhere: every bid acknowledged before the backup began, the books balanced, the image
      const elsewhere = tempDir('restored');
      const restored = await restoreBackup(elsewhere, file);
      expect(restored.keptDatabase).toBeNull();
      expect(fs.readFileSync(path.join(elsewhere, 'uploads', IMAGE_NAME))).toEqual(IMAGE);
      const db = await openDatabase(elsewhere);
      try {
        expect((await checkLedger(db)).ok).toBe(true);
        const stored = await db.selectFrom('bid_requests').select('request_id').where('bid_id', 'is not', null).execute();
        const ids = new Set(stored.map((r) => r.request_id));
        expect(before.filter((id) => !ids.has(id))).toEqual([]);
        expect(await db.selectFrom('backups').selectAll().execute()).toEqual([]); // the copy was taken before its own record
      } finally {
        await db.destroy();
      }

      // the dashboard names it
      const dashboard = await call(server, 'GET', '/admin/dashboard', { token: admin.token });
      const status = (dashboard.body.dashboard as { backup: { last: { bytes: number; scheduled: boolean } | null; everyHours: number | null; overdue: boolean } }).backup;
      expect(status).toEqual({ everyHours: null, keep: null, last: { takenAt: expect.any(Number), bytes: fs.statSync(file).size, scheduled: false }, overdue: false });
    } finally {
      await server.close();
    }

    // stopped: the CLI restores over the data and keeps what it replaced beside it
    const cli = await adminCli(dataDir, ['restore', file]).exited;
    expect(cli.code, cli.output).toBe(0);
    expect(cli.output).toMatch(/The database it replaced is kept as .*kingdom\.db\.replaced-\d{8}-\d{6}\./);
    expect(fs.readdirSync(dataDir).filter((name) => name.startsWith('kingdom.db.replaced-'))).toHaveLength(1);
  });

  it('a SIGKILL in the middle of a backup leaves no file under its name, only a temporary one a restore refuses', { timeout: 60_000 }, async () => {
    const dataDir = await dataDirWithData();
    // enough data that the backup takes a while: 30 MB of audit details
    const sqlite = new SQLite(path.join(dataDir, 'kingdom.db'));
    const insert = sqlite.prepare("insert into audit_log (at, actor_id, actor, action, target, detail) values (?, null, 'system', 'x', 'y', ?)");
    sqlite.transaction(() => {
      for (let i = 0; i < 15_000; i++) insert.run(i, crypto.randomBytes(1500).toString('base64'));
    })();
    sqlite.close();
    const out = tempDir('killed');
    const file = path.join(out, 'kingdom.zip');
    const backup = adminCli(dataDir, ['backup', file]);
    // killed as soon as the zip is being written (its temporary name appears)
    await new Promise<void>((resolve) => {
      const watcher = fs.watch(out, (_event, name) => {
        if (name && name.endsWith('.part')) {
          backup.child.kill('SIGKILL');
          watcher.close();
          resolve();
        }
      });
    });
    const ended = await backup.exited;
    expect(ended.signal).toBe('SIGKILL');
    const left = fs.readdirSync(out);
    expect(left).not.toContain('kingdom.zip');
    expect(left.length).toBeGreaterThan(0);
    for (const name of left) expect(name).toMatch(/^\.kingdom\.zip\.[0-9a-f]{12}\.part(-db)?$/);
    // what was left is no backup
    const target = tempDir('target');
    for (const name of left.filter((n) => n.endsWith('.part'))) {
      await expect(restoreBackup(target, path.join(out, name))).rejects.toBeInstanceOf(RestoreRefused);
    }
    expect(fs.readdirSync(target)).toEqual([]);
  });

  it('a restore of a damaged, foreign or newer file, or of one whose ledger does not balance, refuses with a sentence and changes nothing', { timeout: 60_000 }, async () => {
    const dataDir = await dataDirWithData();
    const out = tempDir('bad');
    const good = path.join(out, 'good.zip');
    await writeBackup(dataDir, good);
    const manifest = execFileSync('unzip', ['-p', good, 'kingdom-backup.json']).toString();
    const snapshot = path.join(out, 'snapshot.db');
    fs.writeFileSync(snapshot, execFileSync('unzip', ['-p', good, 'kingdom.db'], { maxBuffer: 1 << 30 }));

    const cases: [string, RegExp][] = [];
    // not a zip at all
    fs.writeFileSync(path.join(out, 'random.zip'), crypto.randomBytes(5000));
    cases.push(['random.zip', /is not a Kingdom backup \(it is not a whole zip archive/]);
    // a zip of something else
    await zipOf(path.join(out, 'foreign.zip'), { 'notes.txt': Buffer.from('hello') });
    cases.push(['foreign.zip', /is not a Kingdom backup: it holds "notes.txt"/]);
    // the backup cut short
    const bytes = fs.readFileSync(good);
    fs.writeFileSync(path.join(out, 'cut.zip'), bytes.subarray(0, Math.floor(bytes.length / 2)));
    cases.push(['cut.zip', /is not a Kingdom backup \(it is not a whole zip archive/]);
    // a byte in the middle of the zip changed (inside the database's deflated bytes)
    const damaged = Buffer.from(bytes);
    damaged[Math.floor(damaged.length / 2)] ^= 0xff;
    fs.writeFileSync(path.join(out, 'damaged.zip'), damaged);
    cases.push(['damaged.zip', /is damaged/]);
    // a SQLite file whose pages are damaged (a consistent checksum: the damage was there when it was zipped)
    const corrupt = Buffer.from(fs.readFileSync(snapshot));
    corrupt.fill(0x5a, 4096 + 20, 4096 + 400);
    await zipOf(path.join(out, 'corrupt.zip'), { 'kingdom-backup.json': Buffer.from(manifest), 'kingdom.db': corrupt });
    cases.push(['corrupt.zip', /is damaged/]);
    // a database from a newer version
    const newer = path.join(out, 'newer.db');
    fs.copyFileSync(snapshot, newer);
    const n = new SQLite(newer);
    n.prepare("insert into kysely_migration (name, timestamp) values ('9999_from_the_future', '2030-01-01')").run();
    n.close();
    await zipOf(path.join(out, 'newer.zip'), { 'kingdom-backup.json': Buffer.from(manifest), 'kingdom.db': newer });
    cases.push(['newer.zip', /comes from a newer version of Kingdom \(its database has the migration 9999_from_the_future/]);
    // a balance that is not the sum of its ledger
    const unbalanced = path.join(out, 'unbalanced.db');
    fs.copyFileSync(snapshot, unbalanced);
    const u = new SQLite(unbalanced);
    u.prepare("update users set balance = balance + 1 where username = 'alice'").run();
    u.close();
    await zipOf(path.join(out, 'unbalanced.zip'), { 'kingdom-backup.json': Buffer.from(manifest), 'kingdom.db': unbalanced });
    cases.push(['unbalanced.zip', /fails the ledger check: 1 account\(s\).*\(alice\)/]);
    // no manifest
    await zipOf(path.join(out, 'bare.zip'), { 'kingdom.db': snapshot });
    cases.push(['bare.zip', /has no kingdom-backup.json/]);

    const before = treeOf(dataDir);
    for (const [name, refusal] of cases) {
      await expect(restoreBackup(dataDir, path.join(out, name)), name).rejects.toThrow(refusal);
      expect(treeOf(dataDir), name).toEqual(before);
      expect(fs.readdirSync(dataDir).filter((f) => f.startsWith('.restore-')), name).toEqual([]);
    }
    // the CLI says it in a sentence, and that nothing changed
    const cli = adminCli(dataDir, ['restore', path.join(out, 'foreign.zip')]);
    const said = await cli.exited;
    expect(said.code).toBe(1);
    expect(said.output).toMatch(/is not a Kingdom backup: it holds "notes.txt", which no backup holds\.\nNothing was changed\./);
    expect(treeOf(dataDir)).toEqual(before);

    // and the good one restores, keeping what it replaced
    const restored = await restoreBackup(dataDir, good, () => Date.UTC(2026, 10, 27, 20, 45, 0));
    expect(restored.keptDatabase).toBe(path.join(dataDir, 'kingdom.db.replaced-20261127-204500'));
    expect(restored.keptUploads).toBe(path.join(dataDir, 'uploads.replaced-20261127-204500'));
    expect(fs.readFileSync(path.join(dataDir, 'uploads', IMAGE_NAME))).toEqual(IMAGE);
    const kept = new SQLite(restored.keptDatabase as string, { readonly: true });
    expect(kept.prepare('select username from users').all()).toEqual([{ username: 'alice' }]);
    kept.close();
  });

  it('scheduled backups: one a period by the injected clock, exactly BACKUP_KEEP kept, other files left alone', async () => {
    const dataDir = await dataDirWithData();
    const dir = path.join(tempDir('scheduled'), 'backups');
    const clock = new ManualClock();
    clock.t = Date.UTC(2026, 10, 27, 0, 0, 0);
    const logged: string[] = [];
    const schedule = new BackupSchedule({
      config: { dir, everyHours: 6, keep: 3 },
      now: clock.now,
      run: async (file) => {
        await writeBackup(dataDir, file, { now: clock.now, scheduled: true });
      },
      log: { info: (_o, msg) => logged.push(msg), error: (_o, msg) => logged.push(msg) },
    });
    expect(await schedule.runIfDue()).toBe(path.join(dir, 'kingdom-20261127-000000.zip'));
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'mine');
    // not due again within the period
    clock.advance(6 * 3_600_000 - 1);
    expect(await schedule.runIfDue()).toBeNull();
    clock.advance(1);
    for (let i = 0; i < 5; i++) {
      expect(await schedule.runIfDue()).not.toBeNull();
      clock.advance(6 * 3_600_000);
    }
    // six backups (27th 00:00 to 28th 06:00, every 6 hours): the newest three remain
    expect(scheduledBackups(dir).map((b) => b.name)).toEqual(['kingdom-20261127-180000.zip', 'kingdom-20261128-000000.zip', 'kingdom-20261128-060000.zip']);
    expect(fs.readdirSync(dir).sort()).toEqual(['kingdom-20261127-180000.zip', 'kingdom-20261128-000000.zip', 'kingdom-20261128-060000.zip', 'notes.txt']);
    expect(schedule.nextDueAt()).toBe(Date.UTC(2026, 10, 28, 12, 0, 0));
    expect(scheduledName(Date.UTC(2026, 0, 2, 3, 4, 5))).toBe('kingdom-20260102-030405.zip');
    // the dashboard's record says scheduled
    const db = new SQLite(path.join(dataDir, 'kingdom.db'), { readonly: true });
    expect(db.prepare('select count(*) as n, min(scheduled) as s from backups').get()).toEqual({ n: 6, s: 1 });
    db.close();
  });

  it('the server takes its scheduled backups by itself and the dashboard warns when the last is older than two periods', { timeout: 30_000 }, async () => {
    const clock = new ManualClock();
    const dir = tempDir('server-backups');
    const dataDir = tempDir('server-data');
    let taken: () => void = () => undefined;
    const first = new Promise<void>((resolve) => (taken = resolve));
    const server = await startTestServer(
      { dataDir, backup: { dir, everyHours: 1, keep: 2 } },
      {
        now: clock.now,
        runBackup: async (file) => {
          await writeBackup(dataDir, file, { now: clock.now, scheduled: true });
          taken();
        },
      },
    );
    try {
      const admin = await signedIn(server, 'admin');
      await first;
      const read = async () => (await call(server, 'GET', '/admin/dashboard', { token: admin.token })).body.dashboard as { backup: Record<string, unknown> };
      expect((await read()).backup).toMatchObject({ everyHours: 1, keep: 2, last: { scheduled: true }, overdue: false });
      clock.advance(2 * 3_600_000 + 1);
      expect((await read()).backup).toMatchObject({ overdue: true });
      const player = await signedIn(server, 'player');
      expect((await call(server, 'GET', '/admin/dashboard', { token: player.token })).status).toBe(403);
    } finally {
      await server.close();
    }
  });
});

/** The nice value of each thread of `pid`, from /proc (the field after the state, counted past the name's closing parenthesis). */
function threadNices(pid: number): number[] {
  return fs.readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

describe.skipIf(onPostgres || !fs.existsSync('/proc/self/task'))('a backup takes only the CPU the server leaves (Linux)', () => {
  it('every thread of a process is lowered to the backup priority, not its main thread alone', { timeout: 30_000 }, async () => {
    // a process with threads of its own before it is lowered: a worker (and V8's and libuv's threads)
    const child = spawn(process.execPath, ['-e', "const { Worker } = require('node:worker_threads'); new Worker('setInterval(() => {}, 1000)', { eval: true }).on('online', () => console.log('ready')); setInterval(() => {}, 1000);"], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      const pid = child.pid as number;
      expect(threadNices(pid).length).toBeGreaterThan(2);
      expect(lowerPriority(pid)).toBe(true);
      expect(new Set(threadNices(pid))).toEqual(new Set([BACKUP_NICE]));
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('the scheduled backup runs in a child process that writes a whole backup', { timeout: 60_000 }, async () => {
    const dataDir = tempDir('child-data');
    const db = await openDatabase(dataDir);
    await db.destroy();
    const file = path.join(tempDir('child-backups'), 'kingdom.zip');
    await backupInChildProcess(dataDir)(file);
    const restored = tempDir('child-restored');
    await expect(restoreBackup(restored, file)).resolves.toMatchObject({ uploads: 0 });
  });
});

describe('backup settings (BACKUP_DIR, BACKUP_EVERY, BACKUP_KEEP)', () => {
  it('are read with defaults, and refused with a sentence when wrong', () => {
    expect(loadConfig({}).backup).toBeNull();
    expect(loadConfig({ BACKUP_DIR: '/srv/b' }).backup).toEqual({ dir: path.resolve('/srv/b'), everyHours: 24, keep: 7 });
    expect(loadConfig({ BACKUP_DIR: '/srv/b', BACKUP_EVERY: '0.5', BACKUP_KEEP: '3' }).backup).toEqual({ dir: path.resolve('/srv/b'), everyHours: 0.5, keep: 3 });
    expect(() => loadConfig({ BACKUP_EVERY: '6' })).toThrow(new ConfigError('BACKUP_EVERY and BACKUP_KEEP need BACKUP_DIR, the folder the server writes its backups to.'));
    expect(() => loadConfig({ BACKUP_DIR: '/b', BACKUP_EVERY: 'daily' })).toThrow(/BACKUP_EVERY is the hours between two backups, a number from 0.01 to 8760 \(24: once a day\), not "daily"/);
    expect(() => loadConfig({ BACKUP_DIR: '/b', BACKUP_EVERY: '0' })).toThrow(/BACKUP_EVERY is the hours/);
    expect(() => loadConfig({ BACKUP_DIR: '/b', BACKUP_KEEP: '0' })).toThrow(/BACKUP_KEEP must be a whole number from 1, not "0"/);
    expect(() => loadConfig({ BACKUP_DIR: '/b', DATABASE_URL: 'postgres://k@h/k' })).toThrow(/on PostgreSQL \(DATABASE_URL\) back up with pg_dump/);
  });
});

/**
 * A throwaway PostgreSQL server for tests and benchmarks: `initdb` in a new temporary
 * directory, started with `pg_ctl` on a free port of 127.0.0.1, stopped and deleted by `stop()`.
 * Debian's `postgresql` package provides the programs (/usr/lib/postgresql/<version>/bin); `initdb`
 * refuses to run as root, so as root the cluster belongs to the `postgres` user.
 */
import { execFileSync, type ExecFileSyncOptions } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface PgCluster {
  /** postgres://postgres@127.0.0.1:<port>/ : add a database name. */
  baseUrl: string;
  port: number;
  dir: string;
  stop(): void;
}

export interface PgClusterOptions {
  /**
   * Tests trade durability for speed (fsync off); benchmarks keep PostgreSQL's defaults, which
   * flush every commit to disk as the server's SQLite does (synchronous = FULL).
   */
  durable?: boolean;
  maxConnections?: number;
}

/** The directory of Debian's PostgreSQL programs (the newest version installed), or null. */
export function findPgBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (fs.existsSync(root)) {
    const versions = fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, 'bin', 'pg_ctl'))).sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return path.join(root, versions[0], 'bin');
  }
  return null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function startPgCluster(options: PgClusterOptions = {}): Promise<PgCluster> {
  const bin = findPgBin();
  if (!bin) throw new Error("PostgreSQL is not installed: apt-get install postgresql (Debian's package gives /usr/lib/postgresql/<version>/bin).");
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kingdom-pg-'));
  const data = path.join(dir, 'data');
  if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
  const run = (program: string, args: string[], extra: ExecFileSyncOptions = {}) => {
    const exe = path.join(bin, program);
    const opts: ExecFileSyncOptions = { stdio: 'pipe', cwd: dir, ...extra };
    return asRoot ? execFileSync('runuser', ['-u', 'postgres', '--', exe, ...args], opts) : execFileSync(exe, args, opts);
  };
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8', '--no-instructions']);
  const port = await freePort();
  const settings = [
    `-c listen_addresses=127.0.0.1`,
    `-p ${port}`,
    `-k ${dir}`,
    `-c max_connections=${options.maxConnections ?? 200}`,
    ...(options.durable ? [] : ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off']),
  ];
  try {
    run('pg_ctl', ['-D', data, '-l', path.join(dir, 'log'), '-w', '-t', '60', '-o', settings.join(' '), 'start']);
  } catch (error) {
    const log = fs.existsSync(path.join(dir, 'log')) ? fs.readFileSync(path.join(dir, 'log'), 'utf8') : '';
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`PostgreSQL did not start: ${String(error)}\n${log}`);
  }
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  return { baseUrl: `postgres://postgres@127.0.0.1:${port}/`, port, dir, stop };
}

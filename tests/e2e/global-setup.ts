import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startPgCluster, type PgCluster } from '../../scripts/pg-cluster';
import { ADMIN, BASE_URL, PORTS } from './support';

/**
 * Starts the real server (built client, SQLite in a fresh temporary folder) on the test ports,
 * registers the first account (which becomes admin) and stops it all afterwards. Every test signs
 * up its own accounts from 127.0.0.1, so the sign-up limit per address is raised (SIGNUPS_PER_HOUR).
 * With E2E_POSTGRES=1 the server keeps its data in a throwaway PostgreSQL instead (started here,
 * stopped afterwards): the same browser tests on the other database.
 */
export default async function globalSetup() {
  const dataDir = mkdtempSync(join(tmpdir(), 'kingdom-e2e-'));
  let cluster: PgCluster | null = null;
  let databaseUrl = '';
  if (process.env.E2E_POSTGRES === '1') {
    cluster = await startPgCluster();
    const admin = new pg.Client({ connectionString: `${cluster.baseUrl}postgres` });
    await admin.connect();
    await admin.query('create database kingdom_e2e');
    await admin.end();
    databaseUrl = `${cluster.baseUrl}kingdom_e2e`;
  }
  const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, PORT: String(PORTS.http), AUCTION_PORT: String(PORTS.auction), USER_PORT: String(PORTS.user), DATA_DIR: dataDir, SIGNUPS_PER_HOUR: '100000', DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(`${BASE_URL}/openapi.json`)).ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline || server.exitCode !== null) {
      cluster?.stop();
      throw new Error('the server did not start for the browser tests');
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const res = await fetch(`${BASE_URL}/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  if ((await res.json()).status !== 'success') throw new Error('could not register the first (admin) account');

  return async () => {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
    cluster?.stop();
  };
}

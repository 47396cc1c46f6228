import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
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
 * stopped afterwards): the same browser tests on the other database. The server's Discord is a
 * stand-in (E2E_DISCORD_URL, see standInDiscord).
 */
export default async function globalSetup() {
  const dataDir = mkdtempSync(join(tmpdir(), 'kingdom-e2e-'));
  const discord = await standInDiscord();
  // the tests' workers inherit it: they tell the stand-in how to answer and read what it was sent
  process.env.E2E_DISCORD_URL = discord.origin;
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
    env: { ...process.env, PORT: String(PORTS.http), AUCTION_PORT: String(PORTS.auction), USER_PORT: String(PORTS.user), DATA_DIR: dataDir, SIGNUPS_PER_HOUR: '100000', DATABASE_URL: databaseUrl, DISCORD_API_URL: `${discord.origin}/api/v10` },
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
      discord.server.close();
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
    discord.server.closeAllConnections();
    discord.server.close();
  };
}

/**
 * A stand-in for Discord's webhooks: a POST to /api/webhooks/… is answered 200 with a message id,
 * or, after `POST /e2e/refuse`, 400 as Discord answers a body it will not take (until `POST
 * /e2e/accept`); `GET /e2e/posted` lists the posts it took.
 */
async function standInDiscord(): Promise<{ server: http.Server; origin: string }> {
  let refuse = false;
  const posted: unknown[] = [];
  const server = http.createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      const url = request.url ?? '';
      const json = (status: number, body: unknown) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (url === '/e2e/refuse' || url === '/e2e/accept') {
        refuse = url === '/e2e/refuse';
        return json(200, {});
      }
      if (url === '/e2e/posted') return json(200, posted);
      if (!url.startsWith('/api/webhooks/')) return json(404, { message: 'Unknown' });
      if (refuse) return json(400, { message: 'Invalid Form Body', code: 50035 });
      // a message with a card is multipart: its JSON is the payload_json part
      const multipart = /name="payload_json"\r\n(?:[^\r\n]+\r\n)*\r\n([\s\S]*?)\r\n--/.exec(text);
      posted.push(JSON.parse(multipart ? multipart[1] : text || '{}'));
      return json(200, { id: String(posted.length) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

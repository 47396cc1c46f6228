import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../server/app';
import { loadConfig, resolveConfig } from '../../server/config';
import { call, register, startTestServer } from './helpers';
import { onPostgres } from './test-database';

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 7331, auctionPort: 8081, userPort: 8082, dataDir: path.resolve('data'), tlsCert: null });
  });

  it('reads the environment', () => {
    const config = loadConfig({ PORT: '9000', AUCTION_PORT: '9001', USER_PORT: '9002', DATA_DIR: '/tmp/k', SENTRY_DSN: 'https://x@y/1' });
    expect(config).toMatchObject({ port: 9000, auctionPort: 9001, userPort: 9002, dataDir: '/tmp/k', sentryDsn: 'https://x@y/1' });
  });

  it('refuses a bad port, half a TLS pair, a short JWT_SECRET', () => {
    expect(() => loadConfig({ PORT: 'http' })).toThrow(/PORT must be a port number/);
    expect(() => loadConfig({ TLS_CERT: '/x.pem' })).toThrow(/TLS_CERT and TLS_KEY/);
    expect(() => resolveConfig({}, { JWT_SECRET: 'short' })).toThrow(/at least 32 characters/);
  });

  it('takes a PostgreSQL DATABASE_URL and refuses any other with a clear message', () => {
    expect(resolveConfig({}, { DATABASE_URL: 'postgres://kingdom@localhost/kingdom' }).databaseUrl).toBe('postgres://kingdom@localhost/kingdom');
    expect(resolveConfig({}, { DATABASE_URL: 'postgresql://localhost/kingdom' }).databaseUrl).toBe('postgresql://localhost/kingdom');
    expect(() => resolveConfig({}, { DATABASE_URL: 'mysql://localhost/kingdom' })).toThrow(/DATABASE_URL must be a PostgreSQL address/);
  });

  it('says which port is taken', async () => {
    const first = await startTestServer();
    const taken = Number(new URL(first.userUrl).port);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kingdom-port-'));
    await expect(
      startServer({ host: '127.0.0.1', port: 0, auctionPort: 0, userPort: taken, dataDir: dir, logLevel: 'silent', databaseUrl: null }),
    ).rejects.toThrow(`Port ${taken} (USER_PORT) is already in use`);
    await first.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('data directory', () => {
  it('keeps a random JWT secret (mode 600) and the accounts across restarts', async () => {
    const server = await startTestServer();
    const dataDir = server.config.dataDir;
    const secretFile = path.join(dataDir, 'jwt-secret');
    expect(fs.statSync(secretFile).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(secretFile, 'utf8').length).toBeGreaterThanOrEqual(32);
    // (on PostgreSQL the data is in the database, not in DATA_DIR)
    expect(fs.existsSync(path.join(dataDir, 'kingdom.db'))).toBe(!onPostgres);
    const account = await register(server);
    const login = await call(server, 'POST', '/auth/login', { body: { email: account.email, password: account.password } });
    const token = (login.body.token as { access_token: string }).access_token;

    // restart on the same DATA_DIR: the token still works
    const { close, ...rest } = server;
    void rest;
    const again = await startServer({ ...server.config, port: 0, auctionPort: 0, userPort: 0 });
    try {
      const me = await call(again, 'POST', '/auth/me', { token });
      expect(me.status).toBe(200);
      expect((me.body.user as { email: string }).email).toBe(account.email);
    } finally {
      await again.close();
      await close();
    }
  });
});

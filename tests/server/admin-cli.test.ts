import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAdminArgs, runAdminCli, UsageError } from '../../server/cli/admin';
import { call, signedIn, startTestServer } from './helpers';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) }, out, err };
}

describe('parseAdminArgs', () => {
  it('reads rank EMAIL RANK, lowercasing the email', () => {
    expect(parseAdminArgs(['rank', 'Boss@Example.com', 'council'])).toEqual({ kind: 'rank', email: 'boss@example.com', rank: 'council' });
    expect(parseAdminArgs(['--help'])).toEqual({ kind: 'help' });
  });

  it.each([
    [[], /Missing command/],
    [['promote', 'a@b.c', 'admin'], /Unknown command "promote"/],
    [['rank', 'a@b.c'], /an email and a rank/],
    [['rank', 'a@b.c', 'admin', 'extra'], /an email and a rank/],
    [['rank', 'a@b.c', 'king'], /"king" is not a rank/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseAdminArgs(argv)).toThrow(UsageError);
    expect(() => parseAdminArgs(argv)).toThrow(message);
  });
});

describe('runAdminCli', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('sets the rank of an account in the running server’s database', async () => {
    await signedIn(server); // the first account, admin
    const account = await signedIn(server);
    const { io, out } = capture();
    const code = await runAdminCli(['rank', account.email.toUpperCase(), 'council'], server.config.dataDir, io);
    expect(code).toBe(0);
    expect(out.join('\n')).toContain(`${account.username} <${account.email}>: rank user → council`);
    const me = await call(server, 'POST', '/auth/me', { token: account.token });
    expect((me.body.user as { rank: string }).rank).toBe('council');
  });

  it('exits 1 with a clear message for an unknown email', async () => {
    const { io, err } = capture();
    expect(await runAdminCli(['rank', 'ghost@example.com', 'admin'], server.config.dataDir, io)).toBe(1);
    expect(err.join('\n')).toContain('No account has the email ghost@example.com');
  });

  it('exits 2 and prints the usage for bad usage or an invalid rank', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kingdom-cli-'));
    for (const argv of [[], ['rank', 'a@b.c', 'king']]) {
      const { io, err } = capture();
      expect(await runAdminCli(argv, dir, io)).toBe(2);
      expect(err.join('\n')).toContain('Usage: npm run admin -- rank EMAIL RANK');
    }
    expect(fs.existsSync(path.join(dir, 'kingdom.db'))).toBe(false);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

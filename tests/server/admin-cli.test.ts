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

  it('reads group add|remove EMAIL GROUP', () => {
    expect(parseAdminArgs(['group', 'add', 'Boss@Example.com', ' Vanguard '])).toEqual({ kind: 'group', action: 'add', email: 'boss@example.com', group: 'Vanguard' });
    expect(parseAdminArgs(['group', 'remove', 'a@b.c', 'Vanguard'])).toEqual({ kind: 'group', action: 'remove', email: 'a@b.c', group: 'Vanguard' });
  });

  it.each([
    [[], /Missing command/],
    [['promote', 'a@b.c', 'admin'], /Unknown command "promote"/],
    [['discord', 'install'], /discord register/],
    [['rank', 'a@b.c'], /an email and a rank/],
    [['rank', 'a@b.c', 'admin', 'extra'], /an email and a rank/],
    [['rank', 'a@b.c', 'king'], /"king" is not a rank/],
    [['group'], /group add EMAIL GROUP/],
    [['group', 'join', 'a@b.c', 'x'], /group add EMAIL GROUP/],
    [['group', 'add', 'a@b.c'], /an email and a group name/],
    [['group', 'remove', 'a@b.c', 'x', 'y'], /an email and a group name/],
    [['group', 'add', 'a@b.c', '   '], /1 to 50 characters/],
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
    const code = await runAdminCli(['rank', account.email.toUpperCase(), 'council'], server.config.dataDir, io, server.config.databaseUrl);
    expect(code).toBe(0);
    expect(out.join('\n')).toContain(`${account.username} <${account.email}>: rank user → council`);
    const me = await call(server, 'POST', '/auth/me', { token: account.token });
    expect((me.body.user as { rank: string }).rank).toBe('council');
  });

  it('puts an account in a group (names without regard to case) and takes it out again', async () => {
    const account = await signedIn(server);
    const groupsOf = async () =>
      (
        await server.db
          .selectFrom('user_groups as ug')
          .innerJoin('groups as g', 'g.id', 'ug.group_id')
          .innerJoin('users as u', 'u.id', 'ug.user_id')
          .select('g.name')
          .where('u.email', '=', account.email)
          .execute()
      ).map((r) => r.name);

    let run = capture();
    expect(await runAdminCli(['group', 'add', account.email, 'Vanguard'], server.config.dataDir, run.io, server.config.databaseUrl)).toBe(0);
    expect(run.out.join('\n')).toContain(`${account.username} <${account.email}> is now in the group Vanguard.`);
    expect(await groupsOf()).toEqual(['Vanguard']);

    run = capture();
    expect(await runAdminCli(['group', 'add', account.email, 'vanguard'], server.config.dataDir, run.io, server.config.databaseUrl)).toBe(0);
    expect(run.out.join('\n')).toContain('already in the group vanguard; nothing changed.');
    expect(await groupsOf()).toEqual(['Vanguard']);

    run = capture();
    expect(await runAdminCli(['group', 'remove', account.email, 'VANGUARD'], server.config.dataDir, run.io, server.config.databaseUrl)).toBe(0);
    expect(run.out.join('\n')).toContain('is no longer in the group VANGUARD.');
    expect(await groupsOf()).toEqual([]);

    run = capture();
    expect(await runAdminCli(['group', 'remove', account.email, 'Vanguard'], server.config.dataDir, run.io, server.config.databaseUrl)).toBe(0);
    expect(run.out.join('\n')).toContain('is not in the group Vanguard; nothing changed.');

    run = capture();
    expect(await runAdminCli(['group', 'add', 'ghost@example.com', 'Vanguard'], server.config.dataDir, run.io, server.config.databaseUrl)).toBe(1);
    expect(run.err.join('\n')).toContain('No account has the email ghost@example.com');
  });

  it('exits 1 with a clear message for an unknown email', async () => {
    const { io, err } = capture();
    expect(await runAdminCli(['rank', 'ghost@example.com', 'admin'], server.config.dataDir, io, server.config.databaseUrl)).toBe(1);
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

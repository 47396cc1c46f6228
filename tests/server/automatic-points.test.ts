import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alreadyAppliedText, RULE_ERRORS, rulePreview, type Award, type RulePreview, type Unlinked } from '../../src/protocol/automatic-points';
import { startServer } from '../../server/app';
import { ephemeralConfig } from '../../server/config';
import { expectBooksBalance } from './auction-helpers';
import { authedSocket, call, leadershipServer, login, newAccount, register, signedIn, startTestServer } from './helpers';
import * as m0013 from '../../server/db/migrations/0013_run_scan_times';
import { importScan, type FileGovernor } from './scan-files';
import { failInserts } from './test-database';

let server: Awaited<ReturnType<typeof leadershipServer>>['server'];
let admin: Awaited<ReturnType<typeof leadershipServer>>['admin'];
let council: Awaited<ReturnType<typeof leadershipServer>>['council'];

beforeAll(async () => {
  ({ server, admin, council } = await leadershipServer());
});
afterAll(() => server.close());

let nextId = 70_000_000;
let nextDay = 1;
/** A scan taken a day after the last one. */
const scanAt = (governors: FileGovernor[]) => importScan(server, admin.token, Date.UTC(2026, 2, nextDay++), governors);

const rule = (body: Record<string, unknown>, token = council.token) => call(server, 'POST', '/points/rules', { token, body });
const preview = (ruleId: number, fromScanId: number, toScanId: number, token = council.token) => call(server, 'POST', `/points/rules/${ruleId}/preview`, { token, body: { fromScanId, toScanId } });
const apply = (ruleId: number, token: string, who = council.token) => call(server, 'POST', `/points/rules/${ruleId}/apply`, { token: who, body: { token } });
const balanceOf = async (username: string) => (await server.db.selectFrom('users').select('balance').where('username', '=', username).executeTakeFirstOrThrow()).balance;
const automaticEntries = async () => Number((await server.db.selectFrom('points_transactions').select((eb) => eb.fn.countAll<number>().as('n')).where('kind', '=', 'automatic').executeTakeFirstOrThrow()).n);

/** A player whose sign-up claims a fresh governor id (a claim, not verified). */
async function claimant() {
  const governorId = nextId++;
  const account = await register(server, { ...newAccount('claim'), playerid: String(governorId) });
  return { ...account, governorId, token: await login(server, account.email) };
}

describe('rules: bad input gets a clear error and changes nothing', () => {
  it.each([
    [{ name: 'Zero', stat: 'killpoints', per: 1000, points: 0 }, RULE_ERRORS.points],
    [{ name: 'Per zero', stat: 'killpoints', per: 0, points: 5 }, RULE_ERRORS.per],
    [{ name: 'Per below', stat: 'killpoints', per: -10, points: 5 }, RULE_ERRORS.per],
    [{ name: 'Fraction', stat: 'killpoints', per: 1.5, points: 5 }, RULE_ERRORS.per],
    [{ name: 'Stat', stat: 'power', per: 1, points: 5 }, RULE_ERRORS.stat],
    [{ name: 'Stat', stat: 'nonsense', per: 1, points: 5 }, RULE_ERRORS.stat],
    [{ name: 'Cap', stat: 'killpoints', per: 1, points: 5, cap: -1 }, RULE_ERRORS.cap],
    [{ name: '  ', stat: 'killpoints', per: 1, points: 5 }, RULE_ERRORS.name],
    [{ name: 'DKP', stat: 'dkp', per: 1, points: 5 }, RULE_ERRORS.seasonRequired],
    [{ name: 'DKP', stat: 'dkp', per: 1, points: 5, seasonId: 424242 }, RULE_ERRORS.unknownSeason],
    [{ name: 'Season', stat: 'deads', per: 1, points: 5, seasonId: 1 }, RULE_ERRORS.seasonNotDkp],
    [{ name: 'Auto', stat: 'deads', per: 1, points: 5, auto: 'yes' }, RULE_ERRORS.auto],
  ])('%j → %s', async (body, error) => {
    const before = await call(server, 'GET', '/points/rules', { token: council.token });
    const answer = await rule(body);
    expect(answer).toMatchObject({ status: 400, body: { result: false, error } });
    const after = await call(server, 'GET', '/points/rules', { token: council.token });
    expect(after.body.rules).toEqual(before.body.rules);
  });

  it('the runs page and a rule id in the path are checked, with their texts', async () => {
    for (const page of ['0', '-1', '1.5', 'x', '1000001']) {
      expect(await call(server, 'GET', `/points/runs?page=${page}`, { token: council.token }), page).toMatchObject({ status: 400, body: { result: false, error: RULE_ERRORS.badPage } });
    }
    expect(await call(server, 'GET', '/points/runs?page=', { token: council.token })).toMatchObject({ status: 200, body: { result: true, page: 1 } });
    expect(await call(server, 'DELETE', '/points/rules/abc', { token: council.token })).toMatchObject({ status: 400, body: { result: false, error: RULE_ERRORS.badRuleId } });
  });

  it('an edit with bad input changes nothing either; the stat may be named as the database does (t4_kills)', async () => {
    const created = await rule({ name: 'T4', stat: 't4_kills', per: 100, points: 1 });
    expect(created.status, created.text).toBe(200);
    expect(created.body.rule).toMatchObject({ name: 'T4', stat: 't4Kills', per: 100, points: 1, cap: null, auto: false, seasonId: null, updatedBy: council.username });
    const id = (created.body.rule as { id: number }).id;
    const bad = await call(server, 'PUT', `/points/rules/${id}`, { token: council.token, body: { name: 'T4', stat: 't4Kills', per: 100, points: 0 } });
    expect(bad).toMatchObject({ status: 400, body: { error: RULE_ERRORS.points } });
    const list = await call(server, 'GET', '/points/rules', { token: council.token });
    expect((list.body.rules as { id: number; points: number }[]).find((r) => r.id === id)?.points).toBe(1);
    expect((await call(server, 'PUT', '/points/rules/999999', { token: council.token, body: { name: 'x', stat: 'deads', per: 1, points: 1 } })).status).toBe(404);
    expect((await call(server, 'DELETE', '/points/rules/abc', { token: council.token })).body).toMatchObject({ error: RULE_ERRORS.badRuleId });
  });

  it('create, edit and delete are in the audit log', async () => {
    const created = await rule({ name: 'Audited', stat: 'helps', per: 10, points: 1 });
    const id = (created.body.rule as { id: number }).id;
    await call(server, 'PUT', `/points/rules/${id}`, { token: council.token, body: { name: 'Audited', stat: 'helps', per: 10, points: 2, cap: 50 } });
    expect((await call(server, 'DELETE', `/points/rules/${id}`, { token: council.token })).status).toBe(200);
    const entries = await server.db.selectFrom('audit_log').selectAll().where('target', '=', `rule #${id} "Audited"`).orderBy('id').execute();
    expect(entries.map((e) => [e.action, e.actor])).toEqual([
      ['rule.create', council.username],
      ['rule.edit', council.username],
      ['rule.delete', council.username],
    ]);
    expect(JSON.parse(entries[1].detail)).toEqual({ points: { from: 1, to: 2 }, cap: { from: null, to: 50 } });
    // deleted: gone from the list, no longer previewed
    const list = await call(server, 'GET', '/points/rules', { token: council.token });
    expect((list.body.rules as { id: number }[]).some((r) => r.id === id)).toBe(false);
  });
});

describe('a run: preview, then apply', () => {
  it('pays floor(gain / per) × points, capped per governor, to the linked account; governors without one listed apart', async () => {
    const a = await claimant(); // its sign-up claim, not verified
    const b = await claimant();
    const farmId = nextId++;
    // an admin links a farm to b, verified
    expect((await call(server, 'PUT', `/player-ids/${farmId}`, { token: admin.token, body: { username: b.username, verified: true } })).status).toBe(200);
    const strangerId = nextId++;
    const smallId = nextId++;
    const downId = nextId++;
    const newId = nextId++;
    const from = await scanAt([
      { id: a.governorId, killpoints: 10_000_000 },
      { id: b.governorId, killpoints: 50_000_000 },
      { id: farmId, killpoints: 1_000_000 },
      { id: strangerId, name: 'Stranger', killpoints: 2_000_000 },
      { id: smallId, killpoints: 5_000_000 },
      { id: downId, killpoints: 9_000_000 },
    ]);
    const to = await scanAt([
      { id: a.governorId, killpoints: 13_456_789 }, // +3,456,789 → 3 × 10 = 30
      { id: b.governorId, killpoints: 90_000_000 }, // +40,000,000 → 400, capped at 250
      { id: farmId, killpoints: 3_999_999 }, // +2,999,999 → 2 × 10 = 20
      { id: strangerId, name: 'Stranger', killpoints: 4_500_000 }, // +2,500,000 → 20, no account
      { id: smallId, killpoints: 5_999_999 }, // +999,999 → 0: not listed
      { id: downId, killpoints: 8_000_000 }, // went down (a misread): nothing
      { id: newId, killpoints: 99_000_000 }, // arrived: no gain to measure
    ]);
    const created = await rule({ name: 'Kill points', stat: 'killpoints', per: 1_000_000, points: 10, cap: 250 });
    const ruleId = (created.body.rule as { id: number }).id;
    const shown = await preview(ruleId, from.id, to.id);
    expect(shown.status, shown.text).toBe(200);
    expect(rulePreview.safeParse(shown.body.preview).success).toBe(true);
    const p = shown.body.preview as RulePreview;
    expect(p.awards.map((w: Award) => [w.username, w.governorId, w.gain, w.points, w.verified])).toEqual([
      [b.username, b.governorId, 40_000_000, 250, false],
      [a.username, a.governorId, 3_456_789, 30, false],
      [b.username, farmId, 2_999_999, 20, true],
    ]);
    expect(p.unlinked.map((u: Unlinked) => [u.governorId, u.name, u.gain, u.points])).toEqual([[strangerId, 'Stranger', 2_500_000, 20]]);
    expect(p).toMatchObject({ total: 300, unlinkedTotal: 20, overlaps: [], fromScanId: from.id, toScanId: to.id });
    // nothing booked by a preview
    expect(await balanceOf(a.username)).toBe(0);

    // the player hears their new balance on their open socket
    const socket = await authedSocket(server.userUrl, a.token);
    socket.send({ type: 'GET_STATUS' });
    await socket.nextOf('STATUS');
    const applied = await apply(ruleId, p.token);
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body.run).toMatchObject({ entries: 3, total: 300 });
    expect(await socket.nextOf('VIRTUAL_BALANCE_UPDATE')).toEqual({ type: 'VIRTUAL_BALANCE_UPDATE', data: { balance: 30, reserved: 0, available: 30 } });
    socket.close();
    expect(await balanceOf(a.username)).toBe(30);
    expect(await balanceOf(b.username)).toBe(270);
    // each player has one notice of the award, with their own sum
    await server.reactions.idle();
    const notices = await server.db.selectFrom('notices as n').innerJoin('users as u', 'u.id', 'n.user_id').select(['u.username', 'n.kind', 'n.amount']).where('u.username', 'in', [a.username, b.username]).orderBy('n.amount').execute();
    expect(notices).toEqual([{ username: a.username, kind: 'automatic', amount: 30 }, { username: b.username, kind: 'automatic', amount: 270 }]);

    // ledger entries of kind automatic naming the rule and the scans
    const ledger = await call(server, 'GET', `/points/transactions?username=${b.username}&kind=automatic`, { token: council.token });
    expect((ledger.body.transactions as { delta: number; reason: string; actor: string }[]).map((t) => [t.delta, t.reason, t.actor])).toEqual([
      [20, `Automatic points: rule #${ruleId} "Kill points", scans #${from.id} → #${to.id}, governor ${farmId}`, council.username],
      [250, `Automatic points: rule #${ruleId} "Kill points", scans #${from.id} → #${to.id}, governor ${b.governorId}`, council.username],
    ]);
    const audit = await server.db.selectFrom('audit_log').selectAll().where('action', '=', 'rule.apply').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(JSON.parse(audit.detail)).toMatchObject({ run: (applied.body.run as { id: number }).id, fromScanId: from.id, toScanId: to.id, entries: 3, total: 300, auto: false });

    // a second preview of the same run is refused, naming it
    const again = await preview(ruleId, from.id, to.id);
    expect(again).toMatchObject({ status: 409, body: { error: alreadyAppliedText((applied.body.run as { id: number }).id) } });
    await expectBooksBalance(server.db);
  });

  it('warns of an overlap with a run already paid, even after a scan of that run was deleted and imported again', async () => {
    const a = await claimant();
    const first = { id: a.governorId, killpoints: 1_000_000 };
    const fromAt = Date.UTC(2026, 2, nextDay++);
    const from = await importScan(server, admin.token, fromAt, [first]);
    const to = await scanAt([{ id: a.governorId, killpoints: 3_000_000 }]);
    const ruleId = ((await rule({ name: 'Overlap', stat: 'killpoints', per: 1_000_000, points: 10 })).body.rule as { id: number }).id;
    const paid = await apply(ruleId, ((await preview(ruleId, from.id, to.id)).body.preview as RulePreview).token);
    expect(paid.status, paid.text).toBe(200);
    const runId = (paid.body.run as { id: number }).id;

    // the run's first scan goes, and the same governors come back as a new scan taken at the same time
    expect((await call(server, 'DELETE', `/scans/${from.id}`, { token: admin.token })).status).toBe(200);
    const again = await importScan(server, admin.token, fromAt, [first]);
    expect(again.id).not.toBe(from.id);
    const shown = await preview(ruleId, again.id, to.id);
    expect(shown.status, shown.text).toBe(200);
    // the same gain: the preview says it was paid by the earlier run
    expect((shown.body.preview as RulePreview).overlaps).toEqual([{ id: runId, fromScanId: from.id, toScanId: to.id }]);
    expect(await balanceOf(a.username)).toBe(20);
  });

  it('pays a season’s DKP over the two scans, weighted by the season’s weights', async () => {
    const a = await claimant();
    const from = await scanAt([{ id: a.governorId, t4Kills: 1_000, t5Kills: 500, deads: 200 }]);
    const to = await scanAt([{ id: a.governorId, t4Kills: 3_500, t5Kills: 800, deads: 1_200 }]);
    const now = Date.now();
    const { id: seasonId } = await server.db
      .insertInto('kvk_seasons')
      .values({ name: 'KvK 3', start_scan_id: from.id, end_scan_id: null, weights: JSON.stringify({ t4Kills: 4, t5Kills: 10, deads: 15 }), brackets: '[]', created_at: now, updated_at: now, updated_by: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    // DKP = 2,500 × 4 + 300 × 10 + 1,000 × 15 = 28,000 → floor(28,000 / 1,000) × 3 = 84
    const created = await rule({ name: 'DKP', stat: 'dkp', seasonId, per: 1_000, points: 3 });
    expect(created.body.rule).toMatchObject({ stat: 'dkp', seasonId, seasonName: 'KvK 3' });
    const shown = await preview((created.body.rule as { id: number }).id, from.id, to.id);
    expect((shown.body.preview as RulePreview).awards).toEqual([{ username: a.username, governorId: a.governorId, name: `Gov ${a.governorId}`, gain: 28_000, points: 84, verified: false }]);
  });

  it('refuses to pay a preview whose scan was deleted or replaced since (409), paying nothing', async () => {
    const a = await claimant();
    const from = await scanAt([{ id: a.governorId, helps: 10 }]);
    const to = await scanAt([{ id: a.governorId, helps: 1_010 }]);
    const ruleId = ((await rule({ name: 'Helps deleted', stat: 'helps', per: 10, points: 1 })).body.rule as { id: number }).id;
    const deleted = ((await preview(ruleId, from.id, to.id)).body.preview as RulePreview).token;
    const replaced = ((await preview(ruleId, from.id, to.id)).body.preview as RulePreview).token;
    const before = await balanceOf(a.username);
    expect((await call(server, 'DELETE', `/scans/${to.id}`, { token: admin.token })).status).toBe(200);
    expect(await apply(ruleId, deleted)).toMatchObject({ status: 409, body: { error: RULE_ERRORS.scanChanged } });
    // another import in its place (the latest scan's id may be given again): still not the previewed scan
    await scanAt([{ id: a.governorId, helps: 5_010 }]);
    expect(await apply(ruleId, replaced)).toMatchObject({ status: 409, body: { error: RULE_ERRORS.scanChanged } });
    expect(await balanceOf(a.username)).toBe(before);
    expect(await server.db.selectFrom('points_runs').select('id').where('rule_id', '=', ruleId).execute()).toEqual([]);
  });

  it('refuses scans in the wrong order, the same scan twice, an unknown scan, and another account’s preview', async () => {
    const a = await claimant();
    const from = await scanAt([{ id: a.governorId, helps: 10 }]);
    const to = await scanAt([{ id: a.governorId, helps: 110 }]);
    const ruleId = ((await rule({ name: 'Helps', stat: 'helps', per: 10, points: 1 })).body.rule as { id: number }).id;
    expect(await preview(ruleId, to.id, from.id)).toMatchObject({ status: 400, body: { error: RULE_ERRORS.fromAfterTo } });
    expect(await preview(ruleId, to.id, to.id)).toMatchObject({ status: 400, body: { error: RULE_ERRORS.sameScan } });
    expect(await preview(ruleId, from.id, 999_999)).toMatchObject({ status: 404, body: { error: RULE_ERRORS.unknownScan } });
    expect(await preview(999_999, from.id, to.id)).toMatchObject({ status: 404, body: { error: RULE_ERRORS.unknownRule } });
    const mine = await preview(ruleId, from.id, to.id);
    const token = (mine.body.preview as RulePreview).token;
    // previews belong to their user
    expect(await apply(ruleId, token, admin.token)).toMatchObject({ status: 400, body: { error: RULE_ERRORS.tokenUnknown } });
    // an edit since the preview: preview again
    await call(server, 'PUT', `/points/rules/${ruleId}`, { token: council.token, body: { name: 'Helps', stat: 'helps', per: 10, points: 2 } });
    expect(await apply(ruleId, token)).toMatchObject({ status: 409, body: { error: RULE_ERRORS.ruleChanged } });
    expect(await balanceOf(a.username)).toBe(0);
    const fresh = await preview(ruleId, from.id, to.id);
    expect((fresh.body.preview as RulePreview).total).toBe(20);
  });
});

describe('one rule over one pair of scans applies at most once, ever', () => {
  it('applied twice at the same moment (two previews, and one token twice): once', async () => {
    const a = await claimant();
    const from = await scanAt([{ id: a.governorId, deads: 100 }]);
    const to = await scanAt([{ id: a.governorId, deads: 600 }]);
    const ruleId = ((await rule({ name: 'Deads', stat: 'deads', per: 100, points: 7 })).body.rule as { id: number }).id;
    const first = (await preview(ruleId, from.id, to.id)).body.preview as RulePreview;
    const second = (await preview(ruleId, from.id, to.id, admin.token)).body.preview as RulePreview;
    const before = await automaticEntries();
    const answers = await Promise.all([apply(ruleId, first.token), apply(ruleId, second.token, admin.token), apply(ruleId, first.token)]);
    expect(answers.map((x) => x.status).sort()).toEqual([200, 409, 409]);
    expect(await automaticEntries()).toBe(before + 1);
    expect(await balanceOf(a.username)).toBe(35);
    const runs = await server.db.selectFrom('points_runs').selectAll().where('rule_id', '=', ruleId).execute();
    expect(runs).toHaveLength(1);
  });

  it('governors without accounts only: nothing to apply, and nothing recorded', async () => {
    const from = await scanAt([{ id: nextId, helps: 0 }]);
    const to = await scanAt([{ id: nextId++, helps: 500 }]);
    const ruleId = ((await rule({ name: 'Nobody', stat: 'helps', per: 1, points: 1 })).body.rule as { id: number }).id;
    const p = (await preview(ruleId, from.id, to.id)).body.preview as RulePreview;
    expect(p.awards).toEqual([]);
    expect(p.unlinked).toHaveLength(1);
    expect(await apply(ruleId, p.token)).toMatchObject({ status: 400, body: { error: RULE_ERRORS.nothingToApply } });
    expect(await server.db.selectFrom('points_runs').selectAll().where('rule_id', '=', ruleId).execute()).toEqual([]);
  });

  it('a run that fails part-way books nothing, and the retry applies once', async () => {
    const a = await claimant();
    const b = await claimant();
    const from = await scanAt([
      { id: a.governorId, rssAssistance: 0 },
      { id: b.governorId, rssAssistance: 0 },
    ]);
    const to = await scanAt([
      { id: a.governorId, rssAssistance: 3_000_000 },
      { id: b.governorId, rssAssistance: 1_000_000 },
    ]);
    const ruleId = ((await rule({ name: 'Assist', stat: 'rss_assistance', per: 1_000_000, points: 5 })).body.rule as { id: number }).id;
    const p = (await preview(ruleId, from.id, to.id)).body.preview as RulePreview;
    // the second entry's insert fails (as a crash would stop it): the first must not stay
    const undo = await failInserts(server.db, 'points_transactions', 'simulated failure', `new.reason like '%governor ${b.governorId}'`);
    const failed = await apply(ruleId, p.token);
    expect(failed.status).toBe(500);
    await undo();
    expect(await balanceOf(a.username)).toBe(0);
    expect(await server.db.selectFrom('points_runs').selectAll().where('rule_id', '=', ruleId).execute()).toEqual([]);
    const retried = await apply(ruleId, p.token);
    expect(retried.status, retried.text).toBe(200);
    expect(await balanceOf(a.username)).toBe(15);
    expect(await balanceOf(b.username)).toBe(5);
    expect((await apply(ruleId, p.token)).status).toBe(409);
  });

  it('across a restart: the run applied before is refused after, even with a preview made before', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kingdom-auto-'));
    let running = await startServer(ephemeralConfig(dir));
    try {
      const boss = await signedIn(running, 'boss');
      const player = await register(running, { ...newAccount('restart'), playerid: '555000111' });
      const s1 = await importScan(running, boss.token, Date.UTC(2026, 4, 1), [{ id: 555000111, killpoints: 0 }]);
      const s2 = await importScan(running, boss.token, Date.UTC(2026, 4, 8), [{ id: 555000111, killpoints: 5_000 }]);
      const ruleId = ((await call(running, 'POST', '/points/rules', { token: boss.token, body: { name: 'KP', stat: 'killpoints', per: 1000, points: 2 } })).body.rule as { id: number }).id;
      const before = (await call(running, 'POST', `/points/rules/${ruleId}/preview`, { token: boss.token, body: { fromScanId: s1.id, toScanId: s2.id } })).body.preview as RulePreview;
      const spare = (await call(running, 'POST', `/points/rules/${ruleId}/preview`, { token: boss.token, body: { fromScanId: s1.id, toScanId: s2.id } })).body.preview as RulePreview;
      const applied = await call(running, 'POST', `/points/rules/${ruleId}/apply`, { token: boss.token, body: { token: before.token } });
      expect(applied.status).toBe(200);
      await running.close();

      running = await startServer(ephemeralConfig(dir));
      const token = await login(running, boss.email);
      // the preview made before the restart is still there (previews live in the database), and
      // refused: the run was applied; so is a new one
      const spent = await call(running, 'POST', `/points/rules/${ruleId}/apply`, { token, body: { token: spare.token } });
      expect(spent).toMatchObject({ status: 409, body: { error: alreadyAppliedText((applied.body.run as { id: number }).id) } });
      const again = await call(running, 'POST', `/points/rules/${ruleId}/preview`, { token, body: { fromScanId: s1.id, toScanId: s2.id } });
      expect(again.status).toBe(409);
      // even a run booked straight into the database meets the unique key
      await expect(
        running.db.insertInto('points_runs').values({ rule_id: ruleId, from_scan_id: s1.id, to_scan_id: s2.id, entries: 1, total: 10, actor_id: null, auto: 0, created_at: 1 }).execute(),
      ).rejects.toThrow(/UNIQUE/);
      const balance = await running.db.selectFrom('users').select('balance').where('username', '=', player.username).executeTakeFirstOrThrow();
      expect(balance.balance).toBe(10);
    } finally {
      await running.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a rule with auto on runs by itself whenever a scan arrives', () => {
  it('against the scan before it (by takenAt), once; not for a scan filed in the past', async () => {
    const a = await claimant();
    const s1 = await scanAt([{ id: a.governorId, t5Kills: 0 }]);
    const created = await rule({ name: 'T5 auto', stat: 't5Kills', per: 10, points: 1, auto: true });
    const ruleId = (created.body.rule as { id: number }).id;
    const s2 = await scanAt([{ id: a.governorId, t5Kills: 100 }]);
    await server.reactions.idle();
    expect(await balanceOf(a.username)).toBe(10);
    const runs = await call(server, 'GET', '/points/runs', { token: council.token });
    expect((runs.body.runs as { ruleId: number; fromScanId: number; toScanId: number; auto: boolean; appliedBy: string | null }[]).find((r) => r.ruleId === ruleId)).toMatchObject({
      fromScanId: s1.id,
      toScanId: s2.id,
      auto: true,
      appliedBy: null,
      entries: 1,
      total: 10,
    });
    const audit = await server.db.selectFrom('audit_log').selectAll().where('action', '=', 'rule.apply').where('target', '=', `rule #${ruleId} "T5 auto"`).execute();
    expect(audit.map((e) => e.actor)).toEqual(['system']);

    // a scan filed in the past (before s2): no run (it would overlap the one paid)
    await importScan(server, admin.token, Date.UTC(2026, 2, nextDay - 1, 12) - 86_400_000, [{ id: a.governorId, t5Kills: 50 }]);
    await server.reactions.idle();
    expect(await balanceOf(a.username)).toBe(10);
    // the next scan pays again, against s2
    await scanAt([{ id: a.governorId, t5Kills: 250 }]);
    await server.reactions.idle();
    expect(await balanceOf(a.username)).toBe(25);
    // the manual preview of the auto-applied pair is refused
    expect((await preview(ruleId, s1.id, s2.id)).status).toBe(409);
    await expectBooksBalance(server.db);
  });

  it('not over a time already paid: the newest scan deleted and imported again (corrected) pays nothing by itself', async () => {
    const a = await claimant();
    await scanAt([{ id: a.governorId, t4Kills: 0 }]);
    const ruleId = ((await rule({ name: 'T4 auto', stat: 't4Kills', per: 10, points: 1, auto: true })).body.rule as { id: number }).id;
    const newestAt = Date.UTC(2026, 2, nextDay++);
    const newest = await importScan(server, admin.token, newestAt, [{ id: a.governorId, t4Kills: 500 }]);
    await server.reactions.idle();
    expect(await balanceOf(a.username)).toBe(50);
    expect((await call(server, 'DELETE', `/scans/${newest.id}`, { token: admin.token })).status).toBe(200);
    // the corrected file (its figure read right this time), taken at the same moment
    await importScan(server, admin.token, newestAt, [{ id: a.governorId, t4Kills: 100 }]);
    await server.reactions.idle();
    expect(await balanceOf(a.username)).toBe(50);
    const runs = (await call(server, 'GET', '/points/runs', { token: council.token })).body.runs as { ruleId: number }[];
    expect(runs.filter((r) => r.ruleId === ruleId)).toHaveLength(1);
    await expectBooksBalance(server.db);
  });
});

describe('migration 0013 on a database with runs from before it', () => {
  it('fills in the times of each run whose scans still exist, and runs stay append-only', async () => {
    const fresh = await startTestServer();
    try {
      const db = fresh.db;
      const scanRow = (taken_at: number, sha256: string) =>
        db.insertInto('scans').values({ taken_at, kind: 'kingdom', rows: 0, file_name: `${sha256}.csv`, sha256, source: 'upload', created_at: 1, uploaded_by: null }).returning('id').executeTakeFirstOrThrow();
      const a = await scanRow(1_000, 'h1');
      const b = await scanRow(2_000, 'h2');
      const ruleId = (await db.insertInto('points_rules').values({ name: 'Old', stat: 'killpoints', per: 1, points: 1, cap: null, auto: 0, season_id: null, created_at: 1, updated_at: 1, updated_by: null, deleted_at: null }).returning('id').executeTakeFirstOrThrow()).id;
      // the schema as it was before 0013, and two runs made then: one whose first scan is gone since
      await m0013.down(db as never);
      await sql`insert into points_runs (rule_id, from_scan_id, to_scan_id, entries, total, actor_id, auto, created_at) values (${ruleId}, ${a.id}, ${b.id}, 0, 0, null, 0, 1), (${ruleId}, 424242, ${b.id}, 0, 0, null, 0, 1)`.execute(db);
      await m0013.up(db as never);
      const runs = await db.selectFrom('points_runs').select(['from_scan_id', 'from_taken_at', 'to_taken_at']).orderBy('id').execute();
      expect(runs).toEqual([
        { from_scan_id: a.id, from_taken_at: 1_000, to_taken_at: 2_000 },
        { from_scan_id: 424242, from_taken_at: null, to_taken_at: 2_000 },
      ]);
      await expect(sql`update points_runs set total = 5`.execute(db)).rejects.toThrow(/append-only/);
      await expect(sql`delete from points_runs`.execute(db)).rejects.toThrow(/append-only/);
    } finally {
      await fresh.close();
    }
  });
});


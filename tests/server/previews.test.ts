/**
 * Previews wait for their apply in the database (server/previews/store.ts): they expire as before,
 * a large scan preview is stored deflated within a bound, and, on PostgreSQL, a preview made on
 * one server process applies on another.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RULE_ERRORS, RULE_TOKEN_TTL_MS, type RulePreview } from '../../src/protocol/automatic-points';
import { POINTS_ERRORS } from '../../src/protocol/points';
import { SCAN_ERRORS, SCAN_MAX_ROWS, SCAN_TOKEN_TTL_MS, type ScanPreview } from '../../src/protocol/scans';
import type { Db } from '../../server/db/open';
import { ManualClock } from './auction-helpers';
import { upload } from './back-office-helpers';
import { call, leadershipServer, newAccount, register, signedIn, startTestServer } from './helpers';
import { killed, spawnServer, type Child } from './processes';
import { importScan, scanCsv, type FileGovernor } from './scan-files';
import { databaseUrlFor, onPostgres, openTestDatabase } from './test-database';

const scanPreview = (server: { httpUrl: string }, token: string, csv: string, fileName: string) => upload(server, '/scans/preview', token, csv, fileName, 'text/csv');
const scanApply = (server: { httpUrl: string }, token: string, previewToken: string) => call(server, 'POST', '/scans/apply', { token, body: { token: previewToken } });
const bodyBytes = async (db: Db, token: string) =>
  Number((await sql<{ n: number | null }>`select ${sql.raw(onPostgres ? 'octet_length(body)' : 'length(body)')} as n from previews where token = ${token}`.execute(db)).rows[0]?.n ?? 0);

describe('previews in the database, one process', () => {
  const clock = new ManualClock();
  let ctx: Awaited<ReturnType<typeof leadershipServer>>;
  beforeAll(async () => {
    ctx = await leadershipServer({ now: clock.now });
  });
  afterAll(() => ctx.server.close());

  it('an expired preview is refused with the same words as an unknown one, and its row goes at the next preview of any kind', async () => {
    const { server, admin, council } = ctx;
    const scan = await scanPreview(server, admin.token, scanCsv([{ id: 71_000_001, power: 10 }]), 'expiring.csv');
    expect(scan.status, scan.text).toBe(200);
    const scanToken = (scan.body.preview as ScanPreview).token;
    clock.advance(SCAN_TOKEN_TTL_MS + 1);
    expect(await scanApply(server, admin.token, scanToken)).toMatchObject({ status: 400, body: { result: false, error: SCAN_ERRORS.tokenUnknown } });
    const stored = (token: string) => server.db.selectFrom('previews').select('token').where('token', '=', token).execute();
    expect(await stored(scanToken)).toHaveLength(1);

    // a rule run's preview, the same; the expired scan preview's row goes at the next preview
    const s1 = await importScan(server, admin.token, Date.UTC(2026, 1, 1), [{ id: 71_000_002, helps: 0 }]);
    expect(await stored(scanToken)).toEqual([]);
    const s2 = await importScan(server, admin.token, Date.UTC(2026, 1, 8), [{ id: 71_000_002, helps: 100 }]);
    const ruleId = ((await call(server, 'POST', '/points/rules', { token: council.token, body: { name: 'Expiring', stat: 'helps', per: 10, points: 1 } })).body.rule as { id: number }).id;
    const rule = (await call(server, 'POST', `/points/rules/${ruleId}/preview`, { token: council.token, body: { fromScanId: s1.id, toScanId: s2.id } })).body.preview as RulePreview;
    clock.advance(RULE_TOKEN_TTL_MS + 1);
    expect(await call(server, 'POST', `/points/rules/${ruleId}/apply`, { token: council.token, body: { token: rule.token } })).toMatchObject({ status: 400, body: { error: RULE_ERRORS.tokenUnknown } });
    expect(await stored(rule.token)).toHaveLength(1);
    expect((await scanPreview(server, admin.token, scanCsv([{ id: 71_000_003, power: 10 }]), 'next.csv')).status).toBe(200);
    expect(await stored(rule.token)).toEqual([]);
  });

  it(`a ${SCAN_MAX_ROWS.toLocaleString('en')}-row scan preview is stored deflated, under 2 MB, applies whole, and keeps no rows once applied`, { timeout: 120_000 }, async () => {
    const { server, admin } = ctx;
    const names = ['Ωmega', 'الملك', '王者', 'Shadow', 'Kn1ght'];
    const governors: FileGovernor[] = Array.from({ length: SCAN_MAX_ROWS }, (_, i) => ({
      id: 80_000_000 + i,
      name: `${names[i % names.length]} ${i}`,
      alliance: `A${i % 40}`,
      kingdom: 3328,
      power: 200_000_000 - i * 7_919,
      killpoints: 1_000_000_000 - i * 31_337,
      deads: 5_000_000 - i * 101,
      t4Kills: 20_000_000 - i * 577,
      t5Kills: 9_000_000 - i * 263,
      helps: 80_000 - i,
      rssAssistance: 4_000_000_000 - i * 99_991,
    }));
    const answer = await scanPreview(server, admin.token, scanCsv(governors), 'kingdom-25000.csv');
    expect(answer.status, answer.text).toBe(200);
    const token = (answer.body.preview as ScanPreview).token;
    const stored = await bodyBytes(server.db, token);
    expect(stored).toBeGreaterThan(0);
    expect(stored).toBeLessThan(2 * 1024 * 1024);
    const applied = await scanApply(server, admin.token, token);
    expect(applied.status, applied.text).toBe(200);
    const scanId = (applied.body.scan as { id: number }).id;
    const rows = await server.db.selectFrom('scan_rows').select(['governor_id', 'name', 'rss_assistance']).where('scan_id', '=', scanId).orderBy('governor_id').execute();
    expect(rows).toHaveLength(SCAN_MAX_ROWS);
    expect(rows[SCAN_MAX_ROWS - 1]).toEqual({ governor_id: 80_000_000 + SCAN_MAX_ROWS - 1, name: `${names[(SCAN_MAX_ROWS - 1) % names.length]} ${SCAN_MAX_ROWS - 1}`, rss_assistance: 4_000_000_000 - (SCAN_MAX_ROWS - 1) * 99_991 });
    // applied: the row stays (a second apply is told so) without its body
    expect(await bodyBytes(server.db, token)).toBe(0);
    expect(await scanApply(server, admin.token, token)).toMatchObject({ status: 409, body: { error: SCAN_ERRORS.tokenUsed } });
  });
});

describe.runIf(onPostgres)('previews across processes (PostgreSQL)', () => {
  const children: Child[] = [];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kingdom-previews-'));
  let db: Db | null = null;
  afterAll(async () => {
    await Promise.all(children.map((c) => killed(c, 'SIGKILL')));
    await db?.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('a scan, a bulk award and a rule run previewed on one process apply on another, once', { timeout: 120_000 }, async () => {
    // accounts in-process; the processes share DATA_DIR, so its JWT secret
    const setup = await startTestServer({ dataDir });
    const admin = await signedIn(setup, 'admin');
    const player = await register(setup, { ...newAccount('multi'), playerid: '72000001' });
    await setup.close();

    const env = { DATABASE_URL: (await databaseUrlFor(dataDir)) as string };
    const [a, b] = [await spawnServer(dataDir, env), await spawnServer(dataDir, env)];
    children.push(a, b);
    db = await openTestDatabase(dataDir);

    // a scan: previewed on a, applied on b; a second apply on a is told it was applied
    const first = await scanPreview(a, admin.token, scanCsv([{ id: 72_000_001, helps: 0 }]), 'first-2026-03-01.csv');
    expect(first.status, first.text).toBe(200);
    const firstToken = (first.body.preview as ScanPreview).token;
    const applied = await scanApply(b, admin.token, firstToken);
    expect(applied.status, applied.text).toBe(200);
    expect(await scanApply(a, admin.token, firstToken)).toMatchObject({ status: 409, body: { error: SCAN_ERRORS.tokenUsed } });
    const s1 = (applied.body.scan as { id: number }).id;
    const s2 = (await importScan(b, admin.token, Date.UTC(2026, 2, 8), [{ id: 72_000_001, helps: 500 }])).id;

    // a bulk award: previewed on b, applied on a, once
    const bulk = await upload(b, '/points/bulk/preview', admin.token, `${player.username},40,moved across`, 'awards.csv', 'text/csv');
    expect(bulk.status, bulk.text).toBe(200);
    const bulkApplied = await call(a, 'POST', '/points/bulk/apply', { token: admin.token, body: { token: bulk.body.token } });
    expect(bulkApplied).toMatchObject({ status: 200, body: { applied: 1 } });
    expect(await call(b, 'POST', '/points/bulk/apply', { token: admin.token, body: { token: bulk.body.token } })).toMatchObject({ status: 409, body: { error: POINTS_ERRORS.bulkTokenUsed } });

    // a rule run: previewed on a, applied on b; the same token at once on both processes pays once
    const ruleId = ((await call(a, 'POST', '/points/rules', { token: admin.token, body: { name: 'Helps', stat: 'helps', per: 100, points: 3 } })).body.rule as { id: number }).id;
    const rule = await call(a, 'POST', `/points/rules/${ruleId}/preview`, { token: admin.token, body: { fromScanId: s1, toScanId: s2 } });
    expect(rule.status, rule.text).toBe(200);
    const ruleToken = (rule.body.preview as RulePreview).token;
    const answers = await Promise.all([b, a].map((p) => call(p, 'POST', `/points/rules/${ruleId}/apply`, { token: admin.token, body: { token: ruleToken } })));
    expect(answers.map((x) => x.status).sort()).toEqual([200, 409]);
    expect(answers.find((x) => x.status === 409)?.body.error).toBe(RULE_ERRORS.tokenUsed);

    const balance = await db.selectFrom('users').select('balance').where('username', '=', player.username).executeTakeFirstOrThrow();
    expect(balance.balance).toBe(40 + 15);
  });
});

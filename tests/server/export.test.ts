import crypto from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { EXPORT_FILES } from '../../server/admin/export';
import { ADMIN_ERRORS } from '../../src/protocol/admin';
import { bidCreated, bidder, createItem, grant, sendBid } from './auction-helpers';
import { call, signedIn, startTestServer } from './helpers';

/** Every entry of a zip, by name. */
async function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  const zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true, validateEntrySizes: true, strictFileNames: true });
  const out = new Map<string, Buffer>();
  for await (const entry of zip.eachEntry()) {
    const stream = await zip.openReadStreamPromise(entry);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    out.set(entry.fileName, Buffer.concat(chunks));
  }
  return out;
}

async function download(url: string, token?: string): Promise<Response> {
  return fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
}

describe('GET /export.zip', () => {
  it('is everything the kingdom owns as CSV files a spreadsheet opens, with a README of their columns and no password hash', { timeout: 30_000 }, async () => {
    const server = await startTestServer();
    try {
      const admin = await signedIn(server, 'admin');
      const player = await bidder(server, admin.token, 5_000, 'buyer');
      await grant(server, admin.token, player.username, -5);
      const item = await createItem(server, admin.token, { itemName: '=HYPERLINK("http://x")', duration: 3_600 });
      sendBid(player.auction, item.itemId, 150);
      await bidCreated(player.auction, item.itemId, 150, player.username);
      const scan = await server.db
        .insertInto('scans')
        .values({ taken_at: Date.UTC(2026, 10, 1), kind: 'kingdom', rows: 2, file_name: 'scan.csv', sha256: 'a'.repeat(64), source: 'upload', uploaded_by: null, created_at: 1 })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const [governor_id, name, power] of [
        [111, 'Ærwyn', 1_000],
        [222, '-Bad "Name", x', null],
      ] as const) {
        await server.db.insertInto('scan_rows').values({ scan_id: scan.id, governor_id, name, alliance: 'K1', kingdom: 1234, power }).execute();
      }

      // ranks: anonymous 401, a player 403
      expect((await download(`${server.httpUrl}/export.zip`)).status).toBe(401);
      expect((await download(`${server.httpUrl}/export.zip`, player.token)).status).toBe(403);

      const answer = await download(`${server.httpUrl}/export.zip`, admin.token);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('application/zip');
      expect(answer.headers.get('content-disposition')).toMatch(/^attachment; filename="kingdom-export-\d{4}-\d{2}-\d{2}\.zip"$/);
      const bytes = Buffer.from(await answer.arrayBuffer());
      expect(bytes.includes('$argon2')).toBe(false);
      const entries = await unzip(bytes);
      expect([...entries.keys()]).toEqual(['README.txt', ...EXPORT_FILES.map((f) => f.file)]);

      const readme = entries.get('README.txt')!.toString('utf8');
      const tables: Record<string, Record<string, string>[]> = {};
      for (const f of EXPORT_FILES) {
        const text = entries.get(f.file)!;
        expect(text.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
        expect(text.includes('$argon2')).toBe(false);
        const rows = parse(text, { bom: true, columns: true, skip_empty_lines: true }) as Record<string, string>[];
        const header = (parse(text, { bom: true, to_line: 1 }) as string[][])[0];
        expect(header, f.file).toEqual(f.columns.map((c) => c.name));
        expect(header).not.toContain('password_hash');
        expect(header).not.toContain('token_hash');
        // the README names every file and every column
        expect(readme).toContain(`${f.file}: `);
        for (const c of f.columns) expect(readme).toContain(`  ${c.name}: `);
        tables[f.file] = rows;
      }
      expect(tables['accounts.csv'].map((a) => a.username).sort()).toEqual([admin.username, player.username].sort());
      expect(tables['ledger.csv'].map((t) => [t.delta, t.kind])).toEqual([
        ['5000', 'grant'],
        ['-5', 'deduct'],
      ]);
      expect(tables['ledger.csv'][0].created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      // text a spreadsheet would run is quoted; a name with quotes and commas comes back whole
      expect(tables['items.csv'][0].name).toBe(`'=HYPERLINK("http://x")`);
      expect(tables['bids.csv'].map((b) => [b.item_id, b.amount])).toEqual([[String(item.itemId), '150']]);
      expect(tables['scan_governors.csv'].map((r) => [r.governor_id, r.name, r.power])).toEqual([
        ['111', 'Ærwyn', '1000'],
        ['222', `'-Bad "Name", x`, ''],
      ]);
      expect(tables['scans.csv'][0].taken_at).toBe('2026-11-01T00:00:00.000Z');
      expect(tables['audit_log.csv'].some((e) => e.action === 'points.grant')).toBe(true);
      expect(tables['settings.csv']).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('one at a time per account: a second export while the first is being sent is refused with a sentence', { timeout: 20_000 }, async () => {
    const server = await startTestServer();
    try {
      const admin = await signedIn(server, 'admin');
      // more than the sockets' buffers hold (30 MB of audit details that do not compress much), so the first export waits for its reader
      const filler = Array.from({ length: 20_000 }, (_, i) => ({ at: i, actor_id: null, actor: 'system', action: 'x', target: 'y', detail: crypto.randomBytes(1_100).toString('base64') }));
      for (let i = 0; i < filler.length; i += 1_000) await server.db.insertInto('audit_log').values(filler.slice(i, i + 1_000)).execute();
      // the first answer's headers have come; its body is not read yet
      const first = await download(`${server.httpUrl}/export.zip`, admin.token);
      expect(first.status).toBe(200);
      const second = await call(server, 'GET', '/export.zip', { token: admin.token });
      expect(second.status).toBe(429);
      expect(second.body).toMatchObject({ result: false, error: ADMIN_ERRORS.exportBusy });
      expect((await first.arrayBuffer()).byteLength).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });
});

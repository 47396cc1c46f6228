import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { recordAudit } from '../../server/audit/audit';
import { openTestDatabase } from './test-database';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function fresh() {
  const dir = mkdtempSync(join(tmpdir(), 'audit-'));
  dirs.push(dir);
  return openTestDatabase(dir);
}

describe('the audit log', () => {
  it('records an entry and refuses to change or delete it', async () => {
    const db = await fresh();
    await recordAudit(db, { actor: { id: null, name: 'system' }, action: 'settings.change', target: 'kingdom', detail: { storeOpen: false } }, 1_000);
    const rows = await db.selectFrom('audit_log').selectAll().execute();
    expect(rows).toMatchObject([{ at: 1_000, actor: 'system', action: 'settings.change', target: 'kingdom', detail: '{"storeOpen":false}' }]);
    await expect(db.updateTable('audit_log').set({ actor: 'someone else' }).execute()).rejects.toThrow(/append-only/);
    await expect(db.deleteFrom('audit_log').execute()).rejects.toThrow(/append-only/);
    await db.destroy();
  });

  it('keeps a huge detail small', async () => {
    const db = await fresh();
    await recordAudit(db, { actor: { id: null, name: 'system' }, action: 'points.bulk', target: 'x', detail: { rows: 'y'.repeat(100_000) } }, 1);
    const row = await db.selectFrom('audit_log').select('detail').executeTakeFirstOrThrow();
    expect(row.detail.length).toBeLessThanOrEqual(2_000);
    expect(JSON.parse(row.detail)).toHaveProperty('truncated');
    await db.destroy();
  });
});

import { upload } from './back-office-helpers';
import { call } from './helpers';
import { random } from './seed';

/** A governor as a test scan file holds it; a stat left out is not scanned. */
export interface FileGovernor {
  id: number;
  name?: string;
  alliance?: string;
  kingdom?: number | null;
  power?: number | null;
  killpoints?: number | null;
  deads?: number | null;
  t4Kills?: number | null;
  t5Kills?: number | null;
  helps?: number | null;
  rssAssistance?: number | null;
}

const COLUMNS = [
  ['ID', 'id'],
  ['Name', 'name'],
  ['Alliance', 'alliance'],
  ['Kingdom', 'kingdom'],
  ['Power', 'power'],
  ['Killpoints', 'killpoints'],
  ['Deads', 'deads'],
  ['T4 Kills', 't4Kills'],
  ['T5 Kills', 't5Kills'],
  ['Helps', 'helps'],
  ['Rss Assistance', 'rssAssistance'],
] as const;

export function scanCsv(governors: FileGovernor[]): string {
  const cell = (v: unknown) => (v === undefined || v === null ? '' : String(v));
  const lines = governors.map((g) => COLUMNS.map(([, key]) => cell(key === 'name' ? (g.name ?? `Gov ${g.id}`) : g[key])).join(','));
  return [COLUMNS.map(([header]) => header).join(','), ...lines].join('\n') + '\n';
}

let files = 0;
/** Imports a scan taken at `takenAt` (epoch ms) through the API (preview, then apply), as an admin does. */
export async function importScan(server: { httpUrl: string }, adminToken: string, takenAt: number, governors: FileGovernor[]): Promise<{ id: number; takenAt: number }> {
  files += 1;
  const name = `scan-${files}-${Math.floor(random() * 1e9).toString(36)}.csv`; // seeded (TEST_SEED): a failing run replays
  const form = await upload(server, '/scans/preview', adminToken, scanCsv(governors), name, 'text/csv');
  if (form.status !== 200) throw new Error(`preview failed: ${form.text}`);
  const token = (form.body.preview as { token: string }).token;
  const applied = await call(server, 'POST', '/scans/apply', { token: adminToken, body: { token, takenAt } });
  if (applied.status !== 200) throw new Error(`apply failed: ${applied.text}`);
  return applied.body.scan as { id: number; takenAt: number };
}

import type { KyInstance } from 'ky';
import { MIGRANTS_API, type Leaver, type Migrant, type MigrantList, type MigrantPoint, type MigrantReason, type Migrants } from '../protocol/migrants';
import { call, keyOf } from './contract';
import { csvBlob, params, type ExportFile } from './rest';

/** Migrants: who arrived and who left between two scans, and the series over every scan. */
export type { Leaver, Migrant, MigrantPoint, MigrantReason, Migrants };

export interface MigrantsApi {
  /** Between `from` and `to` (scan ids); without them, the last two scans by when they were taken. */
  diff(from?: number, to?: number): Promise<Migrants>;
  series(): Promise<MigrantPoint[]>;
  /** One list between two scans, matching `q` as the page's search, as CSV or XLSX. */
  listFile(list: MigrantList, query: { from: number; to: number; q: string }, file: ExportFile): Promise<{ blob: Blob; filename: string | null }>;
}

export function createMigrantsApi(http: KyInstance): MigrantsApi {
  return {
    async diff(from, to) {
      const { result: _r, ...rest } = await call(http, MIGRANTS_API.diff, { query: { from, to } });
      return rest;
    },
    async listFile(list, query, file) {
      return csvBlob(await http.get(`migrants/${list}.${file.format}`, { searchParams: params({ ...query, q: query.q.trim(), lang: file.lang }), timeout: 120_000 }));
    },
    series: async () => (await call(http, MIGRANTS_API.series)).points,
  };
}

/** The migrants' query keys: a page reads these, never a key of its own. */
export const migrantsKeys = {
  diff: (from?: number, to?: number) => keyOf(MIGRANTS_API.diff, { query: { from, to } }),
  series: keyOf(MIGRANTS_API.series),
} as const;

import type { KyInstance } from 'ky';
import * as z from 'zod/mini';
import { migrantsAnswer, migrantSeries, type Leaver, type Migrant, type MigrantList, type MigrantPoint, type MigrantReason, type Migrants } from '../protocol/migrants';
import { answer, csvBlob, params, type ExportFile } from './rest';

/** Migrants: who arrived and who left between two scans, and the series over every scan. */
export type { Leaver, Migrant, MigrantPoint, MigrantReason, Migrants };

const diffAnswer = z.object({ result: z.literal(true), ...migrantsAnswer.shape });
const seriesAnswer = z.object({ result: z.literal(true), ...migrantSeries.shape });

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
      const { result: _r, ...rest } = await answer(await http.get('migrants', { searchParams: params({ from, to }) }), diffAnswer);
      return rest;
    },
    async listFile(list, query, file) {
      return csvBlob(await http.get(`migrants/${list}.${file.format}`, { searchParams: params({ ...query, q: query.q.trim(), lang: file.lang }), timeout: 120_000 }));
    },
    async series() {
      return (await answer(await http.get('migrants/series'), seriesAnswer)).points;
    },
  };
}

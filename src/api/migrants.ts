import type { KyInstance } from 'ky';
import * as z from 'zod/mini';
import { migrantsAnswer, migrantSeries, type Leaver, type Migrant, type MigrantPoint, type MigrantReason, type Migrants } from '../protocol/migrants';
import { answer, params } from './rest';

/** Migrants: who arrived and who left between two scans, and the series over every scan. */
export type { Leaver, Migrant, MigrantPoint, MigrantReason, Migrants };

const diffAnswer = z.object({ result: z.literal(true), ...migrantsAnswer.shape });
const seriesAnswer = z.object({ result: z.literal(true), ...migrantSeries.shape });

export interface MigrantsApi {
  /** Between `from` and `to` (scan ids); without them, the last two scans by when they were taken. */
  diff(from?: number, to?: number): Promise<Migrants>;
  series(): Promise<MigrantPoint[]>;
}

export function createMigrantsApi(http: KyInstance): MigrantsApi {
  return {
    async diff(from, to) {
      const { result: _r, ...rest } = await answer(await http.get('migrants', { searchParams: params({ from, to }) }), diffAnswer);
      return rest;
    },
    async series() {
      return (await answer(await http.get('migrants/series'), seriesAnswer)).points;
    },
  };
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { migrantsAnswer, migrantSeries, migrantsQuery } from '../../../src/protocol/migrants';
import type { AppContext } from '../../context';
import { migrants, migrantSeries as readMigrantSeries } from '../../scans/migrants';
import { requireRank } from '../guards';
import { BEARER } from '../openapi';
import { resultErrors, resultTrue } from '../schemas';

/** Migrants: who arrived and who left between two scans, and the series over every scan. */
export function migrantRoutes(ctx: AppContext) {
  return async (root: FastifyInstance) => {
    const app = root.withTypeProvider<ZodTypeProvider>();
    app.get(
      '/migrants',
      {
        preValidation: requireRank(ctx, 'council+admin'),
        schema: {
          summary:
            'Who arrived (in `to`, not in `from`) and who left between two scans (to: the latest by takenAt; from: the scan taken before `to`), with power and alliance, and for who left the likely reason: ' +
            "kingdom-changed (the later scan's kingdom column shows them in another kingdom), below-cutoff (their power is below the later scan's lowest) or unknown. Counts and total power in and out; each list at most 1,000, largest first (the counts and totals cover all).",
          tags: ['scans'],
          security: BEARER,
          querystring: migrantsQuery,
          response: { 200: resultTrue(migrantsAnswer.shape), ...resultErrors(400, 401, 403, 404) },
        },
      },
      async (request) => ({ result: true as const, ...(await migrants(ctx.db, request.query)) }),
    );

    app.get(
      '/migrants/series',
      {
        preValidation: requireRank(ctx, 'council+admin'),
        schema: {
          summary: 'Arrivals and departures (counts and power) of each of the latest 200 scans against the scan taken before it, oldest first',
          tags: ['scans'],
          security: BEARER,
          response: { 200: resultTrue(migrantSeries.shape), ...resultErrors(401, 403) },
        },
      },
      async () => ({ result: true as const, points: await readMigrantSeries(ctx.db) }),
    );
  };
}

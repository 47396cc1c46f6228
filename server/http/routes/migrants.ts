import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { migrant, leaver, migrantPoint, migrantsQuery } from '../../../src/protocol/migrants';
import { scan } from '../../../src/protocol/scans';
import type { AppContext } from '../../context';
import { migrants, migrantSeries } from '../../scans/migrants';
import { parseBody } from '../errors';
import { requireRank } from '../guards';
import { BEARER, jsonSchema, resultError } from '../openapi';

const errors = (...codes: number[]) => Object.fromEntries(codes.map((code) => [code, jsonSchema(resultError)]));

/** Migrants (DESIGN.md, "Migrants"): who arrived and who left between two scans, and the series over every scan. */
export function migrantRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    app.get(
      '/migrants',
      {
        preHandler: requireRank(ctx, 'council+admin'),
        schema: {
          summary:
            'Who arrived (in `to`, not in `from`) and who left between two scans (to: the latest by takenAt; from: the scan taken before `to`), with power and alliance, and for who left the likely reason: ' +
            "kingdom-changed (the later scan's kingdom column shows them in another kingdom), below-cutoff (their power is below the later scan's lowest) or unknown. Counts and total power in and out; each list at most 1,000, largest first (the counts and totals cover all).",
          tags: ['scans'],
          security: BEARER,
          querystring: jsonSchema(migrantsQuery, 'input'),
          response: {
            200: jsonSchema(
              z.object({
                result: z.literal(true),
                from: z.nullable(scan),
                to: z.nullable(scan),
                arrived: z.array(migrant),
                left: z.array(leaver),
                counts: z.object({ arrived: z.int(), left: z.int() }),
                power: z.object({ arrived: z.number(), left: z.number() }),
                reasons: z.object({ 'kingdom-changed': z.int(), 'below-cutoff': z.int(), unknown: z.int() }),
              }),
            ),
            ...errors(400, 401, 403, 404),
          },
        },
      },
      async (request) => {
        const query = parseBody(migrantsQuery, request.query ?? {});
        return { result: true, ...(await migrants(ctx.db, query)) };
      },
    );

    app.get(
      '/migrants/series',
      {
        preHandler: requireRank(ctx, 'council+admin'),
        schema: {
          summary: 'Arrivals and departures (counts and power) of each of the latest 200 scans against the scan taken before it, oldest first',
          tags: ['scans'],
          security: BEARER,
          response: { 200: jsonSchema(z.object({ result: z.literal(true), points: z.array(migrantPoint) })), ...errors(401, 403) },
        },
      },
      async () => ({ result: true, points: await migrantSeries(ctx.db) }),
    );
  };
}

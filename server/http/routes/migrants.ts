import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { EXPORT_FORMATS, exportLang } from '../../../src/protocol/exports';
import { MIGRANT_LISTS, MIGRANTS_API, migrantsExportQuery, type Leaver, type Migrant } from '../../../src/protocol/migrants';
import { exportLocale, sendTable, type Column } from '../csv';
import type { AppContext } from '../../context';
import { migrants, migrantSeries as readMigrantSeries } from '../../scans/migrants';
import { requireRank } from '../guards';
import { BEARER } from '../openapi';
import { resultErrors } from '../schemas';
import { serve } from '../contract';

const listExportQuery = z.extend(migrantsExportQuery, exportLang);
/** A list's export: the page's columns, in its order (the reason for who left). */
const MIGRANT_COLUMNS: Column<Migrant>[] = [
  { title: 'governorId', value: (m) => m.governorId },
  { title: 'name', value: (m) => m.name },
  { title: 'alliance', value: (m) => m.alliance },
  { title: 'power', value: (m) => m.power },
  { title: 'kingdom', value: (m) => m.kingdom },
];
const LEAVER_COLUMNS: Column<Migrant>[] = [...MIGRANT_COLUMNS, { title: 'likelyReason', value: (m) => (m as Leaver).reason }];

/** The page's search: the name or alliance contains the text (any case), or the governor id starts with it. */
function matches(m: Migrant, q: string): boolean {
  const text = q.toLowerCase();
  return m.name.toLowerCase().includes(text) || m.alliance.toLowerCase().includes(text) || String(m.governorId).startsWith(text);
}

/** Migrants: who arrived and who left between two scans, and the series over every scan. */
export function migrantRoutes(ctx: AppContext) {
  return async (root: FastifyInstance) => {
    const app = root.withTypeProvider<ZodTypeProvider>();
    const leadership = { preValidation: requireRank(ctx, 'council+admin') };
    serve(app, MIGRANTS_API.diff, leadership, async (request) => ({ result: true as const, ...(await migrants(ctx.db, request.query)) }));

    for (const list of MIGRANT_LISTS) {
      for (const format of EXPORT_FORMATS) {
        app.get(
          `/migrants/${list}.${format}`,
          {
            preValidation: requireRank(ctx, 'council+admin'),
            schema: {
              summary: `Who ${list === 'arrived' ? 'arrived' : 'left'} between the two scans (as GET /migrants: at most 1,000, largest first), matching q as the page's search, as ${format === 'csv' ? 'CSV (RFC 4180, UTF-8 with BOM)' : 'an XLSX workbook'}, the columns titled as the page titles them in the reader's language (lang, else the account's)`,
              tags: ['scans'],
              security: BEARER,
              querystring: listExportQuery,
              response: { 200: { description: format === 'csv' ? 'text/csv' : 'XLSX', type: 'string' }, ...resultErrors(400, 401, 403, 404) },
            },
          },
          async (request, reply) => {
            const { q, lang, ...scans } = request.query;
            const diff = await migrants(ctx.db, scans);
            const rows: Migrant[] = diff[list].filter((m) => !q?.trim() || matches(m, q.trim()));
            const name = diff.from && diff.to ? `${list}-${diff.from.id}-${diff.to.id}` : list;
            async function* chunks() {
              yield rows;
            }
            return sendTable(reply, format, name, exportLocale(request, lang), list === 'left' ? LEAVER_COLUMNS : MIGRANT_COLUMNS, chunks());
          },
        );
      }
    }

    serve(app, MIGRANTS_API.series, leadership, async () => ({ result: true as const, points: await readMigrantSeries(ctx.db) }));
  };
}

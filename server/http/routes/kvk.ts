import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { KVK_API, KVK_ERRORS, standingsQuery, type Standing } from '../../../src/protocol/kvk';
import type { AppContext } from '../../context';
import { governorsOf } from '../../scans/directory';
import { createSeason, listMarks, listSeasons, markGovernor, unmarkGovernor, updateSeason } from '../../kvk/seasons';
import { allStandings, myStandings, seasonStandings } from '../../kvk/standings';
import { EXPORT_FORMATS, exportLang } from '../../../src/protocol/exports';
import { exportLocale, sendTable, type Column } from '../csv';
import { authOf, requireRank } from '../guards';
import { BEARER } from '../openapi';
import { pathId, resultErrors } from '../schemas';
import { serve } from '../contract';

/** A malformed path id is a 400 with its own text (the downloads'; the JSON routes' are KVK_API's). */
const seasonParams = z.object({ id: pathId(KVK_ERRORS.badSeasonId) });
const actorOf = (request: Parameters<typeof authOf>[0]) => {
  const { user } = authOf(request);
  return { id: user.id, name: user.username };
};

/** The standings' export columns, in the table's order, and what only the file holds (power now, the requirement split, marks). */
const STANDING_COLUMNS: Column<Standing>[] = [
  { title: 'governorId', value: (s) => s.governorId },
  { title: 'name', value: (s) => s.name },
  { title: 'alliance', value: (s) => s.alliance },
  { title: 'startPower', value: (s) => s.startPower },
  { title: 'power', value: (s) => s.power },
  { title: 't4Kills', value: (s) => s.gains.t4Kills },
  { title: 't5Kills', value: (s) => s.gains.t5Kills },
  { title: 'deads', value: (s) => s.gains.deads },
  { title: 'killpoints', value: (s) => s.gains.killpoints },
  { title: 'powerGain', value: (s) => s.gains.power },
  { title: 'dkp', value: (s) => s.dkp },
  { title: 'requiredKills', value: (s) => s.required.kills },
  { title: 'requiredDeads', value: (s) => s.required.deads },
  { title: 'killsProgress', value: (s) => s.progress.kills },
  { title: 'deadsProgress', value: (s) => s.progress.deads },
  { title: 'status', value: (s) => s.status },
  { title: 'reason', value: (s) => s.reason },
  { title: 'suggestedZeroed', value: (s) => (s.suggestedZeroed ? 'yes' : '') },
];
const standingsExportQuery = z.extend(standingsQuery, exportLang);

/** KvK: seasons (admin), their standings (council, admin; every signed-in player once published), marks (leadership) and a player's own progress. */
export function kvkRoutes(ctx: AppContext) {
  return async (root: FastifyInstance) => {
    const app = root.withTypeProvider<ZodTypeProvider>();
    const signedIn = { preValidation: requireRank(ctx, 'signed-in') };
    const admin = { preValidation: requireRank(ctx, 'admin') };
    const leadership = { preValidation: requireRank(ctx, 'council+admin') };
    serve(app, KVK_API.seasons, signedIn, async (request) => ({ result: true as const, seasons: await listSeasons(ctx.db, authOf(request).user.rank) }));

    serve(app, KVK_API.create, admin, async (request) => {
      const body = request.body;
      return { result: true as const, season: await createSeason(ctx.db, body, actorOf(request), ctx.now()) };
    });

    serve(app, KVK_API.update, admin, async (request) => {
      const id = request.params.id;
      const body = request.body;
      return { result: true as const, season: await updateSeason(ctx.db, id, body, actorOf(request), ctx.now()) };
    });

    serve(app, KVK_API.standings, signedIn, async (request) => {
      const id = request.params.id;
      const query = request.query;
      return { result: true as const, ...(await seasonStandings(ctx.db, id, query, authOf(request).user.rank)) };
    });

    for (const format of EXPORT_FORMATS) {
      app.get(
        `/kvk/seasons/:id/standings.${format}`,
        {
          preValidation: requireRank(ctx, 'council+admin'),
          schema: {
            summary: `Every standing the filters match, in the same order, as ${format === 'csv' ? 'CSV (RFC 4180, UTF-8 with BOM)' : 'an XLSX workbook'}, the columns titled as the page titles them in the reader's language (lang, else the account's). Same query as the standings.`,
            tags: ['kvk'],
            security: BEARER,
            params: seasonParams,
            querystring: standingsExportQuery,
            response: { 200: { description: format === 'csv' ? 'text/csv' : 'XLSX', type: 'string' }, ...resultErrors(400, 401, 403, 404) },
          },
        },
        async (request, reply) => {
          const id = request.params.id;
          const { lang, ...query } = request.query;
          const { standings } = await allStandings(ctx.db, id, query);
          async function* chunks() {
            for (let at = 0; at < standings.length; at += 500) yield standings.slice(at, at + 500);
          }
          return sendTable(reply, format, `kvk-season-${id}${query.window ? '-window' : ''}`, exportLocale(request, lang), STANDING_COLUMNS, chunks());
        },
      );
    }

    serve(app, KVK_API.marks, leadership, async (request) => {
      const id = request.params.id;
      return { result: true as const, marks: await listMarks(ctx.db, id) };
    });

    serve(app, KVK_API.mark, leadership, async (request) => {
      const params = request.params;
      const id = params.id;
      const governorId = params.governorId;
      const body = request.body;
      return { result: true as const, mark: await markGovernor(ctx.db, id, governorId, body, actorOf(request), ctx.now()) };
    });

    serve(app, KVK_API.unmark, leadership, async (request) => {
      const params = request.params;
      await unmarkGovernor(ctx.db, params.id, params.governorId, actorOf(request), ctx.now());
      return { result: true as const };
    });

    serve(app, KVK_API.me, signedIn, async (request) => {
      const { user } = authOf(request);
      return { result: true as const, ...(await myStandings(ctx.db, await governorsOf(ctx.db, user.id))) };
    });
  };
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { KVK_ERRORS, markBody, markRow, myKvkAnswer, season, seasonBody, standingsAnswer, standingsQuery, type Standing } from '../../../src/protocol/kvk';
import type { AppContext } from '../../context';
import { governorsOf } from '../../scans/directory';
import { createSeason, listMarks, listSeasons, markGovernor, unmarkGovernor, updateSeason } from '../../kvk/seasons';
import { allStandings, myStandings, seasonStandings } from '../../kvk/standings';
import { EXPORT_FORMATS, exportLang } from '../../../src/protocol/exports';
import { exportLocale, sendTable, type Column } from '../csv';
import { authOf, requireRank } from '../guards';
import { BEARER } from '../openapi';
import { pathId, resultErrors, resultTrue } from '../schemas';

/** A malformed path id is a 400 with its own text. */
const seasonParams = z.object({ id: pathId(KVK_ERRORS.badSeasonId) });
const markParams = z.object({ id: pathId(KVK_ERRORS.badSeasonId), governorId: pathId(KVK_ERRORS.badGovernorId) });

const seasonAnswer = resultTrue({ season });
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
    app.get(
      '/kvk/seasons',
      {
        preValidation: requireRank(ctx, 'signed-in'),
        schema: {
          summary: 'Every KvK season (council, admin; any other signed-in player only the published ones), running ones first, then by start scan (newest first)',
          tags: ['kvk'],
          security: BEARER,
          response: { 200: resultTrue({ seasons: z.array(season) }), ...resultErrors(401, 403) },
        },
      },
      async (request) => ({ result: true as const, seasons: await listSeasons(ctx.db, authOf(request).user.rank) }),
    );

    app.post(
      '/kvk/seasons',
      {
        preValidation: requireRank(ctx, 'admin'),
        schema: {
          summary:
            'Create a season: name, start scan, end scan (absent or null: it runs, the latest scan counts), DKP weights {t4Kills, t5Kills, deads}, requirement brackets [{minPower, kills, deads}] by increasing power, windows [{name, fromScanId, toScanId}], published (every signed-in player may read its standings; default false). Audited.',
          tags: ['kvk'],
          security: BEARER,
          body: seasonBody,
          response: { 200: seasonAnswer, ...resultErrors(400, 401, 403, 409) },
        },
      },
      async (request) => {
        const body = request.body;
        return { result: true as const, season: await createSeason(ctx.db, body, actorOf(request), ctx.now()) };
      },
    );

    app.put(
      '/kvk/seasons/:id',
      {
        preValidation: requireRank(ctx, 'admin'),
        schema: {
          summary: 'Replace a season (same body as POST). Fixing endScanId closes it; null reopens it; published (absent: unchanged) lets every signed-in player read its standings. Audited.',
          tags: ['kvk'],
          security: BEARER,
          params: seasonParams,
          body: seasonBody,
          response: { 200: seasonAnswer, ...resultErrors(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const id = request.params.id;
        const body = request.body;
        return { result: true as const, season: await updateSeason(ctx.db, id, body, actorOf(request), ctx.now()) };
      },
    );

    app.get(
      '/kvk/seasons/:id/standings',
      {
        preValidation: requireRank(ctx, 'signed-in'),
        schema: {
          summary:
            "Council and admin, or any signed-in player while the season is published (403 otherwise; then without marks' reasons and suggestions). A page of a season's standings (the whole season, or a window by name): every governor of the start scan with start power, gains, DKP, its bracket's requirement, progress (0–100) and status; filter by alliance, q (name or id) and status; sort by any column. With counts, suggested zeroed governors, totals per alliance and arrivals after the start.",
          tags: ['kvk'],
          security: BEARER,
          params: seasonParams,
          querystring: standingsQuery,
          response: { 200: standingsAnswer, ...resultErrors(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const id = request.params.id;
        const query = request.query;
        return { result: true as const, ...(await seasonStandings(ctx.db, id, query, authOf(request).user.rank)) };
      },
    );

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

    app.get(
      '/kvk/seasons/:id/marks',
      {
        preValidation: requireRank(ctx, 'council+admin'),
        schema: {
          summary: "A season's governors marked zeroed or exempt, with the reason, who marked them and when (newest first)",
          tags: ['kvk'],
          security: BEARER,
          params: seasonParams,
          response: { 200: resultTrue({ marks: z.array(markRow) }), ...resultErrors(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const id = request.params.id;
        return { result: true as const, marks: await listMarks(ctx.db, id) };
      },
    );

    app.put(
      '/kvk/seasons/:id/marks/:governorId',
      {
        preValidation: requireRank(ctx, 'council+admin'),
        schema: {
          summary: 'Mark a governor of the start scan zeroed or exempt, with a reason (replaces its mark). Leadership confirms a suggestion this way; nothing is marked by itself. Audited.',
          tags: ['kvk'],
          security: BEARER,
          params: markParams,
          body: markBody,
          response: { 200: resultTrue({ mark: markRow }), ...resultErrors(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const params = request.params;
        const id = params.id;
        const governorId = params.governorId;
        const body = request.body;
        return { result: true as const, mark: await markGovernor(ctx.db, id, governorId, body, actorOf(request), ctx.now()) };
      },
    );

    app.delete(
      '/kvk/seasons/:id/marks/:governorId',
      {
        preValidation: requireRank(ctx, 'council+admin'),
        schema: {
          summary: "Take back a governor's mark. Audited.",
          tags: ['kvk'],
          security: BEARER,
          params: markParams,
          response: { 200: resultTrue({}), ...resultErrors(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const params = request.params;
        await unmarkGovernor(ctx.db, params.id, params.governorId, actorOf(request), ctx.now());
        return { result: true as const };
      },
    );

    app.get(
      '/kvk/me',
      {
        preValidation: requireRank(ctx, 'signed-in'),
        schema: {
          summary: "The caller's own governors (the account's claim and linked farms, main first) in the running season: DKP, requirement, progress and status; season null when none runs",
          tags: ['kvk'],
          security: BEARER,
          response: { 200: myKvkAnswer, ...resultErrors(401) },
        },
      },
      async (request) => {
        const { user } = authOf(request);
        return { result: true as const, ...(await myStandings(ctx.db, await governorsOf(ctx.db, user.id))) };
      },
    );

  };
}

import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  governorDetail as governorDetailSchema,
  governorRow,
  governorsQuery,
  kingdomSummary as kingdomSummarySchema,
  parseTakenAt,
  scan,
  SCAN_ERRORS,
  SCAN_MAX_BYTES,
  scanApplyBody,
  scanPreview,
  scansQuery,
  STATS,
  summaryQuery,
} from '../../../src/protocol/scans';
import type { AppContext } from '../../context';
import { readScanFile } from '../../scans/read';
import { allGovernors, deleteScan, governorDetail, kingdomSummary, listGovernors, listScans, ScanImports } from '../../scans/scans';
import { sendCsv } from '../csv';
import { HttpError, parseBody } from '../errors';
import { authOf, rankAllows, requireRank } from '../guards';
import { BEARER, jsonSchema, resultError } from '../openapi';
import { acceptMultipart, readUploadedFile } from '../uploads';

const errors = (...codes: number[]) => Object.fromEntries(codes.map((code) => [code, jsonSchema(resultError)]));

/** takenAt from a form or a body: null when absent, a 400 when it is not a time in 2017..2100. */
function takenAtOf(value: unknown): number | null {
  const ms = parseTakenAt(value);
  if (Number.isNaN(ms)) throw new HttpError(400, SCAN_ERRORS.badTakenAt);
  return ms;
}

const idParam = (text: string) => (value: string) => {
  if (!/^\d{1,15}$/.test(value) || Number(value) < 1) throw new HttpError(400, text);
  return Number(value);
};
const scanIdOf = idParam(SCAN_ERRORS.badScanId);
const governorIdOf = idParam(SCAN_ERRORS.badGovernorId);

/** Governors and scans (DESIGN.md, "Governors and scans"): import, list and delete scans; the kingdom's summary; governors and their history. */
export function scanRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const imports = new ScanImports(ctx.db, ctx.now);

    // multipart/form-data only for the preview (an encapsulated instance)
    await app.register(async (multipartApp) => {
      await acceptMultipart(multipartApp);
      multipartApp.post(
        '/scans/preview',
        {
          preHandler: requireRank(ctx, 'admin'),
          schema: {
            summary:
              'Preview a scan file: multipart/form-data with `file` (CSV, XLSX or JSON Lines from RokTracker or another scanner, at most 16 MB and 25,000 governors; columns found by header name) ' +
              'and optionally `takenAt` (ISO date-time or epoch ms, sent before the file; otherwise from the file or sheet name, else now). Nothing is stored: the token applies it (POST /scans/apply) within 30 minutes, once.',
            tags: ['scans'],
            security: BEARER,
            consumes: ['multipart/form-data'],
            response: { 200: jsonSchema(z.object({ result: z.literal(true), preview: scanPreview })), ...errors(400, 401, 403, 409) },
          },
        },
        async (request) => {
          const { bytes, filename, fields } = await readUploadedFile(request, SCAN_MAX_BYTES, { missing: SCAN_ERRORS.noFile, tooLarge: SCAN_ERRORS.tooLarge });
          const takenAt = takenAtOf(fields.takenAt);
          const table = await readScanFile(bytes);
          const preview = await imports.preview({ table, bytes, fileName: filename.slice(0, 200), takenAt, actorId: authOf(request).user.id });
          return { result: true, preview };
        },
      );
    });

    app.post(
      '/scans/apply',
      {
        preHandler: requireRank(ctx, 'admin'),
        schema: {
          summary:
            'Apply a previewed scan in one transaction (all of it or nothing). Rows the preview could not use are left out only with skipInvalid: true; takenAt may correct the time. The same file twice is refused (409), naming its scan.',
          tags: ['scans'],
          security: BEARER,
          body: jsonSchema(scanApplyBody, 'input'),
          response: { 200: jsonSchema(z.object({ result: z.literal(true), scan })), ...errors(400, 401, 403, 409) },
        },
      },
      async (request) => {
        const body = parseBody(scanApplyBody, request.body);
        const applied = await imports.apply(authOf(request).user.id, body.token, { takenAt: takenAtOf(body.takenAt), skipInvalid: body.skipInvalid ?? false });
        request.log.info({ by: authOf(request).user.id, scan: applied.id, rows: applied.rows }, 'scan imported');
        return { result: true, scan: applied };
      },
    );

    app.get(
      '/scans',
      {
        preHandler: requireRank(ctx, 'council+admin'),
        schema: {
          summary: 'Scans, newest first (by when they were taken), 50 a page',
          tags: ['scans'],
          security: BEARER,
          querystring: jsonSchema(scansQuery, 'input'),
          response: { 200: jsonSchema(z.object({ result: z.literal(true), scans: z.array(scan), total: z.int(), page: z.int(), pageSize: z.int() })), ...errors(400, 401, 403) },
        },
      },
      async (request) => {
        const { page } = parseBody(scansQuery, request.query ?? {});
        return { result: true, ...(await listScans(ctx.db, page)) };
      },
    );

    app.delete(
      '/scans/:scanId',
      {
        preHandler: requireRank(ctx, 'admin'),
        schema: {
          summary: 'Delete a scan and every row of it',
          tags: ['scans'],
          security: BEARER,
          params: { type: 'object', properties: { scanId: { type: 'string' } } },
          response: { 200: jsonSchema(z.object({ result: z.literal(true) })), ...errors(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const id = scanIdOf((request.params as { scanId: string }).scanId);
        await deleteScan(ctx.db, id);
        request.log.info({ by: authOf(request).user.id, scan: id }, 'scan deleted');
        return { result: true };
      },
    );

    app.get(
      '/kingdom/summary',
      {
        preHandler: requireRank(ctx, 'council+admin'),
        schema: {
          summary: "The kingdom's totals in a scan (the latest by default) and their change since another (the scan before it by default); nulls where nothing was scanned",
          tags: ['scans'],
          security: BEARER,
          querystring: jsonSchema(summaryQuery, 'input'),
          response: { 200: jsonSchema(z.object({ result: z.literal(true), ...kingdomSummarySchema.shape })), ...errors(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const query = parseBody(summaryQuery, request.query ?? {});
        return { result: true, ...(await kingdomSummary(ctx.db, query.scan, query.compare)) };
      },
    );

    const governorsAnswer = z.object({ result: z.literal(true), scan: z.nullable(scan), compare: z.nullable(scan), total: z.int(), page: z.int(), pageSize: z.int(), governors: z.array(governorRow) });
    app.get(
      '/governors',
      {
        preHandler: requireRank(ctx, 'council+admin'),
        schema: {
          summary:
            "A page of a scan's governors (the latest by default): filter by alliance (tag) and q (name contains, or governor id starts with), sort by any column (default power, high first), with each stat's change since `compare` when given",
          tags: ['scans'],
          security: BEARER,
          querystring: jsonSchema(governorsQuery, 'input'),
          response: { 200: jsonSchema(governorsAnswer), ...errors(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const query = parseBody(governorsQuery, request.query ?? {});
        return { result: true, ...(await listGovernors(ctx.db, query)) };
      },
    );

    app.get(
      '/governors.csv',
      {
        preHandler: requireRank(ctx, 'council+admin'),
        schema: {
          summary: 'Every governor the filters match, in the same order, as CSV (RFC 4180, UTF-8 with BOM). Same query as GET /governors.',
          tags: ['scans'],
          security: BEARER,
          querystring: jsonSchema(governorsQuery, 'input'),
          response: { 200: { description: 'text/csv', type: 'string' }, ...errors(400, 401, 403, 404) },
        },
      },
      async (request, reply) => {
        const { page: _page, pageSize: _size, ...query } = parseBody(governorsQuery, request.query ?? {});
        const withChange = query.compare !== undefined;
        return sendCsv(
          reply,
          'governors.csv',
          ['governor id', 'name', 'alliance', 'kingdom', ...STATS, ...(withChange ? STATS.map((s) => `${s} change`) : [])],
          allGovernors(ctx.db, query),
          (g) => [g.governorId, g.name, g.alliance, g.kingdom, ...STATS.map((s) => g[s]), ...(withChange ? STATS.map((s) => g.change?.[s] ?? null) : [])],
        );
      },
    );

    app.get(
      '/governors/:governorId',
      {
        preHandler: requireRank(ctx, 'signed-in'),
        schema: {
          summary: "A governor's history over every scan (oldest first), the names and alliances seen; council and admin see any governor, a player the one their account claims",
          tags: ['scans'],
          security: BEARER,
          params: { type: 'object', properties: { governorId: { type: 'string' } } },
          response: { 200: jsonSchema(z.object({ result: z.literal(true), governor: governorDetailSchema })), ...errors(400, 401, 403, 404) },
        },
      },
      async (request) => {
        const governorId = governorIdOf((request.params as { governorId: string }).governorId);
        const { user } = authOf(request);
        if (!rankAllows(user.rank, 'council+admin') && user.playerid !== String(governorId)) throw new HttpError(403, SCAN_ERRORS.notYourGovernor);
        return { result: true, governor: await governorDetail(ctx.db, governorId) };
      },
    );
  };
}

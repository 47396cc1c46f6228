import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import {
  governorChange,
  governorsQuery,
  parseTakenAt,
  SCAN_ERRORS,
  SCAN_MAX_BYTES,
  scanCompareBody,
  scanIssue,
  scanPreview,
  type ScanPreview,
  STATS,
  type GovernorRow,
} from '../../../src/protocol/scans';
import { ALLIANCE_ERRORS, SCANS_API, scanPreviewAnswer } from '../../../src/protocol/scans-api';
import type { AppContext } from '../../context';
import { linkGovernor, listAlliances, listPlayerLinks, metricSeries, ownGovernors, ownsGovernor, parseStats, saveAlliance, unlinkGovernor } from '../../scans/directory';
import { clearStandingsCache, warmRunningSeasons } from '../../kvk/standings';
import { nameTextProblem } from '../../../src/protocol/http';
import { deleteScan, redateScan, listScans } from '../../scans/scans';
import { allGovernors, governorDetail, kingdomSummary, listGovernors } from '../../scans/kingdom-view';
import { EXPORT_FORMATS, exportLang } from '../../../src/protocol/exports';
import { exportLocale, sendTable, type Column } from '../csv';
import { authOf, rankAllows, requireAdminOrBot, requireRank, uploaderOf } from '../guards';
import { BEARER } from '../openapi';
import { encodeAnswer, encodeListInSlices, resultErrors } from '../schemas';
import { serve } from '../contract';
import { stringifyInSlices } from '../../slices';
import { acceptMultipart, readUploadedFile } from '../uploads';
import { Invalid, Forbidden } from '../../errors';

/** takenAt from a form or a body: null when absent, a 400 when it is not a time in 2017..2100. */
function takenAtOf(value: unknown): number | null {
  const ms = parseTakenAt(value);
  if (Number.isNaN(ms)) throw new Invalid(SCAN_ERRORS.badTakenAt);
  return ms;
}

const governorsExportQuery = z.extend(governorsQuery, exportLang);
/** The governors' export: who, then every stat (the table shows some; the file holds all), then each stat's change when compared. */
const GOVERNOR_COLUMNS: Column<GovernorRow>[] = [
  { title: 'governorId', value: (g) => g.governorId },
  { title: 'name', value: (g) => g.name },
  { title: 'alliance', value: (g) => g.alliance },
  { title: 'kingdom', value: (g) => g.kingdom },
  ...STATS.map((s): Column<GovernorRow> => ({ title: s, value: (g) => g[s] })),
];
const CHANGE_COLUMNS = STATS.map((s): Column<GovernorRow> => ({ title: { change: s }, value: (g) => g.change?.[s] ?? null }));

const previewHead = z.omit(scanPreview, { governors: true, errors: true, warnings: true });

/**
 * A scan preview's answer (`{ result: true, preview }`), encoded by its schema as every answer is,
 * its lists (up to 25,000 governors and as many issues) a slice at a time and the JSON written a
 * slice at a time (server/json.ts): done in one go it held up every bid for most of a second.
 */
async function sendPreview(reply: FastifyReply, preview: ScanPreview, route: string): Promise<FastifyReply> {
  const { governors, errors, warnings, ...head } = preview;
  const answer = {
    result: true,
    preview: {
      ...encodeAnswer(previewHead, head, route),
      governors: {
        new: await encodeListInSlices(governorChange, governors.new, route),
        renamed: await encodeListInSlices(governorChange, governors.renamed, route),
        changedAlliance: await encodeListInSlices(governorChange, governors.changedAlliance, route),
      },
      errors: await encodeListInSlices(scanIssue, errors, route),
      warnings: await encodeListInSlices(scanIssue, warnings, route),
    },
  };
  // a JSON text is sent as it is: the serializer is not run a second time over it
  return reply.type('application/json; charset=utf-8').send(await stringifyInSlices(answer));
}

/** Governors and scans: import, list and delete scans; the kingdom's summary; governors and their history. */
export function scanRoutes(ctx: AppContext) {
  return async (root: FastifyInstance) => {
    const app = root.withTypeProvider<ZodTypeProvider>();

    // multipart/form-data only for the preview (an encapsulated instance)
    await app.register(async (multipartRoot) => {
      const multipartApp = multipartRoot.withTypeProvider<ZodTypeProvider>();
      await acceptMultipart(multipartApp);
      multipartApp.post(
        '/scans/preview',
        {
          preValidation: requireAdminOrBot(ctx),
          schema: {
            summary:
              'Preview a scan file: multipart/form-data with `file` (CSV, XLSX or JSON Lines from RokTracker or another scanner, at most 16 MB and 25,000 governors; columns found by header name) ' +
              'and optionally `takenAt` (ISO date-time or epoch ms, before or after the file; otherwise from the file name (a date or an epoch-seconds timestamp), a date-named sheet, the workbook\'s creation time, else now: `takenAtFrom` says which). Nothing is stored: the token applies it (POST /scans/apply) within 30 minutes, once.',
            tags: ['scans'],
            security: BEARER,
            consumes: ['multipart/form-data'],
            response: { 200: scanPreviewAnswer, ...resultErrors(400, 401, 403, 409, 503) },
          },
        },
        async (request, reply) => {
          const { bytes, filename, fields } = await readUploadedFile(request, SCAN_MAX_BYTES, { missing: SCAN_ERRORS.noFile, tooLarge: SCAN_ERRORS.tooLarge });
          const takenAt = takenAtOf(fields.takenAt);
          // read, checked and parsed in a worker thread: the event loop stays free for bids meanwhile
          const file = await ctx.readers.scan(bytes);
          const preview = await ctx.scans.preview({ file, fileName: filename.slice(0, 200), takenAt, actorId: uploaderOf(request) });
          return sendPreview(reply, preview, 'POST /scans/preview');
        },
      );
    });

    const admin = { preValidation: requireRank(ctx, 'admin') };
    const leadership = { preValidation: requireRank(ctx, 'council+admin') };
    const signedIn = { preValidation: requireRank(ctx, 'signed-in') };

    serve(app, SCANS_API.apply, { preValidation: requireAdminOrBot(ctx) }, async (request) => {
      const body = request.body;
      const bot = request.bot;
      const applied = await ctx.scans.apply(uploaderOf(request), body.token, { takenAt: takenAtOf(body.takenAt), skipInvalid: body.skipInvalid ?? false, ...(bot ? { source: 'bot' as const } : {}) });
      request.log.info({ by: bot ? `bot ${bot.id}` : authOf(request).user.id, scan: applied.id, rows: applied.rows }, 'scan imported');
      return { result: true as const, scan: applied };
    });

    // route-owned: its answer, as the preview's, is encoded and written a slice at a time (sendPreview), not by serve()
    app.post(
      '/scans/preview/compare',
      {
        preValidation: requireAdminOrBot(ctx),
        schema: {
          summary:
            "Change a preview's scan time (ISO date-time or epoch ms) and compare it again with the scan before that time: the new, renamed and moved governors and the warnings follow the time. The apply then uses it. The same preview's token, the same answer as the preview.",
          tags: ['scans'],
          security: BEARER,
          body: scanCompareBody,
          response: { 200: scanPreviewAnswer, ...resultErrors(400, 401, 403, 409) },
        },
      },
      async (request, reply) => {
        const takenAt = takenAtOf(request.body.takenAt);
        if (takenAt === null) throw new Invalid(SCAN_ERRORS.badTakenAt);
        const preview = await ctx.scans.compareAt(uploaderOf(request), request.body.token, takenAt);
        return sendPreview(reply, preview, 'POST /scans/preview/compare');
      },
    );

    serve(app, SCANS_API.list, leadership, async (request) => {
      const { page } = request.query;
      return { result: true as const, ...(await listScans(ctx.db, page)) };
    });

    serve(app, SCANS_API.remove, admin, async (request) => {
      const id = request.params.scanId;
      await deleteScan(ctx.db, id, authOf(request).user.id, ctx.now());
      request.log.info({ by: authOf(request).user.id, scan: id }, 'scan deleted');
      return { result: true as const };
    });

    serve(app, SCANS_API.redate, admin, async (request) => {
      const id = request.params.scanId;
      const takenAt = takenAtOf(request.body.takenAt);
      if (takenAt === null) throw new Invalid(SCAN_ERRORS.badTakenAt);
      const { user } = authOf(request);
      const { scan: saved, changed } = await redateScan(ctx.db, id, takenAt, { actorId: user.id, confirm: request.body.confirm ?? false, now: ctx.now() });
      if (changed) {
        request.log.info({ by: user.id, scan: id, takenAt }, 'scan date corrected');
        // standings computed over the old order are not served again (other processes see the scans' times change in their cache keys)
        clearStandingsCache(ctx.db, true);
        void warmRunningSeasons(ctx.db).catch((err: unknown) => request.log.warn({ err }, 'KvK standings not computed after the scan date changed'));
      }
      return { result: true as const, scan: saved };
    });

    serve(app, SCANS_API.summary, leadership, async (request) => {
      const query = request.query;
      return { result: true as const, ...(await kingdomSummary(ctx.db, query.scan, query.compare)) };
    });

    serve(app, SCANS_API.governors, leadership, async (request) => {
      const query = request.query;
      return { result: true as const, ...(await listGovernors(ctx.db, query)) };
    });

    // the downloads answer CSV or XLSX, not JSON: route-owned
    for (const format of EXPORT_FORMATS) {
      app.get(
        `/governors.${format}`,
        {
          preValidation: requireRank(ctx, 'council+admin'),
          schema: {
            summary: `Every governor the filters match, in the same order, as ${format === 'csv' ? 'CSV (RFC 4180, UTF-8 with BOM)' : 'an XLSX workbook'}, the columns titled as the pages title them in the reader's language (lang, else the account's). Same query as GET /governors.`,
            tags: ['scans'],
            security: BEARER,
            querystring: governorsExportQuery,
            response: { 200: { description: format === 'csv' ? 'text/csv' : 'XLSX', type: 'string' }, ...resultErrors(400, 401, 403, 404) },
          },
        },
        async (request, reply) => {
          const { page: _page, pageSize: _size, lang, ...query } = request.query;
          const columns = query.compare === undefined ? GOVERNOR_COLUMNS : [...GOVERNOR_COLUMNS, ...CHANGE_COLUMNS];
          return sendTable(reply, format, 'governors', exportLocale(request, lang), columns, allGovernors(ctx.db, query));
        },
      );
    }

    serve(app, SCANS_API.ownGovernors, signedIn, async (request) => ({ result: true as const, governors: await ownGovernors(ctx.db, authOf(request).user.id) }));

    serve(app, SCANS_API.governor, signedIn, async (request) => {
      const governorId = request.params.governorId;
      const { user } = authOf(request);
      if (!rankAllows(user.rank, 'council+admin') && !(await ownsGovernor(ctx.db, user.id, governorId))) throw new Forbidden(SCAN_ERRORS.notYourGovernor);
      return { result: true as const, governor: await governorDetail(ctx.db, governorId) };
    });

    serve(app, SCANS_API.alliances, leadership, async (request) => {
      const query = request.query;
      return { result: true as const, ...(await listAlliances(ctx.db, query.scan)) };
    });

    serve(app, SCANS_API.saveAlliance, admin, async (request) => {
      const tag = request.params.tag;
      if (tag.length < 1 || tag.length > 64) throw new Invalid(ALLIANCE_ERRORS.badTag);
      const tagProblem = nameTextProblem(tag);
      if (tagProblem) throw new Invalid(tagProblem);
      const body = request.body;
      return { result: true as const, alliance: await saveAlliance(ctx.db, tag, body, authOf(request).user.id, ctx.now()) };
    });

    serve(app, SCANS_API.series, signedIn, async (request) => {
      const query = request.query;
      const stats = parseStats(query.stats);
      const { user } = authOf(request);
      if (!rankAllows(user.rank, 'council+admin')) {
        const own = query.scope === 'governor' && /^\d{1,15}$/.test(query.key ?? '') && (await ownsGovernor(ctx.db, user.id, Number(query.key)));
        if (!own) throw new Forbidden(SCAN_ERRORS.notYourGovernor);
      }
      return { result: true as const, ...(await metricSeries(ctx.db, query.scope, query.key, stats)) };
    });

    serve(app, SCANS_API.playerIds, admin, async (request) => {
      const query = request.query;
      return { result: true as const, ...(await listPlayerLinks(ctx.db, query.q, query.page)) };
    });

    serve(app, SCANS_API.link, admin, async (request) => {
      const governorId = request.params.governorId;
      const body = request.body;
      const link = await linkGovernor(ctx.db, governorId, body.username, body.verified, authOf(request).user.id, ctx.now());
      request.log.info({ by: authOf(request).user.id, governorId, username: link.username, verified: link.verified }, 'governor linked');
      return { result: true as const, link };
    });

    serve(app, SCANS_API.unlink, admin, async (request) => {
      const governorId = request.params.governorId;
      await unlinkGovernor(ctx.db, governorId, authOf(request).user.id, ctx.now());
      request.log.info({ by: authOf(request).user.id, governorId }, 'governor unlinked');
      return { result: true as const };
    });
  };
}

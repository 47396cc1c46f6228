import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { POINTS_ERRORS } from '../../../src/protocol/points';
import {
  historyQuery,
  type HistoryEntry,
  STORE_ERRORS,
  UPLOAD_MAX_BYTES,
  uploadAnswer,
} from '../../../src/protocol/store';
import { STORE_API } from '../../../src/protocol/store-api';
import { STORE_OFFICE_API } from '../../../src/protocol/store-office-api';
import { allHistoryEntries, historyEntries, listItems, listSales, type HistoryFilter } from '../../auction/store-queries';
import type { AppContext } from '../../context';
import { Invalid, NotFound } from '../../errors';
import { findUserByUsername } from '../../users/users';
import { EXPORT_FORMATS, exportLang } from '../../../src/protocol/exports';
import { csvTime, exportLocale, sendTable, type Column } from '../csv';
import { authOf, rankAllows, requireRank } from '../guards';
import { BEARER } from '../openapi';
import { resultErrors, resultTrue } from '../schemas';
import { serve } from '../contract';
import { acceptMultipart, detectImage, readUploadedFile, registerUploadsStatic, saveUpload } from '../uploads';

const csvAnswer = { description: 'text/csv', type: 'string' };
const xlsxAnswer = { description: 'XLSX', type: 'string' };
const historyExportQuery = z.extend(historyQuery, exportLang);
/** The store history's export: the page's columns (the item's id first), in its order. */
const HISTORY_COLUMNS: Column<HistoryEntry>[] = [
  { title: 'itemId', value: (e) => e.itemId },
  { title: 'item', value: (e) => e.itemName },
  { title: 'outcome', value: (e) => e.outcome },
  { title: 'buyer', value: (e) => e.username },
  { title: 'price', value: (e) => e.amount },
  { title: 'ended', value: (e) => csvTime(e.at) },
];

/** The kingdom store: items auctioned for kingdom points (bids are on the auction socket), and its sales. */
export function storeRoutes(ctx: AppContext) {
  return async (root: FastifyInstance) => {
    const app = root.withTypeProvider<ZodTypeProvider>();
    const leadership = { preValidation: requireRank(ctx, 'council+admin') };

    // (the reserve's number to council and admin only: everyone else reads reserveMet)
    serve(app, STORE_API.items, { preValidation: requireRank(ctx, 'signed-in') }, async (request) => ({
      result: true as const,
      ...(await listItems(ctx.db, ctx.now(), request.query.state, request.query.page, { reserve: rankAllows(authOf(request).user.rank, 'council+admin') })),
    }));

    serve(app, STORE_API.create, leadership, async (request) => {
      const item = await ctx.auction.items.create(request.body, authOf(request).user.id);
      request.log.info({ itemId: item.itemId, by: authOf(request).user.id }, 'item created');
      return { result: true as const, item };
    });

    serve(app, STORE_API.cancel, leadership, async (request) => {
      const { itemId } = request.params;
      const item = await ctx.auction.items.cancel(itemId, authOf(request).user.id);
      request.log.info({ itemId, by: authOf(request).user.id }, 'item cancelled');
      return { result: true as const, item };
    });

    serve(app, STORE_OFFICE_API.history, leadership, async (request) => {
      const { page, ...filter } = await historyFilter(request.query);
      const answer = await historyEntries(ctx.db, filter, page ?? 1);
      const sales = answer.entries.flatMap((e) =>
        e.outcome === 'sold' && e.username !== null && e.amount !== null ? [{ itemId: e.itemId, itemName: e.itemName, username: e.username, amount: e.amount, at: e.at }] : [],
      );
      return { result: true as const, ...answer, sales };
    });

    // the history's files are CSV or XLSX, not JSON: routes of their own
    for (const format of EXPORT_FORMATS) {
      app.get(
        `/store/history.${format}`,
        {
          preValidation: requireRank(ctx, 'council+admin'),
          schema: {
            summary: `The store history's matching entries as ${format === 'csv' ? "CSV (RFC 4180, UTF-8 with BOM; text that starts with = + - @, tab or CR is prefixed with ')" : 'an XLSX workbook'}, the columns titled as the page titles them in the reader's language (lang, else the account's). Same filters as GET /store/history.`,
            tags: ['store'],
            security: BEARER,
            querystring: historyExportQuery,
            response: { 200: format === 'csv' ? csvAnswer : xlsxAnswer, ...resultErrors(400, 401, 403, 404) },
          },
        },
        async (request, reply) => {
          const { lang, ...query } = request.query;
          const { page: _page, ...filter } = await historyFilter(query);
          return sendTable(reply, format, 'store-history', exportLocale(request, lang), HISTORY_COLUMNS, allHistoryEntries(ctx.db, filter));
        },
      );
    }

    serve(app, STORE_OFFICE_API.edit, leadership, async (request) => {
      const { itemId } = request.params;
      const item = await ctx.auction.items.edit(itemId, request.body, authOf(request).user.id);
      request.log.info({ itemId, by: authOf(request).user.id }, 'item edited');
      return { result: true as const, item };
    });

    serve(app, STORE_OFFICE_API.duplicate, leadership, async (request) => {
      const { itemId } = request.params;
      const item = await ctx.auction.items.duplicate(itemId, request.body.startsAt, authOf(request).user.id);
      request.log.info({ itemId: item.itemId, from: itemId, by: authOf(request).user.id }, 'item duplicated');
      return { result: true as const, item };
    });

    // Item images: multipart/form-data only, so this route stays as it is (an encapsulated instance).
    await app.register(async (multipartRoot) => {
      const multipartApp = multipartRoot.withTypeProvider<ZodTypeProvider>();
      await acceptMultipart(multipartApp);
      multipartApp.post(
        '/store/uploads',
        {
          preValidation: requireRank(ctx, 'council+admin'),
          schema: {
            summary: 'Upload an item image: multipart/form-data with `file` (PNG, JPEG, WebP or GIF by its content, at most 2 MB); answers the URL it is served at (/uploads/…)',
            tags: ['store'],
            security: BEARER,
            consumes: ['multipart/form-data'],
            response: { 200: resultTrue(uploadAnswer.shape), ...resultErrors(400, 401, 403) },
          },
        },
        async (request) => {
          const { bytes } = await readUploadedFile(request, UPLOAD_MAX_BYTES, { missing: STORE_ERRORS.uploadMissing, tooLarge: STORE_ERRORS.uploadTooLarge });
          const type = detectImage(bytes);
          if (!type) throw new Invalid(STORE_ERRORS.uploadType);
          const url = await saveUpload(ctx.config.dataDir, bytes, type);
          request.log.info({ url, bytes: bytes.length, by: authOf(request).user.id }, 'image uploaded');
          return { result: true as const, url };
        },
      );
    });
    await registerUploadsStatic(app, ctx);

    serve(app, STORE_OFFICE_API.myHistory, { preValidation: requireRank(ctx, 'signed-in') }, async (request) => ({
      result: true as const,
      ...(await listSales(ctx.db, { userId: authOf(request).user.id, page: request.query.page })),
    }));
  };

  /** The store history filters of a parsed query, with the buyer's username resolved (404 for an unknown one). */
  async function historyFilter(query: z.output<typeof historyQuery>): Promise<HistoryFilter & { page?: number }> {
    if (query.from !== undefined && query.to !== undefined && query.from > query.to) throw new Invalid(STORE_ERRORS.fromAfterTo);
    const filter: HistoryFilter & { page?: number } = { from: query.from, to: query.to, outcome: query.outcome, page: query.page };
    if (query.user) {
      const user = await findUserByUsername(ctx.db, query.user);
      if (!user) throw new NotFound(POINTS_ERRORS.unknownUser);
      filter.userId = user.id;
    }
    return filter;
  }
}

import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import {
  BULK_MAX_BYTES,
  bulkPreviewAnswer,
  POINTS_API,
  POINTS_ERRORS,
  SYSTEM_ACTOR,
  type Transaction,
  transactionsQuery,
} from '../../../src/protocol/points';
import type { AppContext } from '../../context';
import { checkRows, earlierApplies, fileSha256 } from '../../points/bulk';
import { allTransactions, checkLedger, listTransactions, searchPlayers, type TransactionFilter } from '../../points/ledger';
import { EXPORT_FORMATS, exportLang } from '../../../src/protocol/exports';
import { csvTime, exportLocale, sendTable, type Column } from '../csv';
import { acceptMultipart, readUploadedFile } from '../uploads';
import { findUserByUsername } from '../../users/users';
import { authOf, requireRank } from '../guards';
import { BEARER } from '../openapi';
import { resultErrors } from '../schemas';
import { serve } from '../contract';
import { Invalid, NotFound } from '../../errors';

const csvAnswer = { description: 'text/csv', type: 'string' };
const xlsxAnswer = { description: 'XLSX', type: 'string' };
const transactionsExportQuery = z.extend(transactionsQuery, exportLang);
/** The ledger's export: the page's columns (the entry's id first), in its order. */
const TRANSACTION_COLUMNS: Column<Transaction>[] = [
  { title: 'id', value: (t) => t.id },
  { title: 'date', value: (t) => csvTime(t.at) },
  { title: 'player', value: (t) => t.username },
  { title: 'kind', value: (t) => t.kind },
  { title: 'points', value: (t) => t.delta },
  { title: 'balanceAfter', value: (t) => t.balanceAfter },
  { title: 'reason', value: (t) => t.reason },
  // a change no person made (a purchase, an automatic award) is by System, as the page says
  { title: 'by', value: (t) => t.actor ?? SYSTEM_ACTOR },
];

/** Kingdom points: leadership grants and deducts, with a reason, on the append-only ledger. */
export function pointsRoutes(ctx: AppContext) {
  return async (root: FastifyInstance) => {
    const app = root.withTypeProvider<ZodTypeProvider>();
    const leadership = { preValidation: requireRank(ctx, 'council+admin') };
    serve(app, POINTS_API.change, leadership, async (request) => {
      const { body } = request;
      const target = await findUserByUsername(ctx.db, body.username);
      if (!target) throw new NotFound(POINTS_ERRORS.unknownUser);
      const { transactions, users } = await ctx.points.book([{ userId: target.id, delta: body.delta, reason: body.reason }], {
        actorId: authOf(request).user.id,
        audit: ({ transactions: [booked], users: [after] }) => ({
          // a person's change is a grant or a deduct (by its sign)
          action: booked.kind === 'deduct' ? 'points.deduct' : 'points.grant',
          target: after.username,
          detail: { amount: body.delta, reason: body.reason, balanceAfter: after.balance },
        }),
      });
      return { result: true as const, transaction: transactions[0], balance: users[0].balance };
    });

    serve(app, POINTS_API.transactions, leadership, async (request) => {
      const { page, ...filter } = await transactionFilter(request.query);
      return { result: true as const, ...(await listTransactions(ctx.db, { ...filter, page })) };
    });

    for (const format of EXPORT_FORMATS) {
      app.get(
        `/points/transactions.${format}`,
        {
          preValidation: requireRank(ctx, 'council+admin'),
          schema: {
            summary: `Every transaction the filters match, newest first, as ${format === 'csv' ? "CSV (RFC 4180, UTF-8 with BOM; text that starts with = + - @, tab or CR is prefixed with ')" : 'an XLSX workbook'}, the columns titled as the page titles them in the reader's language (lang, else the account's). Same filters as GET /points/transactions.`,
            tags: ['points'],
            security: BEARER,
            querystring: transactionsExportQuery,
            response: { 200: format === 'csv' ? csvAnswer : xlsxAnswer, ...resultErrors(400, 401, 403, 404) },
          },
        },
        async (request, reply) => {
          const { lang, ...query } = request.query;
          const { page: _page, ...filter } = await transactionFilter(query);
          return sendTable(reply, format, 'transactions', exportLocale(request, lang), TRANSACTION_COLUMNS, allTransactions(ctx.db, filter));
        },
      );
    }

    serve(app, POINTS_API.players, leadership, async (request) => ({ result: true as const, ...(await searchPlayers(ctx.db, request.query.q, request.query.page)) }));

    serve(app, POINTS_API.ledgerCheck, { preValidation: requireRank(ctx, 'admin') }, async () => ({ result: true as const, ...(await checkLedger(ctx.db)) }));

    // Bulk awards. multipart/form-data only for these routes (an encapsulated instance).
    await app.register(async (multipartRoot) => {
      const multipartApp = multipartRoot.withTypeProvider<ZodTypeProvider>();
      await acceptMultipart(multipartApp);
      multipartApp.post(
        '/points/bulk/preview',
        {
          preValidation: requireRank(ctx, 'council+admin'),
          schema: {
            summary:
              'Preview a bulk award: multipart/form-data with `file` (CSV or XLSX, at most 2 MB and 5,000 rows; columns player, amount, reason; a header row may name them). ' +
              'A player column ("player", "governor id", "username", …) holds a governor id or a username; its header says which is tried first, and each row says which matched (`matchedBy`). ' +
              'Every row comes back with its error, if any; nothing is applied. The token applies the rows (POST /points/bulk/apply) within 10 minutes, once. ' +
              '`earlier` names the earlier applies of the same file (same SHA-256: when, by whom, rows, total; newest first, at most 5): applying it again pays every row again.',
            tags: ['points'],
            security: BEARER,
            consumes: ['multipart/form-data'],
            response: { 200: bulkPreviewAnswer, ...resultErrors(400, 401, 403, 503) },
          },
        },
        async (request) => {
          const { bytes } = await readUploadedFile(request, BULK_MAX_BYTES, { missing: POINTS_ERRORS.bulkNoFile, tooLarge: POINTS_ERRORS.bulkTooLarge });
          const { rows, planned } = await checkRows(ctx.db, await ctx.readers.bulk(bytes));
          const sha256 = fileSha256(bytes);
          return { result: true as const, ...(await ctx.bulk.add(authOf(request).user.id, rows, planned, { sha256, earlier: await earlierApplies(ctx.db, sha256) })) };
        },
      );
    });

    serve(app, POINTS_API.bulkApply, leadership, async (request) => {
      const { token } = request.body;
      const actorId = authOf(request).user.id;
      const applied = await ctx.bulk.apply(ctx.points, token, actorId);
      request.log.info({ by: actorId, rows: applied }, 'bulk award applied');
      return { result: true as const, applied };
    });
  };

  /** The transaction filters of a parsed query, with the usernames resolved (404 for an unknown one). */
  async function transactionFilter(query: z.output<typeof transactionsQuery>): Promise<TransactionFilter & { page?: number }> {
    if (query.from !== undefined && query.to !== undefined && query.from > query.to) throw new Invalid(POINTS_ERRORS.fromAfterTo);
    const filter: TransactionFilter & { page?: number } = { kind: query.kind, from: query.from, to: query.to, page: query.page };
    if (query.username) {
      const user = await findUserByUsername(ctx.db, query.username);
      if (!user) throw new NotFound(POINTS_ERRORS.unknownUser);
      filter.userId = user.id;
    }
    if (query.actor) {
      const actor = await findUserByUsername(ctx.db, query.actor);
      if (!actor) throw new NotFound(POINTS_ERRORS.unknownActor);
      filter.actorId = actor.id;
    }
    return filter;
  }
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { ADMIN_API, ADMIN_ERRORS, AUDIT_PAGE_SIZE, auditQuery, kingdomNumber } from '../../../src/protocol/admin';
import { AUTH_ERRORS } from '../../../src/protocol/auth';
import { WS_CLOSE_UNAUTHENTICATED } from '../../../src/protocol/socket';
import { disableAccount, enableAccount, listAccounts, revokeAccountSessions, toAdminUser, type Actor } from '../../admin/accounts';
import { readDashboard } from '../../admin/dashboard';
import { exportZip } from '../../admin/export';
import { createKingdom, editKingdom, listKingdoms, removeKingdom } from '../../admin/kingdoms';
import { allAudit, listAudit, type AuditRow } from '../../audit/audit';
import type { AppContext } from '../../context';
import { statusMsg } from '../../sockets/user';
import { findUserByUsername, setUserRank, toWireUser } from '../../users/users';
import { EXPORT_FORMATS, exportLang } from '../../../src/protocol/exports';
import { csvTime, exportLocale, sendTable, type Column } from '../csv';
import { authOf, requireRank } from '../guards';
import { BEARER } from '../openapi';
import { resultErrors } from '../schemas';
import { serve } from '../contract';
import { Invalid, NotFound, TooMany } from '../../errors';

const auditExportQuery = z.extend(auditQuery, exportLang);
/** The audit log's export: the page's columns, in its order. */
const AUDIT_COLUMNS: Column<AuditRow>[] = [
  { title: 'when', value: (e) => csvTime(e.at) },
  { title: 'who', value: (e) => e.actor },
  { title: 'action', value: (e) => e.action },
  { title: 'onWhat', value: (e) => e.target },
  { title: 'detail', value: (e) => JSON.stringify(e.detail) },
];

/** Admin calls an account may make in a minute (a person clicking never comes near; a runaway script does). */
const ADMIN_CALLS_PER_MINUTE = 240;
/** export.zip reads every table: an account may ask for it this often (and one at a time). */
const EXPORTS_PER_HOUR = 6;

function actorOf(request: FastifyRequest): Actor {
  const { user: me } = authOf(request);
  return { id: me.id, name: me.username };
}

function numberOf(text: string): number {
  const parsed = kingdomNumber.safeParse(/^\d{1,6}$/.test(text) ? Number(text) : Number.NaN);
  if (!parsed.success) throw new Invalid(ADMIN_ERRORS.badKingdomNumber);
  return parsed.data;
}

/**
 * Site administration: accounts (rank, disable, enable,
 * sessions), the kingdoms the site knows, the dashboard and the audit log. Admins only, except
 * reading the kingdoms, which leadership's pages (seasons, the scans' kingdom column) need too.
 */
export function adminRoutes(ctx: AppContext) {
  return async (root: FastifyInstance) => {
    const app = root.withTypeProvider<ZodTypeProvider>();
    const perAccount = app.createRateLimit({ max: ADMIN_CALLS_PER_MINUTE, timeWindow: 60_000, keyGenerator: (request) => `admin:${request.auth?.user.id ?? request.ip}` });
    const guard = (access: 'admin' | 'council+admin') => {
      const rank = requireRank(ctx, access);
      return async (request: FastifyRequest) => {
        await rank(request);
        const answer = await perAccount(request);
        if (!answer.isAllowed && answer.isExceeded) throw new TooMany(ADMIN_ERRORS.tooManyCalls);
      };
    };
    const admin = guard('admin');
    const exportsPerAccount = app.createRateLimit({ max: EXPORTS_PER_HOUR, timeWindow: 3_600_000, keyGenerator: (request) => `export:${request.auth?.user.id ?? request.ip}` });
    /** Accounts whose export is being streamed now (in this process). */
    const exporting = new Set<number>();

    serve(app, ADMIN_API.setRank, { preValidation: admin }, async (request) => {
      const { rank } = request.body;
      const target = await findUserByUsername(ctx.db, request.params.username);
      if (!target) throw new NotFound(AUTH_ERRORS.unknownUser);
      const updated = await setUserRank(ctx.db, target.id, rank, actorOf(request), ctx.now());
      request.log.info({ userId: updated.id, rank, by: request.auth?.user.id }, 'rank changed');
      ctx.hub.refreshUser(updated);
      ctx.hub.sendToUser(updated.id, 'user', statusMsg(updated));
      return { result: true as const, user: toWireUser(updated) };
    });

    // ── accounts ──────────────────────────────────────────────────────────────────────────

    serve(app, ADMIN_API.accounts, { preValidation: admin }, async (request) => {
      const query = request.query;
      return { result: true as const, ...(await listAccounts(ctx.db, query)) };
    });

    serve(app, ADMIN_API.disable, { preValidation: admin }, async (request) => {
      const { user: disabled, revoked } = await disableAccount(ctx.db, request.params.username, actorOf(request), ctx.now());
      // the sockets of the revoked sessions closed with the revocation; anything still open of the account closes too
      ctx.hub.closeUser(disabled.id, WS_CLOSE_UNAUTHENTICATED, 'Account disabled');
      request.log.info({ userId: disabled.id, sessions: revoked.length, by: request.auth?.user.id }, 'account disabled');
      return { result: true as const, user: toAdminUser(disabled) };
    });

    serve(app, ADMIN_API.enable, { preValidation: admin }, async (request) => {
      const enabled = await enableAccount(ctx.db, request.params.username, actorOf(request), ctx.now());
      return { result: true as const, user: toAdminUser(enabled) };
    });

    serve(app, ADMIN_API.revokeSessions, { preValidation: admin }, async (request) => {
      const { user: target, revoked } = await revokeAccountSessions(ctx.db, request.params.username, actorOf(request), ctx.now());
      ctx.hub.closeUser(target.id, WS_CLOSE_UNAUTHENTICATED, 'Session revoked');
      return { result: true as const, user: toAdminUser(target), revoked: revoked.length };
    });

    // ── kingdoms ──────────────────────────────────────────────────────────────────────────

    serve(app, ADMIN_API.kingdoms, { preValidation: guard('council+admin') }, async () => ({ result: true as const, kingdoms: await listKingdoms(ctx.db) }));

    serve(app, ADMIN_API.addKingdom, { preValidation: admin }, async (request) => ({ result: true as const, kingdom: await createKingdom(ctx.db, request.body, actorOf(request), ctx.now()) }));

    serve(app, ADMIN_API.editKingdom, { preValidation: admin }, async (request) => {
      const number = numberOf(request.params.number);
      const body = request.body;
      return { result: true as const, kingdom: await editKingdom(ctx.db, number, body, actorOf(request), ctx.now()) };
    });

    serve(app, ADMIN_API.removeKingdom, { preValidation: admin }, async (request) => {
      await removeKingdom(ctx.db, numberOf(request.params.number), actorOf(request), ctx.now());
      return { result: true as const };
    });

    // ── the dashboard and the audit log ───────────────────────────────────────────────────

    serve(app, ADMIN_API.dashboard, { preValidation: admin }, async () => ({ result: true as const, dashboard: await readDashboard(ctx) }));

    app.get(
      '/export.zip',
      {
        preValidation: admin,
        schema: {
          summary:
            'Everything the kingdom owns as CSV files in a zip, with README.txt naming every column: accounts (no password hashes), ledger, items, bids, sales, scans with every governor row, seasons, rules and runs, audit log… Streamed; one at a time and 6 an hour per account',
          tags: ['admin'],
          security: BEARER,
          response: { 200: { description: 'application/zip', type: 'string' }, ...resultErrors(401, 403, 429) },
        },
      },
      async (request, reply) => {
        const me = authOf(request).user.id;
        if (exporting.has(me)) throw new TooMany(ADMIN_ERRORS.exportBusy);
        const allowed = await exportsPerAccount(request);
        if (!allowed.isAllowed && allowed.isExceeded) throw new TooMany(ADMIN_ERRORS.exportTooMany);
        const settings = await ctx.db.selectFrom('kingdom_settings').select('kingdom_name').where('id', '=', 1).executeTakeFirst();
        const at = ctx.now();
        exporting.add(me);
        const stream = exportZip(ctx.db, settings?.kingdom_name ?? 'Kingdom', at);
        // the next export may start once this one is sent, failed or abandoned by the client
        const release = () => exporting.delete(me);
        reply.raw.once('close', release);
        stream.once('error', release);
        const day = new Date(at).toISOString().slice(0, 10);
        return reply
          .code(200)
          .header('content-type', 'application/zip')
          .header('content-disposition', `attachment; filename="kingdom-export-${day}.zip"`)
          .header('cache-control', 'no-store')
          .send(stream);
      },
    );

    serve(app, ADMIN_API.audit, { preValidation: admin }, async (request) => {
      const { page = 1, ...filter } = request.query;
      return { result: true as const, ...(await listAudit(ctx.db, filter, page, AUDIT_PAGE_SIZE)), page, pageSize: AUDIT_PAGE_SIZE };
    });

    for (const format of EXPORT_FORMATS) {
      app.get(
        `/audit.${format}`,
        {
          preValidation: admin,
          schema: {
            summary: `Every entry the filters match, newest first, as ${format === 'csv' ? "CSV (UTF-8 with BOM; formula-like text prefixed with ')" : 'an XLSX workbook'}, the columns titled as the page titles them in the reader's language (lang, else the account's). Same filters as GET /audit.`,
            tags: ['admin'],
            security: BEARER,
            querystring: auditExportQuery,
            response: { 200: { description: format === 'csv' ? 'text/csv' : 'XLSX', type: 'string' }, ...resultErrors(400, 401, 403, 429) },
          },
        },
        async (request, reply) => {
          const { page: _page, lang, ...filter } = request.query;
          return sendTable(reply, format, 'audit', exportLocale(request, lang), AUDIT_COLUMNS, allAudit(ctx.db, filter));
        },
      );
    }
  };
}

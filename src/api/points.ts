import * as z from 'zod/mini';
import {
  TRANSACTION_KINDS,
  bulkPreview,
  ledgerCheck,
  pointsPlayer,
  transaction,
  type BulkPreview,
  type LedgerCheck,
  type PointsPlayer,
  type TransactionBody,
  type TransactionKind,
} from '../protocol/points';
import { answer, bearer, csvBlob, params, restClient } from './rest';

/** The points ledger's back office (council and admin; the ledger check is admin only). */
const paged = { page: z.int(), pageSize: z.int(), total: z.int() };

const playersAnswer = z.object({
  result: z.literal(true),
  players: z.array(pointsPlayer),
  page: z.optional(z.int()),
  pageSize: z.optional(z.int()),
  total: z.optional(z.int()),
});
const grantAnswer = z.object({ result: z.literal(true), transaction, balance: z.int() });
const transactionsAnswer = z.object({ result: z.literal(true), transactions: z.array(transaction), ...paged });
const bulkPreviewAnswer = z.object({ result: z.literal(true), ...bulkPreview.shape });
const bulkApplyAnswer = z.object({ result: z.literal(true), applied: z.int() });
const ledgerCheckAnswer = z.object({ result: z.literal(true), ...ledgerCheck.shape });

export { TRANSACTION_KINDS, type BulkPreview, type LedgerCheck, type PointsPlayer, type TransactionKind };

/** The transaction list's filters; from/to are epoch ms, inclusive. */
export interface TransactionFilters {
  username?: string;
  kind?: TransactionKind;
  actor?: string;
  from?: number;
  to?: number;
}

export interface PointsApi {
  players(token: string, q: string, page?: number): Promise<z.infer<typeof playersAnswer>>;
  change(token: string, body: TransactionBody): Promise<z.infer<typeof grantAnswer>>;
  transactions(token: string, filters: TransactionFilters, page?: number): Promise<z.infer<typeof transactionsAnswer>>;
  transactionsCsv(token: string, filters: TransactionFilters): Promise<{ blob: Blob; filename: string | null }>;
  bulkPreview(token: string, file: File): Promise<BulkPreview>;
  bulkApply(token: string, previewToken: string): Promise<number>;
  ledgerCheck(token: string): Promise<LedgerCheck>;
}

const filterParams = (f: TransactionFilters) => params({ username: f.username?.trim(), kind: f.kind, actor: f.actor?.trim(), from: f.from, to: f.to });

export function createPointsApi(baseUrl: string): PointsApi {
  const client = restClient(baseUrl);
  return {
    async players(token, q, page = 1) {
      return answer(await client.get('points/players', { headers: bearer(token), searchParams: params({ q: q.trim(), page }) }), playersAnswer);
    },
    async change(token, body) {
      return answer(await client.post('points/transactions', { headers: bearer(token), json: body }), grantAnswer);
    },
    async transactions(token, filters, page = 1) {
      return answer(await client.get('points/transactions', { headers: bearer(token), searchParams: { ...filterParams(filters), page: String(page) } }), transactionsAnswer);
    },
    async transactionsCsv(token, filters) {
      return csvBlob(await client.get('points/transactions.csv', { headers: bearer(token), searchParams: filterParams(filters), timeout: 120_000 }));
    },
    async bulkPreview(token, file) {
      const body = new FormData();
      body.append('file', file, file.name);
      const { result: _, ...preview } = await answer(await client.post('points/bulk/preview', { headers: bearer(token), body, timeout: 60_000 }), bulkPreviewAnswer);
      return preview;
    },
    async bulkApply(token, previewToken) {
      return (await answer(await client.post('points/bulk/apply', { headers: bearer(token), json: { token: previewToken }, timeout: 60_000 }), bulkApplyAnswer)).applied;
    },
    async ledgerCheck(token) {
      const { result: _, ...check } = await answer(await client.get('points/ledger-check', { headers: bearer(token), timeout: 60_000 }), ledgerCheckAnswer);
      return check;
    },
  };
}

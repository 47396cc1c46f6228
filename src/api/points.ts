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
import type { KyInstance } from 'ky';
import { answer, csvBlob, params, type ExportFile } from './rest';

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
  players(q: string, page?: number): Promise<z.infer<typeof playersAnswer>>;
  change(body: TransactionBody): Promise<z.infer<typeof grantAnswer>>;
  transactions(filters: TransactionFilters, page?: number): Promise<z.infer<typeof transactionsAnswer>>;
  transactionsFile(filters: TransactionFilters, file: ExportFile): Promise<{ blob: Blob; filename: string | null }>;
  bulkPreview(file: File): Promise<BulkPreview>;
  bulkApply(previewToken: string): Promise<number>;
  ledgerCheck(): Promise<LedgerCheck>;
}

const filterParams = (f: TransactionFilters) => params({ username: f.username?.trim(), kind: f.kind, actor: f.actor?.trim(), from: f.from, to: f.to });

export function createPointsApi(client: KyInstance): PointsApi {
  return {
    async players(q, page = 1) {
      return answer(await client.get('points/players', { searchParams: params({ q: q.trim(), page }) }), playersAnswer);
    },
    async change(body) {
      return answer(await client.post('points/transactions', { json: body }), grantAnswer);
    },
    async transactions(filters, page = 1) {
      return answer(await client.get('points/transactions', { searchParams: { ...filterParams(filters), page: String(page) } }), transactionsAnswer);
    },
    async transactionsFile(filters, file) {
      return csvBlob(await client.get(`points/transactions.${file.format}`, { searchParams: { ...filterParams(filters), lang: file.lang }, timeout: 120_000 }));
    },
    async bulkPreview(file) {
      const body = new FormData();
      body.append('file', file, file.name);
      const { result: _, ...preview } = await answer(await client.post('points/bulk/preview', { body, timeout: 60_000 }), bulkPreviewAnswer);
      return preview;
    },
    async bulkApply(previewToken) {
      return (await answer(await client.post('points/bulk/apply', { json: { token: previewToken }, timeout: 60_000 }), bulkApplyAnswer)).applied;
    },
    async ledgerCheck() {
      const { result: _, ...check } = await answer(await client.get('points/ledger-check', { timeout: 60_000 }), ledgerCheckAnswer);
      return check;
    },
  };
}

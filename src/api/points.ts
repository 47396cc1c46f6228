import {
  POINTS_API,
  TRANSACTION_KINDS,
  bulkPreviewAnswer,
  type BulkPreview,
  type LedgerCheck,
  type PointsPlayer,
  type TransactionBody,
  type TransactionKind,
} from '../protocol/points';
import type { AnswerOf } from '../protocol/endpoint';
import type { KyInstance } from 'ky';
import { call, keyOf, scopeOf } from './contract';
import { answer, csvBlob, params, type ExportFile } from './rest';

/** The points ledger's back office (council and admin; the ledger check is admin only). */
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
  players(q: string, page?: number): Promise<AnswerOf<typeof POINTS_API.players>>;
  change(body: TransactionBody): Promise<AnswerOf<typeof POINTS_API.change>>;
  transactions(filters: TransactionFilters, page?: number): Promise<AnswerOf<typeof POINTS_API.transactions>>;
  transactionsFile(filters: TransactionFilters, file: ExportFile): Promise<{ blob: Blob; filename: string | null }>;
  bulkPreview(file: File): Promise<BulkPreview>;
  bulkApply(previewToken: string): Promise<number>;
  ledgerCheck(): Promise<LedgerCheck>;
}

const filterParams = (f: TransactionFilters) => params({ username: f.username?.trim(), kind: f.kind, actor: f.actor?.trim(), from: f.from, to: f.to });

export function createPointsApi(client: KyInstance): PointsApi {
  return {
    players: (q, page = 1) => call(client, POINTS_API.players, { query: { q: q.trim(), page } }),
    change: (body) => call(client, POINTS_API.change, { body }),
    transactions: (filters, page = 1) => call(client, POINTS_API.transactions, { query: { ...filterParams(filters), page } }),
    async transactionsFile(filters, file) {
      return csvBlob(await client.get(`points/transactions.${file.format}`, { searchParams: { ...filterParams(filters), lang: file.lang }, timeout: 120_000 }));
    },
    async bulkPreview(file) {
      const body = new FormData();
      body.append('file', file, file.name);
      const { result: _, ...preview } = await answer(await client.post('points/bulk/preview', { body, timeout: 60_000 }), bulkPreviewAnswer);
      return preview;
    },
    bulkApply: async (previewToken) => (await call(client, POINTS_API.bulkApply, { body: { token: previewToken } }, { timeout: 60_000 })).applied,
    async ledgerCheck() {
      const { result: _, ...check } = await call(client, POINTS_API.ledgerCheck, {}, { timeout: 60_000 });
      return check;
    },
  };
}

/** The points ledger's query keys: a page reads and invalidates these, never a key of its own. */
export const pointsKeys = {
  /** Everything under points (the ledger, the players, automatic points): what a booking refreshes. */
  all: scopeOf(POINTS_API.players),
  players: (q: string, page: number) => keyOf(POINTS_API.players, { query: { q: q.trim(), page } }),
  transactions: (filters: TransactionFilters, page: number) => keyOf(POINTS_API.transactions, { query: { ...filterParams(filters), page } }),
} as const;

import type { KyInstance } from 'ky';
import * as z from 'zod/mini';
import {
  accountAnswer,
  accountsAnswer,
  auditAnswer,
  dashboardAnswer,
  kingdomAnswer,
  kingdomsAnswer,
  revokeAnswer,
  type AccountsPage,
  type AdminUser,
  type AuditPage,
  type Dashboard,
  type Kingdom,
  type KingdomBody,
  type KingdomEditBody,
} from '../protocol/admin';
import { user, type User } from '../protocol/auth';
import type { Rank } from '../protocol/ranks';
import { answer, csvBlob, params, type ExportFile } from './rest';

/** Site administration: accounts, the kingdoms the site knows, the dashboard and the audit log. */
export type { AccountsPage, AdminUser, AuditPage, Dashboard, Kingdom, KingdomBody, KingdomEditBody };

export interface AccountsFilter {
  q?: string;
  rank?: Rank | '';
  page?: number;
}

export interface AuditFilter {
  actor?: string;
  action?: string;
  page?: number;
}

const rankAnswer = z.object({ result: z.literal(true), user });
const okAnswer = z.object({ result: z.literal(true) });

export interface AdminApi {
  accounts(filter: AccountsFilter): Promise<AccountsPage>;
  setRank(username: string, rank: Rank): Promise<User>;
  disable(username: string): Promise<AdminUser>;
  enable(username: string): Promise<AdminUser>;
  revokeSessions(username: string): Promise<{ user: AdminUser; revoked: number }>;
  kingdoms(): Promise<Kingdom[]>;
  addKingdom(body: KingdomBody): Promise<Kingdom>;
  editKingdom(number: number, body: KingdomEditBody): Promise<Kingdom>;
  removeKingdom(number: number): Promise<void>;
  dashboard(): Promise<Dashboard>;
  audit(filter: AuditFilter): Promise<AuditPage>;
  auditFile(filter: AuditFilter, file: ExportFile): Promise<{ blob: Blob; filename: string | null }>;
  /** Everything the kingdom owns: CSV files in a zip (GET /export.zip). */
  exportZip(): Promise<{ blob: Blob; filename: string | null }>;
}

export function createAdminApi(http: KyInstance): AdminApi {
  const account = (username: string) => `accounts/${encodeURIComponent(username)}`;
  const auditParams = (f: AuditFilter) => params({ actor: f.actor?.trim(), action: f.action?.trim(), page: f.page });
  return {
    async accounts(f) {
      return answer(await http.get('accounts', { searchParams: params({ q: f.q?.trim(), rank: f.rank, page: f.page }) }), accountsAnswer);
    },
    async setRank(username, rank) {
      return (await answer(await http.post(`admin/users/${encodeURIComponent(username)}/rank`, { json: { rank } }), rankAnswer)).user;
    },
    async disable(username) {
      return (await answer(await http.post(`${account(username)}/disable`), accountAnswer)).user;
    },
    async enable(username) {
      return (await answer(await http.post(`${account(username)}/enable`), accountAnswer)).user;
    },
    async revokeSessions(username) {
      const { user: changed, revoked } = await answer(await http.post(`${account(username)}/revoke-sessions`), revokeAnswer);
      return { user: changed, revoked };
    },
    async kingdoms() {
      return (await answer(await http.get('kingdoms'), kingdomsAnswer)).kingdoms;
    },
    async addKingdom(body) {
      return (await answer(await http.post('kingdoms', { json: body }), kingdomAnswer)).kingdom;
    },
    async editKingdom(number, body) {
      return (await answer(await http.put(`kingdoms/${number}`, { json: body }), kingdomAnswer)).kingdom;
    },
    async removeKingdom(number) {
      await answer(await http.delete(`kingdoms/${number}`), okAnswer);
    },
    async dashboard() {
      return (await answer(await http.get('admin/dashboard'), dashboardAnswer)).dashboard;
    },
    async audit(f) {
      return answer(await http.get('audit', { searchParams: auditParams(f) }), auditAnswer);
    },
    async auditFile(f, file) {
      return csvBlob(await http.get(`audit.${file.format}`, { searchParams: { ...auditParams({ ...f, page: undefined }), lang: file.lang }, timeout: 120_000 }));
    },
    async exportZip() {
      // a large kingdom's scans take a while to write out
      return csvBlob(await http.get('export.zip', { timeout: 600_000 }));
    },
  };
}

import type { KyInstance } from 'ky';
import {
  ADMIN_API,
  type AccountsPage,
  type AdminUser,
  type AuditPage,
  type Dashboard,
  type Kingdom,
  type KingdomBody,
  type KingdomEditBody,
} from '../protocol/admin';
import type { User } from '../protocol/auth';
import type { Rank } from '../protocol/ranks';
import { call, keyOf } from './contract';
import { csvBlob, params, type ExportFile } from './rest';

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

const accountsQuery = (f: AccountsFilter) => params({ q: f.q?.trim(), rank: f.rank, page: f.page });
const auditQuery = (f: AuditFilter) => params({ actor: f.actor?.trim(), action: f.action?.trim(), page: f.page });

export function createAdminApi(http: KyInstance): AdminApi {
  return {
    accounts: (f) => call(http, ADMIN_API.accounts, { query: accountsQuery(f) }),
    setRank: async (username, rank) => (await call(http, ADMIN_API.setRank, { params: { username }, body: { rank } })).user,
    disable: async (username) => (await call(http, ADMIN_API.disable, { params: { username } })).user,
    enable: async (username) => (await call(http, ADMIN_API.enable, { params: { username } })).user,
    revokeSessions: async (username) => {
      const { user: changed, revoked } = await call(http, ADMIN_API.revokeSessions, { params: { username } });
      return { user: changed, revoked };
    },
    kingdoms: async () => (await call(http, ADMIN_API.kingdoms)).kingdoms,
    addKingdom: async (body) => (await call(http, ADMIN_API.addKingdom, { body })).kingdom,
    editKingdom: async (number, body) => (await call(http, ADMIN_API.editKingdom, { params: { number }, body })).kingdom,
    removeKingdom: async (number) => void (await call(http, ADMIN_API.removeKingdom, { params: { number } })),
    dashboard: async () => (await call(http, ADMIN_API.dashboard)).dashboard,
    audit: (f) => call(http, ADMIN_API.audit, { query: auditQuery(f) }),
    async auditFile(f, file) {
      return csvBlob(await http.get(`audit.${file.format}`, { searchParams: { ...auditQuery({ ...f, page: undefined }), lang: file.lang }, timeout: 120_000 }));
    },
    async exportZip() {
      // a large kingdom's scans take a while to write out
      return csvBlob(await http.get('export.zip', { timeout: 600_000 }));
    },
  };
}

/** Site administration's query keys: a page reads and invalidates these, never a key of its own. */
export const adminKeys = {
  /** Every page of the accounts list. */
  accounts: keyOf(ADMIN_API.accounts),
  accountsPage: (f: AccountsFilter) => keyOf(ADMIN_API.accounts, { query: accountsQuery(f) }),
  kingdoms: keyOf(ADMIN_API.kingdoms),
  dashboard: keyOf(ADMIN_API.dashboard),
  audit: (f: AuditFilter) => keyOf(ADMIN_API.audit, { query: auditQuery(f) }),
} as const;

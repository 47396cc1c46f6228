import type { KyInstance } from 'ky';
import { ACCOUNT_API } from '../protocol/account';
import type { ChangePasswordBody, User } from '../protocol/auth';
import type { Locale } from '../protocol/locales';
import { call, keyOf } from './contract';

/** The signed-in account's own calls: its password, its language and the groups it belongs to. */
export interface AccountApi {
  changePassword(body: ChangePasswordBody): Promise<void>;
  setLocale(locale: Locale): Promise<User>;
  /** The names of the eligibility groups the caller belongs to. */
  groups(): Promise<string[]>;
}

export function createAccountApi(client: KyInstance): AccountApi {
  return {
    changePassword: async (body) => void (await call(client, ACCOUNT_API.password, { body })),
    setLocale: async (locale) => (await call(client, ACCOUNT_API.locale, { body: { locale } })).user,
    groups: async () => (await call(client, ACCOUNT_API.groups)).groups,
  };
}

/** The account's query keys: a page reads and invalidates these, never a key of its own. */
export const accountKeys = {
  groups: keyOf(ACCOUNT_API.groups),
} as const;

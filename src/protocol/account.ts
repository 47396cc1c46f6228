import * as z from 'zod/mini';
import { changePasswordBody, localeBody, user } from './auth';
import { endpoint, okAnswer, resultTrue } from './endpoint';

/** The signed-in account's own routes: its password, its language and the groups it belongs to. */
export const ACCOUNT_API = {
  password: endpoint({
    method: 'POST',
    path: 'account/password',
    body: changePasswordBody,
    answer: okAnswer,
    errors: [400, 401, 429],
    tag: 'account',
    summary: "Change the password; the account's other sessions are signed out",
  }),
  locale: endpoint({
    method: 'POST',
    path: 'account/locale',
    body: localeBody,
    answer: resultTrue({ user }),
    errors: [400, 401],
    tag: 'account',
    summary: 'Set the interface language',
  }),
  groups: endpoint({
    method: 'GET',
    path: 'account/groups',
    answer: resultTrue({ groups: z.array(z.string()) }),
    errors: [401],
    tag: 'account',
    summary: 'The names of the eligibility groups the caller belongs to, by name',
  }),
} as const;

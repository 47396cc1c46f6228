import * as z from 'zod/mini';
import { loginBody, loginRefusal, loginSuccess, meRefusal, meSuccess, registerBody, statusAnswer } from './auth';
import { endpoint } from './endpoint';

/** `{status:'error', error}`: how sign-up and sign-out refuse. */
export const statusRefusal = z.object({ status: z.literal('error'), error: z.string() });

/**
 * The sign-in routes: register, login, me, logout. Their refusals are not `{result:false, error}`
 * but each route's own envelope (`refusal`), and the client reads them apart (a refused token on me
 * is the session's end: src/api/client.ts).
 */
export const AUTH_API = {
  register: endpoint({
    method: 'POST',
    path: 'auth/register',
    body: registerBody,
    answer: z.object({ status: z.literal('success') }),
    errors: [400, 409, 429, 503],
    refusal: { envelope: 'status', schema: statusRefusal },
    summary:
      'Create an account; the first account on an empty database is the admin. A governor id belongs to one account (409 when another has it); usernames are stored in NFKC and may not hold invisible, control or direction characters, be digits only, or look like server, system or admin.',
    description: 'Limited per client address (60 an hour by default); over the limit answers 429.',
    tag: 'auth',
    open: true,
  }),
  login: endpoint({
    method: 'POST',
    path: 'auth/login',
    body: loginBody,
    answer: loginSuccess,
    errors: [400, 401, 403, 429, 503],
    refusal: { envelope: 'login', schema: loginRefusal },
    summary:
      "Sign in; answers an access token (30 days) for the Authorization header and the sockets. A disabled account gets 403. An optional locale (the language picked on the sign-in page) becomes the account's.",
    description: 'Limited per email and per client address; over the limit answers 429.',
    tag: 'auth',
    open: true,
  }),
  me: endpoint({
    method: 'POST',
    path: 'auth/me',
    answer: meSuccess,
    errors: [401],
    refusal: { envelope: 'me', schema: meRefusal },
    summary: 'The signed-in account',
    tag: 'auth',
  }),
  logout: endpoint({
    method: 'GET',
    path: 'auth/logout',
    answer: statusAnswer,
    errors: [401],
    refusal: { envelope: 'status', schema: statusRefusal },
    summary: 'Sign out: the token stops working everywhere and its sockets close (code 4401)',
    tag: 'auth',
  }),
};

import type { KyInstance, Options } from 'ky';
import * as z from 'zod/mini';
import type { RegisterBody, User } from '../protocol/auth';
import { AUTH_API } from '../protocol/auth-api';
import { pathOf } from '../protocol/endpoint';

/** An API call that failed: the server's text (or what went wrong) and the HTTP status when there was one. */
export class ApiError extends Error {
  /** The HTTP status of the answer, when there was one (a 404 "never scanned" reads differently from a failure). */
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/**
 * The server refused the token (401): the session is over. The auth machine tells it by its
 * plain `status` (machines import nothing from the API layer).
 */
export class UnauthorizedError extends ApiError {
  constructor(message: string) {
    super(message, 401);
  }
}

/**
 * The session's REST calls. Signing in and registering carry no token; `me` and `logout` carry
 * the token the auth machine names (a new one is checked before it is kept). The account's own
 * calls (password, language, groups) are src/api/account.ts.
 */
export interface Api {
  /** `locale`: the language picked on the sign-in page, when one was (it becomes the account's). */
  login(body: { email: string; password: string; locale?: string }): Promise<string>;
  me(token: string): Promise<User>;
  logout(token: string): Promise<void>;
  register(body: RegisterBody): Promise<void>;
}

const SERVER_UNREADABLE = 'The server sent an answer this app cannot read.';

async function read<S extends z.ZodMiniType>(response: Response, schema: S): Promise<z.infer<S>> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new ApiError(response.ok ? SERVER_UNREADABLE : `${response.status} ${response.statusText}`, response.status);
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ApiError(SERVER_UNREADABLE, response.status);
  return parsed.data;
}

/** A sign-in route's call from its contract (AUTH_API): its answer, or its refusal in the route's own envelope. */
type AuthEndpoint = (typeof AUTH_API)[keyof typeof AUTH_API];

export function createApi(client: KyInstance): Api {
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const send = <E extends AuthEndpoint>(e: E, options: Options = {}) => client(pathOf(e), { ...options, method: e.method.toLowerCase() });

  return {
    async login(body) {
      const response = await send(AUTH_API.login, { json: body });
      const answer = await read(response, z.union([AUTH_API.login.answer, AUTH_API.login.refusal.schema]));
      if (!answer.result) throw new ApiError(answer.error, response.status);
      return answer.token.access_token;
    },
    async me(token) {
      const response = await send(AUTH_API.me, { headers: bearer(token) });
      const answer = await read(response, z.union([AUTH_API.me.answer, AUTH_API.me.refusal.schema]));
      if (!answer.result) {
        if (response.status === 401) throw new UnauthorizedError(answer.error);
        throw new ApiError(answer.error, response.status);
      }
      return answer.user;
    },
    async logout(token) {
      const response = await send(AUTH_API.logout, { headers: bearer(token) });
      const answer = await read(response, z.union([AUTH_API.logout.answer, AUTH_API.logout.refusal.schema]));
      if (answer.status !== 'success') throw new ApiError(answer.error ?? answer.status, response.status);
    },
    async register(body) {
      const response = await send(AUTH_API.register, { json: body });
      const answer = await read(response, z.union([AUTH_API.register.answer, AUTH_API.register.refusal.schema]));
      if (answer.status !== 'success') throw new ApiError(answer.error, response.status);
    },
  };
}

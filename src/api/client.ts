import ky, { type KyInstance } from 'ky';
import * as z from 'zod/mini';
import {
  loginAnswer,
  meAnswer,
  resultAnswer,
  statusAnswer,
  user as userSchema,
  type ChangePasswordBody,
  type RegisterBody,
  type User,
} from '../protocol/auth';
import { UnauthorizedError } from '../machines/auth.machine';

/** The REST client: JSON, bearer token, answers checked against the shared schemas. */
export class ApiError extends Error {
  /** The HTTP status of the answer, when there was one (a 404 "never scanned" reads differently from a failure). */
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface Api {
  login(body: { email: string; password: string }): Promise<string>;
  me(token: string): Promise<User>;
  logout(token: string): Promise<void>;
  register(body: RegisterBody): Promise<void>;
  changePassword(token: string, body: ChangePasswordBody): Promise<void>;
  setLocale(token: string, locale: string): Promise<User>;
}

const SERVER_UNREADABLE = 'The server sent an answer this app cannot read.';

async function read<S extends z.ZodMiniType>(response: Response, schema: S): Promise<z.infer<S>> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new ApiError(response.ok ? SERVER_UNREADABLE : `${response.status} ${response.statusText}`);
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ApiError(SERVER_UNREADABLE);
  return parsed.data;
}

export function createApi(baseUrl: string, http: KyInstance = ky): Api {
  const client = http.create({ prefixUrl: baseUrl, throwHttpErrors: false, timeout: 15_000, retry: 0 });
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

  return {
    async login(body) {
      const answer = await read(await client.post('auth/login', { json: body }), loginAnswer);
      if (!answer.result) throw new ApiError(answer.error);
      return answer.token.access_token;
    },
    async me(token) {
      const response = await client.post('auth/me', { headers: bearer(token) });
      const answer = await read(response, meAnswer);
      if (!answer.result) {
        if (response.status === 401) throw new UnauthorizedError(answer.error);
        throw new ApiError(answer.error);
      }
      return answer.user;
    },
    async logout(token) {
      const answer = await read(await client.get('auth/logout', { headers: bearer(token) }), statusAnswer);
      if (answer.status !== 'success') throw new ApiError(answer.error ?? answer.status);
    },
    async register(body) {
      const answer = await read(await client.post('auth/register', { json: body }), statusAnswer);
      if (answer.status !== 'success') throw new ApiError(answer.error ?? answer.status);
    },
    async changePassword(token, body) {
      const answer = await read(await client.post('account/password', { json: body, headers: bearer(token) }), resultAnswer);
      if (!answer.result) throw new ApiError(answer.error ?? SERVER_UNREADABLE);
    },
    async setLocale(token, locale) {
      const answer = await read(await client.post('account/locale', { json: { locale }, headers: bearer(token) }), resultAnswer);
      if (!answer.result) throw new ApiError(answer.error ?? SERVER_UNREADABLE);
      const parsed = userSchema.safeParse(answer.user);
      if (!parsed.success) throw new ApiError(SERVER_UNREADABLE);
      return parsed.data;
    },
  };
}

import ky, { type KyInstance } from 'ky';

/**
 * The one REST core. Every API module is a function of this instance and never sees
 * a token: the `beforeRequest` hook adds the signed-in user's bearer token, and the `afterResponse`
 * hook reports every 401 to the session, which signs the user out the same way whichever call met it.
 * Calls that carry their own Authorization header (signing in, `auth/me` with a new token) keep it.
 */
export interface Session {
  /** The current bearer token, or null when nobody is signed in. */
  token(): string | null;
  /** A call was refused with 401: the session is over (the auth actor decides how to end it). */
  unauthorized(): void;
}

export const REQUEST_TIMEOUT_MS = 15_000;

export function createHttp(baseUrl: string, session: Session, base: KyInstance = ky): KyInstance {
  return base.extend({
    prefixUrl: baseUrl,
    throwHttpErrors: false,
    timeout: REQUEST_TIMEOUT_MS,
    retry: 0,
    hooks: {
      beforeRequest: [
        (request) => {
          if (request.headers.has('Authorization')) return;
          const token = session.token();
          if (token) request.headers.set('Authorization', `Bearer ${token}`);
        },
      ],
      afterResponse: [
        (request, _options, response) => {
          if (response.status === 401 && request.headers.has('Authorization')) session.unauthorized();
        },
      ],
    },
  });
}

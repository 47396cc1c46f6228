import { AUTH_ERRORS } from '../../src/protocol/auth';
import { HTTP_ERRORS } from '../../src/protocol/http';
import { PasswordsBusyError } from '../auth/passwords';
import { DomainError, type DomainErrorKind } from '../errors';

/** Texts of the server's own HTTP errors: on the wire contract, so the client can translate them. */
export { HTTP_ERRORS };

/** How a route answers, so its errors keep the route's shape (the wire contract). */
export type AnswerShape = 'status' | 'login' | 'me' | 'result';

export function errorAnswer(shape: AnswerShape, error: string): Record<string, unknown> {
  switch (shape) {
    case 'status':
      return { status: 'error', error };
    case 'login':
      return { result: false, token: null, error };
    case 'me':
      return { result: false, user: null, error };
    default:
      return { result: false, error };
  }
}

/** The HTTP status of each kind of domain error: the one place domain refusals meet HTTP. */
export const STATUS_OF: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'too-many': 429,
  unavailable: 503,
  upstream: 502,
};

/**
 * An error with a status and a text meant for the client, for the HTTP layer's own refusals (a body
 * that is not JSON). Domain code throws a DomainError (server/errors.ts) instead.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** Status and text for any error a route or Fastify raised; never a stack. */
export function classifyError(error: unknown): { statusCode: number; message: string } {
  if (error instanceof DomainError) return { statusCode: STATUS_OF[error.kind], message: error.message };
  if (error instanceof HttpError) return { statusCode: error.statusCode, message: error.message };
  // a flood of sign-ups or sign-ins filled the password-hashing queue: try again, nothing was done
  if (error instanceof PasswordsBusyError) return { statusCode: 503, message: HTTP_ERRORS.busy };
  const { code, statusCode } = (error ?? {}) as { code?: unknown; statusCode?: unknown };
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return { statusCode: 413, message: HTTP_ERRORS.bodyTooLarge };
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return { statusCode: 415, message: HTTP_ERRORS.jsonOnly };
  if (typeof code === 'string' && code.startsWith('FST_ERR_CTP_')) return { statusCode: 400, message: AUTH_ERRORS.invalidBody };
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    return { statusCode, message: HTTP_ERRORS.badRequest };
  }
  return { statusCode: 500, message: HTTP_ERRORS.internal };
}

import type { FastifyInstance } from 'fastify';
import { AUTH_ERRORS } from '../../src/protocol/auth';
import { HttpError } from './errors';

/** Largest REST body; a larger one gets a 400. */
export const BODY_LIMIT = 16 * 1024;

/**
 * JSON only: any other content type is refused (400 via the error handler). An empty JSON body is
 * "no body" (POST auth/me has none), and malformed JSON is a 400 with our text.
 */
export function acceptJsonOnly(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (request, body, done) => {
    if (typeof body !== 'string' || body.trim() === '') return done(null, undefined);
    parseJson(request, body, (error, value) => {
      if (error) done(new HttpError(400, AUTH_ERRORS.invalidBody), undefined);
      else done(null, value);
    });
  });
}

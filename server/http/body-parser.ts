import type { FastifyInstance } from 'fastify';
import { AUTH_ERRORS } from '../../src/protocol/auth';
import { HTTP_ERRORS, HttpError } from './errors';

/** Largest REST body; a larger one gets a 413. */
export const BODY_LIMIT = 16 * 1024;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * JSON only: any other content type is refused (415 via the error handler). An empty JSON body is
 * "no body" (POST auth/me has none), malformed JSON is a 400 with our text, and so is a body that is
 * not valid UTF-8 (decoded strictly: never stored with replacement characters in it).
 */
export function acceptJsonOnly(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (request, body, done) => {
    let text: string;
    try {
      text = strictUtf8.decode(body as Buffer);
    } catch {
      return done(new HttpError(400, HTTP_ERRORS.invalidUtf8), undefined);
    }
    if (text.trim() === '') return done(null, undefined);
    parseJson(request, text, (error, value) => {
      if (error) done(new HttpError(400, AUTH_ERRORS.invalidBody), undefined);
      else done(null, value);
    });
  });
}

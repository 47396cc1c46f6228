import { describe, expect, it } from 'vitest';
import { AUTH_ERRORS } from '../../src/protocol/auth';
import { Conflict, Forbidden, Invalid, NotFound, restated, TooMany, Unauthenticated, Unavailable } from '../../server/errors';
import { classifyError, errorAnswer, HTTP_ERRORS, HttpError } from '../../server/http/errors';
import { rankAllows } from '../../server/http/guards';

describe('classifyError', () => {
  it('keeps our own errors', () => {
    expect(classifyError(new HttpError(409, AUTH_ERRORS.emailTaken))).toEqual({ statusCode: 409, message: AUTH_ERRORS.emailTaken });
  });

  it('maps each kind of domain error to its status, with its own text', () => {
    const cases = [
      [new Invalid('a'), 400],
      [new Unauthenticated('b'), 401],
      [new Forbidden('c'), 403],
      [new NotFound('d'), 404],
      [new Conflict('e'), 409],
      [new TooMany('f'), 429],
      [new Unavailable('g'), 503],
    ] as const;
    for (const [error, statusCode] of cases) expect(classifyError(error)).toEqual({ statusCode, message: error.message });
  });

  it('restates a domain error with another text and the same status', () => {
    const again = restated(new Conflict('below reserved'), 'Line 2: below reserved');
    expect(again).toBeInstanceOf(Conflict);
    expect(classifyError(again)).toEqual({ statusCode: 409, message: 'Line 2: below reserved' });
  });

  it('turns body-parsing errors into 413 (too large), 415 (not JSON) and 400 (the rest)', () => {
    expect(classifyError(Object.assign(new Error('x'), { code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 }))).toEqual({
      statusCode: 413,
      message: HTTP_ERRORS.bodyTooLarge,
    });
    expect(classifyError(Object.assign(new Error('x'), { code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE', statusCode: 415 }))).toEqual({
      statusCode: 415,
      message: HTTP_ERRORS.jsonOnly,
    });
    expect(classifyError(Object.assign(new Error('x'), { code: 'FST_ERR_CTP_EMPTY_JSON_BODY', statusCode: 400 }))).toEqual({
      statusCode: 400,
      message: AUTH_ERRORS.invalidBody,
    });
  });

  it('never shows the text of an unexpected error', () => {
    const answer = classifyError(new Error('SQLITE_IOERR at /secret/path'));
    expect(answer).toEqual({ statusCode: 500, message: HTTP_ERRORS.internal });
  });
});

describe('errorAnswer', () => {
  it('keeps each route family’s shape', () => {
    expect(errorAnswer('status', 'x')).toEqual({ status: 'error', error: 'x' });
    expect(errorAnswer('login', 'x')).toEqual({ result: false, token: null, error: 'x' });
    expect(errorAnswer('me', 'x')).toEqual({ result: false, user: null, error: 'x' });
    expect(errorAnswer('result', 'x')).toEqual({ result: false, error: 'x' });
  });
});

describe('rankAllows', () => {
  it.each([
    ['user', 'signed-in', true],
    ['user', 'council+admin', false],
    ['council', 'council+admin', true],
    ['council', 'admin', false],
    ['admin', 'admin', true],
    ['admin', 'council+admin', true],
    ['king', 'council+admin', false],
    ['king', 'signed-in', true],
  ] as const)('%s for %s: %s', (rank, access, allowed) => {
    expect(rankAllows(rank, access)).toBe(allowed);
  });
});

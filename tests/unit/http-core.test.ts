import ky from 'ky';
import { describe, expect, it } from 'vitest';
import { ApiError, UnauthorizedError, createApi } from '../../src/api/client';
import { createAccountApi } from '../../src/api/account';
import { createHttp } from '../../src/api/http';
import { createKingdomApi } from '../../src/api/kingdom';
import { createPointsApi } from '../../src/api/points';
import { createScansApi } from '../../src/api/scans';
import { createStoreApi } from '../../src/api/store';
import { createStoreOfficeApi } from '../../src/api/store-office';
import { DEFAULT_SETTINGS as settings } from '../../src/protocol/settings';

/** A fetch that records each request's Authorization header and answers from a table. */
function fakeServer(answers: Record<string, { status: number; body: unknown }>) {
  const seen: { path: string; authorization: string | null }[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const path = new URL(request.url).pathname;
    seen.push({ path, authorization: request.headers.get('Authorization') });
    const answer = answers[path] ?? { status: 404, body: { result: false, error: 'Not found' } };
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json' } });
  };
  return { seen, base: ky.create({ fetch }) };
}


describe('the one REST core', () => {
  it('adds the current token by a hook, so API modules take no token', async () => {
    const server = fakeServer({ '/kingdom/settings': { status: 200, body: { result: true, settings } } });
    let token: string | null = 'first';
    const http = createHttp('http://kingdom.test/', { token: () => token, unauthorized: () => {} }, server.base);
    const kingdom = createKingdomApi(http);
    expect(await kingdom.settings()).toEqual(settings);
    token = 'second';
    await kingdom.settings();
    token = null;
    await kingdom.settings();
    expect(server.seen.map((s) => s.authorization)).toEqual(['Bearer first', 'Bearer second', null]);
  });

  it('reports every 401 to the session once, and the error carries its status', async () => {
    const server = fakeServer({ '/account/groups': { status: 401, body: { result: false, error: 'Your session has ended.' } } });
    let signedOut = 0;
    const http = createHttp('http://kingdom.test/', { token: () => 't', unauthorized: () => signedOut++ }, server.base);
    const error = await createAccountApi(http).groups().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(401);
    expect((error as ApiError).message).toBe('Your session has ended.');
    expect(signedOut).toBe(1);
  });

  it('does not end a session over a 401 that carried no token (a wrong password, say)', async () => {
    const server = fakeServer({ '/kingdom/settings': { status: 401, body: { result: false, error: 'no' } } });
    let signedOut = 0;
    const http = createHttp('http://kingdom.test/', { token: () => null, unauthorized: () => signedOut++ }, server.base);
    await createKingdomApi(http).settings().catch(() => undefined);
    expect(signedOut).toBe(0);
  });

  it('keeps an Authorization header a call sets itself', async () => {
    const server = fakeServer({ '/auth/me': { status: 200, body: {} } });
    const http = createHttp('http://kingdom.test/', { token: () => 'stored', unauthorized: () => {} }, server.base);
    await http.post('auth/me', { headers: { Authorization: 'Bearer fresh' } });
    expect(server.seen[0].authorization).toBe('Bearer fresh');
  });

  it('every API module is a function of the core: its calls carry the signed-in token and take none', async () => {
    const server = fakeServer({});
    const http = createHttp('http://kingdom.test/', { token: () => 'signed-in', unauthorized: () => {} }, server.base);
    const calls: (() => Promise<unknown>)[] = [
      () => createPointsApi(http).players('a'),
      () => createPointsApi(http).ledgerCheck(),
      () => createStoreApi(http).listItems(),
      () => createStoreOfficeApi(http).myHistory(),
      () => createScansApi(http).governor(7),
      () => createAccountApi(http).setLocale('fr'),
      () => createAccountApi(http).changePassword({ oldPassword: 'a', newPassword: 'b' }),
    ];
    for (const call of calls) await call().catch(() => undefined);
    expect(server.seen.map((s) => s.path)).toEqual([
      '/points/players',
      '/points/ledger-check',
      '/store/items',
      '/store/my-history',
      '/governors/7',
      '/account/locale',
      '/account/password',
    ]);
    expect(new Set(server.seen.map((s) => s.authorization))).toEqual(new Set(['Bearer signed-in']));
  });

  it("a refused token on auth/me is an UnauthorizedError with status 401 (the auth machine's guard reads the status)", async () => {
    const server = fakeServer({ '/auth/me': { status: 401, body: { result: false, user: null, error: 'Your session has ended.' } } });
    const http = createHttp('http://kingdom.test/', { token: () => null, unauthorized: () => {} }, server.base);
    const error = await createApi(http).me('old').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect((error as ApiError).status).toBe(401);
    expect(server.seen[0].authorization).toBe('Bearer old');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_ERRORS } from '../../src/protocol/auth';
import { HTTP_ERRORS } from '../../src/protocol/http';
import { call, login, newAccount, register, signedIn, authedSocket, startTestServer, PASSWORD } from './helpers';

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('POST /auth/register', () => {
  it('creates the first account as admin and the next ones as user, with the email lowercased', async () => {
    const first = newAccount('First');
    const answer = await call(server, 'POST', '/auth/register', { body: { ...first, email: `  ${first.email.toUpperCase()} ` } });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ status: 'success' });
    const firstToken = await login(server, first.email);
    const me = await call(server, 'POST', '/auth/me', { token: firstToken });
    expect(me.body.user).toMatchObject({ username: first.username, rank: 'admin', email: first.email.toLowerCase() });

    const second = await signedIn(server);
    const me2 = await call(server, 'POST', '/auth/me', { token: second.token });
    expect((me2.body.user as { rank: string }).rank).toBe('user');
  });

  it('accepts a numeric player id and stores it as text', async () => {
    const account = { ...newAccount(), playerid: 4242 };
    expect((await call(server, 'POST', '/auth/register', { body: account })).status).toBe(200);
    const me = await call(server, 'POST', '/auth/me', { token: await login(server, account.email) });
    expect((me.body.user as { playerid: unknown }).playerid).toBe('4242');
  });

  const bad: [string, (a: ReturnType<typeof newAccount>) => unknown, string][] = [
    ['missing username', ({ username: _u, ...rest }) => rest, AUTH_ERRORS.usernameRequired],
    ['blank username', (a) => ({ ...a, username: '   ' }), AUTH_ERRORS.usernameRequired],
    ['username too long', (a) => ({ ...a, username: 'x'.repeat(33) }), AUTH_ERRORS.usernameTooLong],
    ['missing player id', ({ playerid: _p, ...rest }) => rest, AUTH_ERRORS.playerIdRequired],
    ['non-digit player id', (a) => ({ ...a, playerid: '12ab' }), AUTH_ERRORS.playerIdDigits],
    ['missing email', ({ email: _e, ...rest }) => rest, AUTH_ERRORS.emailRequired],
    ['invalid email', (a) => ({ ...a, email: 'not-an-email' }), AUTH_ERRORS.emailRequired],
    ['missing password', ({ password: _p, ...rest }) => rest, AUTH_ERRORS.weakPassword],
    ['weak password (no special character)', (a) => ({ ...a, password: 'Passw0rdd' }), AUTH_ERRORS.weakPassword],
    ['short password', (a) => ({ ...a, password: 'Pa0!' }), AUTH_ERRORS.weakPassword],
    ['a JSON array', () => [], AUTH_ERRORS.invalidBody],
  ];
  it.each(bad)('refuses %s with 400 and the text', async (_name, make, error) => {
    const answer = await call(server, 'POST', '/auth/register', { body: make(newAccount()) });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ status: 'error', error });
  });

  it('refuses malformed JSON and a missing body with 400, another content type with 415 that says to send JSON, in its shape', async () => {
    for (const options of [{ raw: '{"email": "a@b.c", ' }, {}]) {
      const answer = await call(server, 'POST', '/auth/register', options);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ status: 'error', error: AUTH_ERRORS.invalidBody });
    }
    for (const options of [
      { raw: 'email=a@b.c', contentType: 'application/x-www-form-urlencoded' },
      { raw: '{"email": "a@b.c"}', contentType: 'text/plain' },
    ]) {
      const answer = await call(server, 'POST', '/auth/register', options);
      expect(answer.status).toBe(415);
      expect(answer.body).toEqual({ status: 'error', error: HTTP_ERRORS.jsonOnly });
    }
  });

  it('refuses a body that is too large with 413, not 500', async () => {
    const answer = await call(server, 'POST', '/auth/register', { body: { ...newAccount(), username: 'x'.repeat(40_000) } });
    expect(answer.status).toBe(413);
    expect(answer.body.status).toBe('error');
    expect(answer.body.error).toMatch(/too large/);
  });

  it('refuses a taken email, whatever its case, with 409', async () => {
    const account = await register(server);
    const again = { ...newAccount(), email: account.email.toUpperCase() };
    const answer = await call(server, 'POST', '/auth/register', { body: again });
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({ status: 'error', error: AUTH_ERRORS.emailTaken });
  });

  it('refuses a taken username, whatever its case, with 409', async () => {
    const account = await register(server);
    const answer = await call(server, 'POST', '/auth/register', { body: { ...newAccount(), username: account.username.toUpperCase() } });
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({ status: 'error', error: AUTH_ERRORS.usernameTaken });
  });

  it('keeps the name "server" free: bids show it before the first bid', async () => {
    const answer = await call(server, 'POST', '/auth/register', { body: { ...newAccount(), username: 'Server' } });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe(AUTH_ERRORS.usernameReserved);
  });
});

describe('POST /auth/login', () => {
  it('answers a token that works, with any email case', async () => {
    const account = await register(server);
    const answer = await call(server, 'POST', '/auth/login', { body: { email: account.email.toUpperCase(), password: PASSWORD } });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ result: true, error: null });
    const token = (answer.body.token as { access_token: string }).access_token;
    expect(token.split('.')).toHaveLength(3);
    expect((await call(server, 'POST', '/auth/me', { token })).status).toBe(200);
  });

  it('makes a language picked on the sign-in page the account\'s; without one the account keeps its own; a wrong password changes nothing', async () => {
    const account = await register(server);
    const localeOf = async (token: string) => ((await call(server, 'POST', '/auth/me', { token })).body.user as { locale: string }).locale;
    const wrong = await call(server, 'POST', '/auth/login', { body: { email: account.email, password: 'Wrong0ne!', locale: 'fr' } });
    expect(wrong.status).toBe(401);
    const picked = await call(server, 'POST', '/auth/login', { body: { email: account.email, password: PASSWORD, locale: 'ar' } });
    expect(picked.status).toBe(200);
    expect(await localeOf((picked.body.token as { access_token: string }).access_token)).toBe('ar');
    const plain = await call(server, 'POST', '/auth/login', { body: { email: account.email, password: PASSWORD } });
    expect(await localeOf((plain.body.token as { access_token: string }).access_token)).toBe('ar');
    const bad = await call(server, 'POST', '/auth/login', { body: { email: account.email, password: PASSWORD, locale: 'xx' } });
    expect(bad).toMatchObject({ status: 400, body: { result: false, token: null, error: AUTH_ERRORS.invalidLocale } });
  });

  it('answers the same 401 for a wrong password and an unknown email', async () => {
    const account = await register(server);
    const wrong = await call(server, 'POST', '/auth/login', { body: { email: account.email, password: 'Wrong0ne!' } });
    const unknown = await call(server, 'POST', '/auth/login', { body: { email: 'nobody@example.com', password: PASSWORD } });
    for (const answer of [wrong, unknown]) {
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ result: false, token: null, error: AUTH_ERRORS.wrongCredentials });
    }
  });

  it('refuses missing fields and malformed JSON with 400 in the login shape', async () => {
    const missing = await call(server, 'POST', '/auth/login', { body: { password: PASSWORD } });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ result: false, token: null, error: AUTH_ERRORS.emailRequired });
    const malformed = await call(server, 'POST', '/auth/login', { raw: '{nope' });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ result: false, token: null, error: AUTH_ERRORS.invalidBody });
  });
});

describe('POST /auth/me', () => {
  it('answers the account with its points', async () => {
    const account = await signedIn(server);
    const answer = await call(server, 'POST', '/auth/me', { token: account.token });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      result: true,
      error: null,
      user: {
        id: expect.any(Number),
        username: account.username,
        rank: 'user',
        balance: 0,
        reserved: 0,
        available: 0,
        playerid: account.playerid,
        email: account.email,
        locale: 'en',
      },
    });
    expect(JSON.stringify(answer.body)).not.toMatch(/argon2|password/);
  });

  it('accepts an empty JSON body', async () => {
    const account = await signedIn(server);
    const answer = await call(server, 'POST', '/auth/me', { token: account.token, raw: '' });
    expect(answer.status).toBe(200);
  });

  const unauthenticated = { result: false, user: null, error: AUTH_ERRORS.unauthenticated };
  it.each([
    ['no header', {}],
    ['not a bearer', { authorization: 'Basic abc' }],
    ['a malformed token', { authorization: 'Bearer not.a.jwt' }],
    ['a token signed with another secret', { authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIiwianRpIjoieCJ9.c2lnbmF0dXJl' }],
  ])('answers 401 for %s', async (_name, headers) => {
    const answer = await call(server, 'POST', '/auth/me', { headers });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(unauthenticated);
  });
});

describe('GET /auth/logout', () => {
  it('revokes the token everywhere and closes its sockets with 4401, but not other sessions', async () => {
    const account = await signedIn(server);
    const other = await login(server, account.email);
    const socket = await authedSocket(server.auctionUrl, account.token);
    expect((await socket.next()).type).toBe('HISTORY');
    const otherSocket = await authedSocket(server.userUrl, other);
    otherSocket.send({ type: 'GET_STATUS' });
    expect((await otherSocket.next()).type).toBe('STATUS');

    const answer = await call(server, 'GET', '/auth/logout', { token: account.token });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ status: 'success', error: null });

    expect((await socket.closed).code).toBe(4401);
    const me = await call(server, 'POST', '/auth/me', { token: account.token });
    expect(me.status).toBe(401);
    expect(me.body).toEqual({ result: false, user: null, error: AUTH_ERRORS.unauthenticated });
    const again = await call(server, 'GET', '/auth/logout', { token: account.token });
    expect(again.status).toBe(401);
    expect(again.body).toEqual({ status: 'error', error: AUTH_ERRORS.unauthenticated });

    // the other session lives on
    expect((await call(server, 'POST', '/auth/me', { token: other })).status).toBe(200);
    otherSocket.send({ type: 'GET_STATUS' });
    expect((await otherSocket.next()).type).toBe('STATUS');
    otherSocket.close();

    // and the revoked token cannot authenticate a new socket
    const late = await authedSocket(server.userUrl, account.token);
    expect(await late.next()).toEqual({ type: 'ERROR', error_type: 'UNAUTHENTICATED' });
    expect((await late.closed).code).toBe(4401);
  });

  it('answers 401 in its shape without a token', async () => {
    const answer = await call(server, 'GET', '/auth/logout');
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ status: 'error', error: AUTH_ERRORS.unauthenticated });
  });
});

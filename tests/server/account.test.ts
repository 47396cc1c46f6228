import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_ERRORS } from '../../src/protocol/auth';
import { authedSocket, call, login, signedIn, startTestServer, PASSWORD } from './helpers';

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const NEW_PASSWORD = 'N3w-Passw0rd';

describe('POST /account/password', () => {
  it('changes the password and signs out the other sessions (their sockets close), keeping this one', async () => {
    const account = await signedIn(server);
    const other = await login(server, account.email);
    const otherSocket = await authedSocket(server.auctionUrl, other);
    expect((await otherSocket.next()).type).toBe('HISTORY');

    const answer = await call(server, 'POST', '/account/password', {
      token: account.token,
      body: { oldPassword: PASSWORD, newPassword: NEW_PASSWORD },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ result: true });

    expect((await otherSocket.closed).code).toBe(4401);
    expect((await call(server, 'POST', '/auth/me', { token: other })).status).toBe(401);
    expect((await call(server, 'POST', '/auth/me', { token: account.token })).status).toBe(200);

    const oldLogin = await call(server, 'POST', '/auth/login', { body: { email: account.email, password: PASSWORD } });
    expect(oldLogin.status).toBe(401);
    expect(await login(server, account.email, NEW_PASSWORD)).toBeTruthy();
  });

  it.each([
    ['a wrong current password', { oldPassword: 'Wrong-0ne', newPassword: NEW_PASSWORD }, AUTH_ERRORS.wrongOldPassword],
    ['a weak new password', { oldPassword: PASSWORD, newPassword: 'weakweak' }, AUTH_ERRORS.weakPassword],
    ['the same password', { oldPassword: PASSWORD, newPassword: PASSWORD }, AUTH_ERRORS.samePassword],
    ['a missing current password', { newPassword: NEW_PASSWORD }, AUTH_ERRORS.wrongOldPassword],
  ])('refuses %s with 400 and keeps the old password', async (_name, body, error) => {
    const account = await signedIn(server);
    const answer = await call(server, 'POST', '/account/password', { token: account.token, body });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ result: false, error });
    expect(await login(server, account.email, PASSWORD)).toBeTruthy();
  });

  it('needs a signed-in caller', async () => {
    const answer = await call(server, 'POST', '/account/password', { body: { oldPassword: PASSWORD, newPassword: NEW_PASSWORD } });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ result: false, error: AUTH_ERRORS.unauthenticated });
  });
});

describe('POST /account/locale', () => {
  it('stores an offered language and answers the user', async () => {
    const account = await signedIn(server);
    const answer = await call(server, 'POST', '/account/locale', { token: account.token, body: { locale: 'ar' } });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ result: true, user: { username: account.username, locale: 'ar' } });
    const me = await call(server, 'POST', '/auth/me', { token: account.token });
    expect((me.body.user as { locale: string }).locale).toBe('ar');
  });

  it('refuses a language that is not offered', async () => {
    const account = await signedIn(server);
    const answer = await call(server, 'POST', '/account/locale', { token: account.token, body: { locale: 'de' } });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ result: false, error: AUTH_ERRORS.invalidLocale });
  });

  it('refuses malformed JSON with 400 in the result shape', async () => {
    const account = await signedIn(server);
    const answer = await call(server, 'POST', '/account/locale', { token: account.token, raw: '{"locale":' });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ result: false, error: AUTH_ERRORS.invalidBody });
  });

  it('needs a signed-in caller', async () => {
    const answer = await call(server, 'POST', '/account/locale', { body: { locale: 'fr' } });
    expect(answer.status).toBe(401);
  });
});

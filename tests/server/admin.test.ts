import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_ERRORS } from '../../src/protocol/auth';
import { authedSocket, call, signedIn, startTestServer } from './helpers';

let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: Awaited<ReturnType<typeof signedIn>>;
let user: Awaited<ReturnType<typeof signedIn>>;
beforeAll(async () => {
  server = await startTestServer();
  admin = await signedIn(server, 'admin'); // the first account
  user = await signedIn(server, 'user');
});
afterAll(() => server.close());

const rankOf = async (token: string) => ((await call(server, 'POST', '/auth/me', { token })).body.user as { rank: string }).rank;

describe('POST /admin/users/:username/rank', () => {
  it('lets an admin set a rank (username in any case) and the user sees it at once', async () => {
    expect(await rankOf(admin.token)).toBe('admin');
    const target = await signedIn(server);
    const socket = await authedSocket(server.userUrl, target.token);
    socket.send({ type: 'GET_STATUS' });
    expect(await socket.next()).toMatchObject({ type: 'STATUS', data: { rank: 'user' } });

    const answer = await call(server, 'POST', `/admin/users/${target.username.toUpperCase()}/rank`, {
      token: admin.token,
      body: { rank: 'council' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ result: true, user: { username: target.username, rank: 'council' } });
    expect(await rankOf(target.token)).toBe('council');
    expect(await socket.next()).toMatchObject({ type: 'STATUS', data: { username: target.username, rank: 'council' } });
    socket.close();
  });

  it('forbids a user (403) and an anonymous caller (401), changing nothing', async () => {
    const target = await signedIn(server);
    const forbidden = await call(server, 'POST', `/admin/users/${target.username}/rank`, { token: user.token, body: { rank: 'admin' } });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({ result: false, error: AUTH_ERRORS.forbidden });
    const selfPromotion = await call(server, 'POST', `/admin/users/${user.username}/rank`, { token: user.token, body: { rank: 'admin' } });
    expect(selfPromotion.status).toBe(403);

    const anonymous = await call(server, 'POST', `/admin/users/${target.username}/rank`, { body: { rank: 'admin' } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ result: false, error: AUTH_ERRORS.unauthenticated });
    expect(await rankOf(target.token)).toBe('user');
    expect(await rankOf(user.token)).toBe('user');
  });

  it('forbids council too: only admins', async () => {
    const council = await signedIn(server);
    await call(server, 'POST', `/admin/users/${council.username}/rank`, { token: admin.token, body: { rank: 'council' } });
    const answer = await call(server, 'POST', `/admin/users/${user.username}/rank`, { token: council.token, body: { rank: 'council' } });
    expect(answer.status).toBe(403);
  });

  it('answers 404 for an unknown user', async () => {
    const answer = await call(server, 'POST', '/admin/users/nobody-here/rank', { token: admin.token, body: { rank: 'user' } });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ result: false, error: AUTH_ERRORS.unknownUser });
  });

  it('answers 400 for an invalid rank', async () => {
    for (const body of [{ rank: 'king' }, {}, { rank: 1 }]) {
      const answer = await call(server, 'POST', `/admin/users/${user.username}/rank`, { token: admin.token, body });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ result: false, error: AUTH_ERRORS.invalidRank });
    }
    expect(await rankOf(user.token)).toBe('user');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_ERRORS } from '../../src/protocol/auth';
import { upload } from './back-office-helpers';
import { call, signedIn, startTestServer } from './helpers';

let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: Awaited<ReturnType<typeof signedIn>>;
let council: Awaited<ReturnType<typeof signedIn>>;
let player: Awaited<ReturnType<typeof signedIn>>;

beforeAll(async () => {
  server = await startTestServer();
  admin = await signedIn(server, 'admin');
  council = await signedIn(server, 'council');
  await call(server, 'POST', `/admin/users/${council.username}/rank`, { token: admin.token, body: { rank: 'council' } });
  player = await signedIn(server, 'player');
});
afterAll(() => server.close());

type Who = 'signed-in' | 'council' | 'admin';
const ROUTES: [string, string, Who, unknown?][] = [
  ['GET', '/points/players?q=a', 'council'],
  ['GET', '/points/transactions?kind=grant', 'council'],
  ['GET', '/points/transactions.csv', 'council'],
  ['POST', '/points/bulk/preview', 'council', 'multipart'],
  ['POST', '/points/bulk/apply', 'council', { token: 'x' }],
  ['GET', '/points/ledger-check', 'admin'],
  ['GET', '/store/history?outcome=sold', 'council'],
  ['GET', '/store/history.csv', 'council'],
  ['POST', '/store/items/1', 'council', { itemName: 'x' }],
  ['POST', '/store/items/1/duplicate', 'council', {}],
  ['POST', '/store/uploads', 'council', 'multipart'],
  ['GET', '/store/my-history', 'signed-in'],
  ['GET', '/kingdom/settings', 'signed-in'],
  ['POST', '/kingdom/settings', 'council', { storeOpen: false }],
  ['GET', '/kingdom/groups', 'council'],
  ['POST', '/kingdom/groups', 'council', { name: 'Vanguard' }],
  ['POST', '/kingdom/groups/Vanguard/delete', 'council'],
  ['POST', '/kingdom/groups/Vanguard/members', 'council', { username: 'someone', member: true }],
  ['GET', '/account/groups', 'signed-in'],
  ['GET', '/migrants', 'council'],
  ['GET', '/migrants/series', 'council'],
  ['GET', '/points/rules', 'council'],
  ['POST', '/points/rules', 'council', { name: 'x', stat: 'killpoints', per: 1, points: 1 }],
  ['PUT', '/points/rules/1', 'council', { name: 'x', stat: 'killpoints', per: 1, points: 1 }],
  ['DELETE', '/points/rules/1', 'council'],
  ['POST', '/points/rules/1/preview', 'council', { fromScanId: 1, toScanId: 2 }],
  ['POST', '/points/rules/1/apply', 'council', { token: 'x' }],
  ['GET', '/points/runs', 'council'],
];

function send(method: string, url: string, body: unknown, token?: string) {
  if (body === 'multipart') return upload(server, url, token, 'a,b,c\n', 'file.csv', 'text/csv');
  return call(server, method, url, { body, token });
}

describe('rank checks on every back-office route', () => {
  it.each(ROUTES)('%s %s: anonymous 401, a bad token 401 (%s)', async (method, url, _who, body) => {
    const anonymous = await send(method, url, body);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ result: false, error: AUTH_ERRORS.unauthenticated });
    const forged = await send(method, url, body, 'not-a-token');
    expect(forged.status).toBe(401);
  });

  it.each(ROUTES.filter(([, , who]) => who !== 'signed-in'))('%s %s: a plain user gets 403 (%s and up)', async (method, url, _who, body) => {
    const answer = await send(method, url, body, player.token);
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ result: false, error: AUTH_ERRORS.forbidden });
  });

  it.each(ROUTES.filter(([, , who]) => who === 'admin'))('%s %s: council gets 403 (admin only)', async (method, url, _who, body) => {
    const answer = await send(method, url, body, council.token);
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ result: false, error: AUTH_ERRORS.forbidden });
  });

  it('nothing changed for the refused calls: no settings change, no group, no upload', async () => {
    const settings = await call(server, 'GET', '/kingdom/settings', { token: player.token });
    expect(settings.body).toMatchObject({ result: true, settings: { storeOpen: true } });
    const groups = await call(server, 'GET', '/kingdom/groups', { token: council.token });
    expect(groups.body).toEqual({ result: true, groups: [] });
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runtimeConfigScript } from '../../server/http/client';
import type { AppContext } from '../../server/context';
import { call, signedIn, startTestServer } from './helpers';

const INDEX = `<!doctype html><html><head><!--kingdom-config--><title>Kingdom test</title></head><body><div id="root"></div></body></html>`;

describe('the built client', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    server = await startTestServer({ sentryDsn: 'https://key@example.invalid/1' });
    const dist = server.config.distDir;
    fs.mkdirSync(path.join(dist, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(dist, 'index.html'), INDEX);
    fs.writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log("kingdom")');
    fs.writeFileSync(path.join(dist, 'robots.txt'), 'User-agent: *');
  });
  afterAll(() => server.close());

  const ports = () => ({
    auctionPort: Number(new URL(server.auctionUrl).port),
    userPort: Number(new URL(server.userUrl).port),
  });

  function injectedConfig(html: string): unknown {
    const match = /<script>window\.__KINGDOM__=(.*?)<\/script>/.exec(html);
    expect(match, 'config script in the page').not.toBeNull();
    return JSON.parse(match![1]);
  }

  it.each(['/', '/signin', '/my-account/profile', '/admin/users', '/nope', '/index.html'])(
    'GET %s serves index.html with the runtime config (ports in use, escaped)',
    async (url) => {
      const answer = await call(server, 'GET', url, { headers: { accept: 'text/html' } });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toMatch(/text\/html/);
      expect(answer.headers.get('cache-control')).toBe('no-cache');
      expect(answer.text).toContain('<title>Kingdom test</title>');
      expect(answer.text).not.toContain('<!--kingdom-config-->');
      expect(answer.text).not.toContain('</script>"');
      expect(injectedConfig(answer.text)).toEqual({ ...ports(), sentryDsn: 'https://key@example.invalid/1' });
    },
  );

  it('escapes the runtime config, so no value can end its script (the server refuses such a SENTRY_DSN at start, server/report.ts)', () => {
    const hostile = 'https://key@example.invalid/1</script><script>alert(1)</script>';
    const script = runtimeConfigScript({ ports: { http: 1, auction: 2, user: 3 }, config: { sentryDsn: hostile } } as unknown as AppContext);
    expect(script.match(/<\/script>/g)).toHaveLength(1);
    expect(injectedConfig(script)).toEqual({ auctionPort: 2, userPort: 3, sentryDsn: hostile });
  });

  it('serves files, with long cache headers for /assets/', async () => {
    const asset = await call(server, 'GET', '/assets/app-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.text).toBe('console.log("kingdom")');
    expect(asset.headers.get('cache-control')).toContain('max-age=31536000');
    const robots = await call(server, 'GET', '/robots.txt');
    expect(robots.status).toBe(200);
    expect(robots.headers.get('cache-control')).toBe('no-cache');
  });

  it('answers 404 for a missing file instead of the page', async () => {
    const answer = await call(server, 'GET', '/assets/missing-123.js');
    expect(answer.status).toBe(404);
    expect(answer.text).not.toContain('Kingdom test');
  });

  it('keeps GET /auth/logout the API', async () => {
    const answer = await call(server, 'GET', '/auth/logout');
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ status: 'error' });
    const { token } = await signedIn(server);
    expect((await call(server, 'GET', '/auth/logout', { token })).body).toEqual({ status: 'success', error: null });
  });

  it.each([
    ['GET', '/auth/unknown'],
    ['POST', '/auth/unknown'],
    ['POST', '/nope'],
    ['GET', '/account/whatever'],
    ['GET', '/store/nothing-here'],
  ])('answers an unknown API route %s %s with a JSON 404', async (method, url) => {
    const answer = await call(server, method, url);
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ result: false, error: expect.any(String) });
  });
});

describe('without a built client', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('GET / says the client is not built', async () => {
    const answer = await call(server, 'GET', '/');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/text\/html/);
    expect(answer.text).toContain('npm run build');
  });
});

describe('OpenAPI, docs and CORS', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('/openapi.json lists every API route with its methods', async () => {
    const answer = await call(server, 'GET', '/openapi.json');
    expect(answer.status).toBe(200);
    expect(answer.body.openapi).toMatch(/^3\./);
    const paths = answer.body.paths as Record<string, Record<string, unknown>>;
    expect(Object.keys(paths).sort()).toEqual(
      [
        '/account/groups',
        '/account/locale',
        '/account/password',
        '/admin/users/{username}/rank',
        '/auth/login',
        '/auth/logout',
        '/auth/me',
        '/auth/register',
        '/kingdom/groups',
        '/kingdom/groups/{name}/delete',
        '/kingdom/groups/{name}/members',
        '/kingdom/name',
        '/kingdom/settings',
        '/points/bulk/apply',
        '/points/bulk/preview',
        '/points/ledger-check',
        '/points/players',
        '/points/transactions',
        '/points/transactions.csv',
        '/points/transactions.xlsx',
        '/store/history',
        '/store/history.csv',
        '/store/history.xlsx',
        '/store/items',
        '/store/items/{itemId}',
        '/store/items/{itemId}/cancel',
        '/store/items/{itemId}/duplicate',
        '/store/my-history',
        '/store/uploads',
        '/scans',
        '/scans/preview',
        '/scans/apply',
        '/scans/preview/compare',
        '/scans/{scanId}',
        '/kingdom/summary',
        '/governors',
        '/governors.csv',
        '/governors.xlsx',
        '/governors/mine',
        '/governors/{governorId}',
        '/alliances',
        '/alliances/{tag}',
        '/metrics/series',
        '/player-ids',
        '/player-ids/{governorId}',
        '/player-ids/import/preview',
        '/player-ids/import/apply',
        '/kvk/seasons',
        '/kvk/seasons/{id}',
        '/kvk/seasons/{id}/standings',
        '/kvk/seasons/{id}/standings.csv',
        '/kvk/seasons/{id}/standings.xlsx',
        '/kvk/seasons/{id}/marks',
        '/kvk/seasons/{id}/marks/{governorId}',
        '/kvk/me',
        '/bots',
        '/bots/{id}',
        '/bots/{id}/commands',
        '/bots/{id}/token',
        '/accounts',
        '/accounts/{username}/disable',
        '/accounts/{username}/enable',
        '/accounts/{username}/revoke-sessions',
        '/kingdoms',
        '/kingdoms/{number}',
        '/admin/dashboard',
        '/audit',
        '/audit.csv',
        '/audit.xlsx',
        '/migrants',
        '/migrants/series',
        '/migrants/arrived.csv',
        '/migrants/arrived.xlsx',
        '/migrants/left.csv',
        '/migrants/left.xlsx',
        '/points/rules',
        '/points/rules/{id}',
        '/points/rules/{id}/preview',
        '/points/rules/{id}/apply',
        '/points/runs',
        '/cards/governor/{governorId}.png',
        '/cards/items/{itemId}.png',
        '/cards/kvk/{seasonId}.png',
        '/cards/share',
        '/cards/shared/{token}.png',
        '/cards/shares',
        '/cards/shares/{id}',
        '/export.zip',
        '/discord/settings',
        '/discord/link',
        '/discord/test',
        '/discord/commands',
        '/discord/interactions',
        '/discord/outbox',
        '/discord/outbox/{id}/retry',
        '/discord/kvk/{seasonId}',
        '/store/items/{itemId}/watch',
        '/store/watchlist',
        '/notices',
        '/notices/read',
        '/notices/preferences',
      ].sort(),
    );
    expect(Object.keys(paths['/auth/logout'])).toContain('get');
    for (const p of ['/auth/register', '/auth/login', '/auth/me', '/account/password', '/account/locale', '/admin/users/{username}/rank']) {
      expect(Object.keys(paths[p])).toContain('post');
    }
    const register = paths['/auth/register'].post as { requestBody: { content: Record<string, { schema: { required: string[] } }> } };
    expect(register.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['email', 'password', 'username', 'playerid']),
    );
  });

  it('serves swagger-ui at /docs', async () => {
    const response = await fetch(`${server.httpUrl}/docs`);
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/swagger/i);
  });

  it('lets another origin call with a bearer token', async () => {
    const preflight = await fetch(`${server.httpUrl}/auth/me`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(preflight.status).toBeLessThan(300);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/authorization/i);
    const answer = await call(server, 'POST', '/auth/me', { headers: { origin: 'http://localhost:5173' } });
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
  });
});

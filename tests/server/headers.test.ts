import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGES, upload } from './back-office-helpers';
import { call, leadershipServer, startTestServer } from './helpers';

let server: Awaited<ReturnType<typeof startTestServer>>;
let council: { token: string };

const INDEX = '<!doctype html><html><head><!--kingdom-config--></head><body><div id="root"></div><script type="module" src="/assets/app.js"></script></body></html>';

function writeDist(dir: string) {
  const dist = path.join(dir, 'dist');
  fs.mkdirSync(path.join(dist, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(dist, 'index.html'), INDEX);
  fs.writeFileSync(path.join(dist, 'assets', 'app.js'), 'console.log(1)\n');
  fs.writeFileSync(path.join(dist, 'assets', 'app.js.map'), '{"version":3,"sources":["secret.ts"],"mappings":""}');
}

/** The CSP's directives by name. */
function csp(header: string | null): Record<string, string[]> {
  expect(header).toBeTruthy();
  return Object.fromEntries(
    header!
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name, values]),
  );
}

beforeAll(async () => {
  ({ server, council } = await leadershipServer());
  writeDist(server.dir);
});
afterAll(() => server.close());

describe('security headers', () => {
  it("gives the app's page a CSP it passes: no inline script but the runtime config's own hash, sockets allowed, no framing", async () => {
    const page = await call(server, 'GET', '/');
    expect(page.status).toBe(200);
    const policy = csp(page.headers.get('content-security-policy'));
    expect(policy['frame-ancestors']).toEqual(["'none'"]);
    expect(policy['object-src']).toEqual(["'none'"]);
    expect(policy['default-src']).toEqual(["'self'"]);
    // the one inline script is the injected config, and the policy names exactly its hash
    const inline = [...page.text.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    expect(inline).toHaveLength(1);
    const hash = `'sha256-${crypto.createHash('sha256').update(inline[0]).digest('base64')}'`;
    expect(policy['script-src']).toEqual(["'self'", hash]);
    expect(policy['script-src']).not.toContain("'unsafe-inline'");
    // the sockets are on other ports: connect-src must name them
    const auctionPort = new URL(server.auctionUrl).port;
    const userPort = new URL(server.userUrl).port;
    expect(policy['connect-src']).toEqual(expect.arrayContaining(["'self'", `ws://127.0.0.1:${auctionPort}`, `ws://127.0.0.1:${userPort}`]));
    // plain http here: nothing tells the browser to upgrade
    expect(policy['upgrade-insecure-requests']).toBeUndefined();
    expect(page.headers.get('strict-transport-security')).toBeNull();
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('puts them on API answers and errors too', async () => {
    for (const answer of [await call(server, 'GET', '/store/items'), await call(server, 'GET', '/no/such/route.json')]) {
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(csp(answer.headers.get('content-security-policy'))['frame-ancestors']).toEqual(["'none'"]);
    }
  });

  it('keeps the stricter policy of uploaded images', async () => {
    const url = (await upload(server, '/store/uploads', council.token, IMAGES.png, 'a.png', 'image/png')).body.url as string;
    const image = await fetch(server.httpUrl + url);
    expect(image.status).toBe(200);
    const policy = csp(image.headers.get('content-security-policy'));
    expect(policy['default-src']).toEqual(["'none'"]);
    expect(policy.sandbox).toEqual([]);
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('serves the API docs under a policy of their own, never framed and never upgraded to https', async () => {
    const docs = await fetch(`${server.httpUrl}/docs/`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).not.toMatch(/<script>(?!\s*<\/script>)/); // no inline script to allow
    const policy = csp(docs.headers.get('content-security-policy'));
    expect(policy['script-src']).toEqual(["'self'"]);
    expect(policy['frame-ancestors']).toEqual(["'none'"]);
    expect(policy['upgrade-insecure-requests']).toBeUndefined();
    expect(docs.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('does not serve source maps unless asked for', async () => {
    expect((await call(server, 'GET', '/assets/app.js')).status).toBe(200);
    const map = await call(server, 'GET', '/assets/app.js.map');
    expect(map.status).toBe(404);
    expect(map.text).not.toContain('secret.ts');
  });

  it('serves them with SOURCE_MAPS=serve', async () => {
    process.env.SOURCE_MAPS = 'serve';
    const other = await startTestServer();
    try {
      writeDist(other.dir);
      const map = await call(other, 'GET', '/assets/app.js.map');
      expect(map.status).toBe(200);
      expect(map.text).toContain('secret.ts');
    } finally {
      delete process.env.SOURCE_MAPS;
      await other.close();
    }
  });
});

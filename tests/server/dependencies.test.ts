import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, { version?: string; engines?: { node?: string } }> };
const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { engines: { node: string } };

/** npm's own semver, the one its EBADENGINE check uses. */
function npmSemver(): { satisfies(version: string, range: string): boolean; minVersion(range: string): { version: string } | null } {
  const globalRoot = execFileSync('npm', ['root', '-g'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  return require(path.join(globalRoot, 'npm', 'node_modules', 'semver'));
}

describe('the supported Node versions (package.json engines, README)', () => {
  it('every locked package accepts the first release of each supported line, so npm install warns of no engine', () => {
    const semver = npmSemver();
    // the first release of each line package.json accepts, and the Node running the tests
    const supported = pkg.engines.node.split('||').map((range) => semver.minVersion(range.trim())!.version);
    expect(supported).toEqual(['20.19.0', '22.13.0', '24.0.0']);
    const refused: string[] = [];
    for (const [where, entry] of Object.entries(lock.packages)) {
      const range = entry.engines?.node;
      if (!where || !range) continue;
      for (const version of [...supported, process.versions.node]) {
        if (!semver.satisfies(version, range)) refused.push(`${where}@${entry.version} wants node ${range}, not ${version}`);
      }
    }
    expect(refused).toEqual([]);
  });

  it('fastify.inject still sends cookies (light-my-request on cookie 1.x)', async () => {
    const app = Fastify();
    app.get('/', async (request) => ({ cookie: request.headers.cookie }));
    const answer = await app.inject({ method: 'GET', url: '/', cookies: { consent: '1', name: 'a b' } });
    expect(answer.json()).toEqual({ cookie: 'consent=1; name=a%20b' });
    await app.close();
  });

  it('the docs’ static files still name downloads (swagger-ui’s @fastify/static on content-disposition 2.x)', async () => {
    const staticPlugin = createRequire(require.resolve('@fastify/swagger-ui'))('@fastify/static');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kingdom-static-'));
    fs.writeFileSync(path.join(dir, 'ledger été.csv'), 'a,b\n');
    const app = Fastify();
    await app.register(staticPlugin, { root: dir, serve: false });
    app.get('/file', (_request, reply) => reply.download('ledger été.csv'));
    const answer = await app.inject({ method: 'GET', url: '/file' });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-disposition']).toBe(`attachment; filename="ledger ?t?.csv"; filename*=UTF-8''ledger%20%C3%A9t%C3%A9.csv`);
    expect(answer.body).toBe('a,b\n');
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

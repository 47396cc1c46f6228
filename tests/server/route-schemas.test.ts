import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { AUTH_ERRORS } from '../../src/protocol/auth';
import { POINTS_ERRORS } from '../../src/protocol/points';
import { STORE_ERRORS } from '../../src/protocol/store';
import { RULE_ERRORS } from '../../src/protocol/automatic-points';
import { BOT_ERRORS } from '../../src/protocol/bots';
import { KVK_ERRORS } from '../../src/protocol/kvk';
import { SCAN_ERRORS } from '../../src/protocol/scans';
import { readdirSync } from 'node:fs';
import Fastify from 'fastify';
import type { AnyEndpoint } from '../../src/protocol/endpoint';
import { registerOpenApi } from '../../server/http/openapi';
import { AnswerMismatch, PlainSchema, serializerCompiler, validatorCompiler } from '../../server/http/schemas';
import { createItem, itemBody } from './auction-helpers';
import { call, leadershipServer } from './helpers';

type Server = Awaited<ReturnType<typeof leadershipServer>>;
let server: Server['server'];
let admin: Server['admin'];

beforeAll(async () => {
  ({ server, admin } = await leadershipServer());
});
afterAll(() => server.close());

describe('routes validated by Fastify from zod schemas keep the texts and statuses of the wire contract', () => {
  it('a body that is not a JSON object: the protocol’s invalid-body text', async () => {
    for (const raw of ['[]', '"text"', '12']) {
      const answer = await call(server, 'POST', '/store/items', { token: admin.token, raw });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ result: false, error: AUTH_ERRORS.invalidBody });
    }
    const none = await call(server, 'POST', '/points/transactions', { token: admin.token });
    expect(none.body).toEqual({ result: false, error: AUTH_ERRORS.invalidBody });
  });

  it('a field that fails: the first issue’s text from the protocol', async () => {
    const answer = await call(server, 'POST', '/store/items', { token: admin.token, body: itemBody({ duration: 1 }) });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ result: false, error: STORE_ERRORS.duration });
    const query = await call(server, 'GET', '/points/transactions?kind=gift', { token: admin.token });
    expect(query.body).toEqual({ result: false, error: POINTS_ERRORS.badKind });
  });

  it('a field whose schema has no text of its own: a sentence that names it and what it must be, never a bare "Invalid input"', async () => {
    const cases: [string, string, Record<string, unknown>, string][] = [
      ['POST', '/scans/apply', { token: 'x', skipInvalid: 'yes' }, 'skipInvalid must be true or false.'],
      ['POST', '/store/items', itemBody({ eligibility: 'all' }), 'eligibility must be an object.'],
      ['POST', '/bots/1/commands', { command: 'ping', args: [{}] }, 'args[0] must be text.'],
      ['POST', '/bots/1/commands', { command: 'ping', args: 'x' }, 'args must be a list.'],
    ];
    for (const [method, url, body, error] of cases) {
      const answer = await call(server, method, url, { token: admin.token, body });
      expect([url, answer.status, answer.body]).toEqual([url, 400, { result: false, error }]);
    }
  });

  it('a path parameter that names nothing is a 404 with the unknown-item text', async () => {
    for (const id of ['abc', '0', '-1', '1.5', '1234567890123456']) {
      const answer = await call(server, 'POST', `/store/items/${id}/cancel`, { token: admin.token });
      expect(answer.status, id).toBe(404);
      expect(answer.body).toEqual({ result: false, error: STORE_ERRORS.unknownItem });
    }
  });

  it('a malformed path id is a 400 with the route’s own text, through the one path-id schema', async () => {
    const routes: [string, (id: string) => string, string][] = [
      ['DELETE', (id) => `/scans/${id}`, SCAN_ERRORS.badScanId],
      ['GET', (id) => `/governors/${id}`, SCAN_ERRORS.badGovernorId],
      ['DELETE', (id) => `/points/rules/${id}`, RULE_ERRORS.badRuleId],
      ['DELETE', (id) => `/bots/${id}`, BOT_ERRORS.badBotId],
      ['GET', (id) => `/kvk/seasons/${id}/standings`, KVK_ERRORS.badSeasonId],
      ['DELETE', (id) => `/kvk/seasons/1/marks/${id}`, KVK_ERRORS.badGovernorId],
    ];
    for (const [method, url, error] of routes) {
      for (const id of ['abc', '0', '-1', '1.5', '1e3', '1234567890123456']) {
        const answer = await call(server, method, url(id), { token: admin.token });
        expect([url(id), answer.status, answer.body]).toEqual([url(id), 400, { result: false, error }]);
      }
    }
    // a bot id has at most 9 digits
    expect((await call(server, 'DELETE', '/bots/1234567890', { token: admin.token })).body).toEqual({ result: false, error: BOT_ERRORS.badBotId });
  });

  it('a body that may be left out counts as {}: an edit without a body changes nothing', async () => {
    const item = await createItem(server, admin.token, { startsAt: Date.UTC(2099, 0, 1) });
    const answer = await call(server, 'POST', `/store/items/${item.itemId}`, { token: admin.token });
    expect(answer.status).toBe(200);
    expect((answer.body.item as { itemName: string }).itemName).toBe(item.itemName);
  });

  it('the rank is checked before the body: no session is 401 whatever the body', async () => {
    const answer = await call(server, 'POST', '/store/items', { raw: '[]' });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ result: false, error: AUTH_ERRORS.unauthenticated });
  });

  it('OpenAPI documents the zod schemas of every route: bodies, queries and answers', async () => {
    const doc = (await call(server, 'GET', '/openapi.json')).body as { paths: Record<string, Record<string, Record<string, unknown>>> };
    const create = doc.paths['/store/items'].post as { requestBody: { content: Record<string, { schema: { required: string[] } }> } };
    expect(create.requestBody.content['application/json'].schema.required).toEqual(expect.arrayContaining(['itemName', 'start_price', 'duration']));
    const list = doc.paths['/points/transactions'].get as { parameters: { name: string; in: string }[]; responses: Record<string, unknown> };
    expect(list.parameters.filter((p) => p.in === 'query').map((p) => p.name)).toEqual(expect.arrayContaining(['username', 'kind', 'actor', 'from', 'to', 'page']));
    expect(Object.keys(list.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '404']));
    const cancel = doc.paths['/store/items/{itemId}/cancel'].post as { parameters: { name: string; in: string }[] };
    expect(cancel.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'itemId', in: 'path' })]));
    // the scans, admin, KvK, bots, automatic points and migrants routes too
    const apply = doc.paths['/scans/apply'].post as { requestBody: { content: Record<string, { schema: { required: string[] } }> } };
    expect(apply.requestBody.content['application/json'].schema.required).toContain('token');
    const standings = doc.paths['/kvk/seasons/{id}/standings'].get as { parameters: { name: string; in: string }[] };
    expect(standings.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'id', in: 'path' }), expect.objectContaining({ name: 'window', in: 'query' })]));
    const runs = doc.paths['/points/runs'].get as { parameters: { name: string; in: string }[]; responses: Record<string, { content?: Record<string, { schema: { required?: string[] } }> }> };
    expect(runs.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'page', in: 'query' })]));
    expect(runs.responses['200'].content?.['application/json'].schema.required).toEqual(expect.arrayContaining(['result', 'runs', 'total']));
    const audit = doc.paths['/audit'].get as { parameters: { name: string; in: string }[] };
    expect(audit.parameters.map((p) => p.name)).toEqual(expect.arrayContaining(['actor', 'action', 'page']));
  });
});

describe('endpoint contracts (src/protocol, exported as *_API)', () => {
  it('each is served at its method and path, documented with its summary, group and error statuses', async () => {
    const doc = (await call(server, 'GET', '/openapi.json')).body as { paths: Record<string, Record<string, { summary?: string; tags?: string[]; responses?: Record<string, unknown> }>> };
    const contracts: AnyEndpoint[] = [];
    for (const file of readdirSync('src/protocol').filter((f) => f.endsWith('.ts'))) {
      const module = (await import(`../../src/protocol/${file.slice(0, -3)}.ts`)) as Record<string, unknown>;
      for (const [name, group] of Object.entries(module)) if (name.endsWith('_API')) contracts.push(...(Object.values(group as object) as AnyEndpoint[]));
    }
    expect(contracts.length).toBeGreaterThan(5);
    for (const e of contracts) {
      const route = doc.paths[`/${e.path.replace(/:(\w+)/g, '{$1}')}`]?.[e.method.toLowerCase()];
      expect(route, `${e.method} ${e.path}`).toBeDefined();
      expect(route.summary).toBe(e.summary);
      expect(route.tags).toEqual([e.tag]);
      expect(Object.keys(route.responses ?? {}).sort()).toEqual(['200', ...e.errors.map(String)].sort());
    }
  });
});

describe('the compilers', () => {
  const answer = z.object({ result: z.literal(true), n: z.int() });
  const serialize = serializerCompiler({ schema: answer, method: 'GET', url: '/x', httpStatus: '200' });

  it('a success answer goes out as its schema says, and only the fields it names', () => {
    expect(JSON.parse(serialize({ result: true, n: 3, secret: 'hash' }))).toEqual({ result: true, n: 3 });
  });

  it('a success answer that does not match its schema is refused (a bug is a 500, not a half-checked answer)', () => {
    expect(() => serialize({ result: true, n: 'three' })).toThrow(AnswerMismatch);
  });

  it('error answers and plain JSON schemas go out as they are', () => {
    const error = serializerCompiler({ schema: answer, method: 'GET', url: '/x', httpStatus: '400' });
    expect(JSON.parse(error({ result: false, error: 'x' }))).toEqual({ result: false, error: 'x' });
    const plain = serializerCompiler({ schema: { type: 'string' }, method: 'GET', url: '/x', httpStatus: '200' });
    expect(JSON.parse(plain({ any: 1 }))).toEqual({ any: 1 });
  });

  it('a plain JSON schema for a body, query or path is refused when the route is registered (it would validate nothing)', async () => {
    expect(() => validatorCompiler({ schema: { type: 'object' }, method: 'POST', url: '/x', httpPart: 'body' })).toThrow(PlainSchema);
    const app = Fastify();
    await registerOpenApi(app);
    app.get('/plain', { schema: { querystring: { type: 'object', properties: { page: { type: 'string' } } } } }, async () => ({}));
    await expect(app.ready()).rejects.toThrow(/GET \/plain: the querystring schema must be a protocol zod schema/);
    await app.close();
  });
});

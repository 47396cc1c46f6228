import ky from 'ky';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { ApiError } from '../../src/api/client';
import { call, keyOf, scopeOf } from '../../src/api/contract';
import { endpoint, okAnswer, pathOf } from '../../src/protocol/endpoint';
import { DISCORD_API } from '../../src/protocol/discord';
import { pathId } from '../../src/protocol/http';

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const retry = endpoint({ method: 'POST', path: 'things/:id/retry', params: { id: pathId('No such thing.') }, answer: okAnswer, errors: [404], tag: 'things', summary: 'Retry a thing.' });
const list = endpoint({
  method: 'GET',
  path: 'things',
  query: z.object({ page: z.optional(z.string()), kind: z.optional(z.string()) }),
  answer: z.object({ result: z.literal(true), things: z.array(z.string()) }),
  errors: [],
  tag: 'things',
  summary: 'The things.',
});

/** A ky whose fetch records each request and answers from `reply`. */
function recording(reply: (request: Request) => Response) {
  const seen: { method: string; url: string; body: string }[] = [];
  const client = ky.create({
    prefixUrl: 'http://api.test',
    throwHttpErrors: false,
    retry: 0,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      seen.push({ method: request.method, url: request.url, body: await request.clone().text() });
      return reply(request);
    },
  });
  return { client, seen };
}

describe('an endpoint contract', () => {
  it('fills its path parts, each encoded, and names a missing one', () => {
    expect(pathOf(retry, { id: 42 })).toBe('things/42/retry');
    expect(pathOf(retry, { id: 'a/b' })).toBe('things/a%2Fb/retry');
    expect(() => pathOf(retry, {})).toThrow('things/:id/retry: no value for :id');
  });

  it('is called with its method, path, query (empty values left out) and body, and its answer is read by its schema', async () => {
    const { client, seen } = recording(() => json({ result: true, things: ['a'] }));
    await expect(call(client, list, { query: { page: 2, kind: '' } })).resolves.toEqual({ result: true, things: ['a'] });
    expect(seen[0]).toMatchObject({ method: 'GET', url: 'http://api.test/things?page=2' });
    await call(client, DISCORD_API.redeem, { body: { code: 'abcdefghijklmnop' } }).catch(() => undefined);
    expect(seen[1]).toEqual({ method: 'POST', url: 'http://api.test/discord/link', body: '{"code":"abcdefghijklmnop"}' });
    await call(client, DISCORD_API.retry, { params: { id: 7 } }).catch(() => undefined);
    expect(seen[2]).toMatchObject({ method: 'POST', url: 'http://api.test/discord/outbox/7/retry' });
  });

  it("throws the server's refusal, and an answer outside its schema as unreadable", async () => {
    const refused = recording(() => json({ result: false, error: 'No such thing.' }, 404));
    await expect(call(refused.client, retry, { params: { id: 1 } })).rejects.toThrow(new ApiError('No such thing.', 404));
    const odd = recording(() => json({ result: true, things: 3 }));
    await expect(call(odd.client, list)).rejects.toThrow('The server sent an answer this app cannot read.');
  });

  it('keys a query by its path parts and query, so a group key covers every call under it', () => {
    expect(keyOf(DISCORD_API.link)).toEqual(['discord', 'link']);
    expect(keyOf(retry, { params: { id: 3 } })).toEqual(['things', '3', 'retry']);
    expect(keyOf(list, { query: { page: 2, kind: '' } })).toEqual(['things', { page: '2' }]);
    expect(keyOf(list, { query: { kind: '' } })).toEqual(['things']);
    expect(scopeOf(DISCORD_API.outbox)).toEqual(['discord']);
  });
});

import fc from 'fast-check';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { compileAccept } from '../../src/protocol/fast-accept';
import { clientFrame, serverMsg } from '../../src/protocol/socket';
import { parseLog } from '../../src/streams/log';

/**
 * The fast first look at a frame must never let through what zod would refuse or change: on any
 * JSON value, it accepts exactly when zod accepts and gives back an equal value.
 */
const DIR = join(import.meta.dirname, '..', 'fixtures', 'logs');
const recorded: unknown[] = [];
for (const file of readdirSync(DIR).filter((f) => f.endsWith('.jsonl'))) {
  for (const entry of parseLog(readFileSync(join(DIR, file), 'utf8')).entries) if (entry.dir === 'in' && entry.msg) recorded.push(entry.msg);
}
/** Frames of the auction formats and maximum bids, beside the recorded ones. */
const formats: unknown[] = [
  { type: 'BID_CREATED', data: { itemId: 3, itemName: 'Sealed', sealed: true, bids: 2, timer: 30, timestamp: 1000, endsAt: 31000 } },
  { type: 'BID_CREATED', data: { itemId: 3, itemName: 'Auto', amount: 110, username: 'ann', timer: 30, timestamp: 1000, endsAt: 31000, auto: true } },
  { type: 'MAX_BID', data: { itemId: 3, max: 1200, leading: true } },
  { type: 'MAX_BID', data: { itemId: 3, max: 0, reason: 'balance' } },
  { type: 'NO_BUYER', data: { itemId: 3, itemName: 'Reserve', reason: 'reserve-not-met' } },
  {
    type: 'HISTORY',
    data: {
      bids: [],
      items: [
        { itemId: 3, itemName: 'A', type: 'auction', amount: 5, username: 'server', timer: 9, timestamp: 1, endsAt: 9001, state: 'live', start_price: 5, minIncrement: 1, format: 'sealed-second', reserveMet: false, bids: 4 },
        { itemId: 4, itemName: 'B', type: 'auction', amount: 5, username: 'server', timer: 9, timestamp: 1, endsAt: 9001, state: 'live', start_price: 5, minIncrement: 1, format: 'english', reserveMet: true, buyNowPrice: 500 },
      ],
      maxBids: [{ itemId: 4, max: 300, leading: false }],
    },
  },
];
const valid = [...recorded.filter((msg) => serverMsg.safeParse(msg).success), ...formats];

const acceptServer = compileAccept(serverMsg);

/** zod's verdict, as the fast look must give it: valid, and returned unchanged. */
function zodKeepsAsIs(schema: z.ZodMiniType, value: unknown): boolean {
  const result = schema.safeParse(value);
  return result.success && isDeepStrictEqual(result.data, value);
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A path into a value and what to do there: drop the key, replace the value, or add a key. */
const arbMutation = fc.record({
  depth: fc.nat({ max: 4 }),
  pick: fc.nat(),
  op: fc.constantFrom('drop', 'replace', 'add', 'replace-number', 'replace-string'),
  value: fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
  number: fc.oneof(fc.integer(), fc.double({ noNaN: true }), fc.constantFrom(0, -1, 1, 2 ** 53, -(2 ** 53), 0.5, 1e300)),
  string: fc.string({ maxLength: 70 }),
  key: fc.oneof(fc.constantFrom('type', 'data', 'itemId', 'amount', 'requestId', 'extra', '__proto__', 'state'), fc.string({ maxLength: 6 })),
});

type Mutation = typeof arbMutation extends fc.Arbitrary<infer T> ? T : never;

function mutate(value: Json, mutation: Mutation): Json {
  const copy = JSON.parse(JSON.stringify(value)) as Json;
  let node: Json = copy;
  for (let i = 0; i < mutation.depth; i++) {
    if (node === null || typeof node !== 'object') break;
    const keys = Object.keys(node);
    if (keys.length === 0) break;
    const next: Json = (node as Record<string, Json>)[keys[mutation.pick % keys.length]];
    if (next === null || typeof next !== 'object') break;
    node = next;
  }
  if (node === null || typeof node !== 'object') return copy;
  const keys = Object.keys(node);
  const key = keys.length ? keys[mutation.pick % keys.length] : mutation.key;
  const target = node as Record<string, Json>;
  switch (mutation.op) {
    case 'drop':
      delete target[key];
      break;
    case 'replace':
      target[key] = mutation.value;
      break;
    case 'replace-number':
      target[key] = mutation.number;
      break;
    case 'replace-string':
      target[key] = mutation.string;
      break;
    case 'add':
      // through JSON, as a frame would carry it (a "__proto__" key becomes an own key)
      Object.assign(target, JSON.parse(JSON.stringify({ [mutation.key]: mutation.value })));
      break;
  }
  // what the client would see: the text, parsed
  return JSON.parse(JSON.stringify(copy)) as Json;
}

describe('compileAccept', () => {
  it('takes the formats\' frames as zod does', () => {
    for (const msg of formats) expect(zodKeepsAsIs(serverMsg, msg), JSON.stringify(msg).slice(0, 60)).toBe(true);
  });

  it('lets every valid recorded frame through without zod', () => {
    expect(valid.length).toBeGreaterThan(100);
    for (const msg of valid) expect(acceptServer(msg)).toBe(true);
  });

  it('refuses every recorded frame zod refuses', () => {
    const refused = recorded.filter((msg) => !serverMsg.safeParse(msg).success);
    expect(refused.length).toBeGreaterThan(0);
    for (const msg of refused) expect(acceptServer(msg)).toBe(false);
  });

  it('accepts a mutated frame exactly when zod accepts it and returns it unchanged', () => {
    fc.assert(
      fc.property(fc.constantFrom(...(valid as Json[])), fc.array(arbMutation, { minLength: 1, maxLength: 3 }), (msg, mutations) => {
        const value = mutations.reduce(mutate, msg);
        expect(acceptServer(value)).toBe(zodKeepsAsIs(serverMsg, value));
      }),
      { numRuns: 3000 },
    );
  });

  it('agrees with zod on arbitrary JSON values', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), (value) => {
        expect(acceptServer(value)).toBe(zodKeepsAsIs(serverMsg, value));
      }),
    );
  });

  it('leaves to zod a key it would strip, and a frame that is not a plain object', () => {
    const [msg] = valid as Record<string, unknown>[];
    expect(acceptServer({ ...msg, extra: 1 })).toBe(false);
    expect(acceptServer(Object.assign(Object.create({ injected: true }), msg))).toBe(false);
    expect(acceptServer([msg])).toBe(false);
  });

  it('agrees with zod on client frames, string lengths included', () => {
    const accept = compileAccept(clientFrame);
    const frames = [
      { type: 'CREATE_BID', data: { itemId: 1, amount: 10, requestId: 'r' } },
      { type: 'CREATE_BID', data: { itemId: 1, amount: 10, requestId: '' } },
      { type: 'CREATE_BID', data: { itemId: 1, amount: 10, requestId: 'x'.repeat(64) } },
      { type: 'CREATE_BID', data: { itemId: 1, amount: 10, requestId: 'x'.repeat(65) } },
      { type: 'CREATE_BID', data: { itemId: 0, amount: 10, requestId: 'r' } },
      { type: 'CREATE_BID', data: { itemId: 1, amount: 1.5, requestId: 'r' } },
      { type: 'SET_MAX_BID', data: { itemId: 1, max: 500, requestId: 'm' } },
      { type: 'SET_MAX_BID', data: { itemId: 1, max: 0, requestId: 'm' } },
      { type: 'SET_MAX_BID', data: { itemId: 1, max: 500 } },
      { type: 'GET_STATUS' },
      { type: 'AUTHENTICATION', access_token: 'Bearer x' },
      { type: 'AUTHENTICATION', access_token: 'x'.repeat(2049) },
    ];
    for (const frame of frames) expect(accept(frame), JSON.stringify(frame).slice(0, 80)).toBe(zodKeepsAsIs(clientFrame, frame));
  });

  it('refuses to compile a kind of schema it does not know', () => {
    expect(() => compileAccept(z.bigint())).toThrow(/unknown schema type/);
    expect(() => compileAccept(z.union([z.string(), z.array(z.int())]))).toThrow(/discriminator/);
  });

  it('takes a union of plain values (an item id: a whole number or a string) as zod does', () => {
    const id = z.union([z.int().check(z.positive()), z.string().check(z.minLength(1))]);
    const accept = compileAccept(id);
    for (const value of [1, 42, 'abc', 'item-7', 0, -1, 1.5, '', null, true, {}]) {
      expect(accept(value)).toBe(id.safeParse(value).success);
    }
    expect(() => compileAccept(z.string().check(z.startsWith('a')))).toThrow(/unknown string check/);
    // a pattern is tested as zod tests it (a bid's requestId refuses a NUL)
    const noNul = z.string().check(z.regex(/^[^\0]*$/));
    for (const value of ['', 'req-1', 'nul\u0000id', '\u0000']) expect(compileAccept(noNul)(value)).toBe(noNul.safeParse(value).success);
  });
});

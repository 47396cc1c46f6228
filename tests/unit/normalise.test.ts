import { from, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { ServerMsg } from '../../src/protocol/socket';
import { normalise, normaliseFrames, type ProtocolEvent } from '../../src/streams/normalise';
import { BID, BID_CREATED, HISTORY, ITEM, STATUS } from './support/fixtures';

const VALID: ServerMsg[] = [
  HISTORY,
  STATUS,
  BID_CREATED,
  {
    type: 'BIDDING_STARTED',
    data: { itemId: 3, itemName: 'Golden Key', start_price: 100, timer: 60, timestamp: 1_700_000_000_000, endsAt: 1_700_000_060_000 },
  },
  { type: 'SALE_COMPLETED', data: { itemId: 3, itemName: 'Golden Key', username: 'Aethelred', amount: 150 } },
  { type: 'NO_BUYER', data: { itemId: 4, itemName: 'Silver Key' } },
  { type: 'WINNER', data: { itemId: 3, itemName: 'Golden Key', amount: 150, username: 'Aethelred' } },
  { type: 'OUTBID', data: BID },
  { type: 'VIRTUAL_BALANCE_UPDATE', data: { balance: 1000, reserved: 150, available: 850 } },
  { type: 'ERROR', error_type: 'BID_AMOUNT_ERROR', data: { itemId: 3, requestId: 'r-1' } },
];

function schemaError(frame: string): Extract<ProtocolEvent, { type: 'protocol-error' }> {
  const event = normalise(frame);
  if (event.type !== 'protocol-error') throw new Error(`expected a protocol error, got ${JSON.stringify(event)}`);
  expect(event.reason).toBe('schema');
  return event;
}

describe('normalise', () => {
  it.each(VALID.map((msg) => [msg.type, msg] as const))('turns a valid %s frame into a typed message', (_type, msg) => {
    expect(normalise(JSON.stringify(msg))).toEqual({ type: 'message', msg });
  });

  it('keeps fields an item carries beyond the contract (passthrough)', () => {
    const frame = JSON.stringify({ type: 'HISTORY', data: { bids: [], items: [{ ...ITEM, description: 'Opens the vault' }] } });
    const event = normalise(frame);
    expect(event.type).toBe('message');
    if (event.type !== 'message' || event.msg.type !== 'HISTORY') throw new Error('expected HISTORY');
    expect(event.msg.data.items[0]).toMatchObject({ itemId: 3, description: 'Opens the vault' });
  });

  it('accepts an error type this client does not know (it reaches the "any other" row)', () => {
    expect(normalise('{"type":"ERROR","error_type":"BRAND_NEW_ERROR"}')).toEqual({
      type: 'message',
      msg: { type: 'ERROR', error_type: 'BRAND_NEW_ERROR' },
    });
  });

  it.each(['not json', '{', '', '{"type":"HISTORY",}', "{'type':'STATUS'}", 'undefined'])(
    'turns the non-JSON frame %j into a json protocol error carrying the raw text',
    (frame) => {
      expect(normalise(frame)).toEqual({ type: 'protocol-error', reason: 'json', raw: frame });
    },
  );

  it('keeps at most 500 characters of a bad frame', () => {
    const frame = `x${'y'.repeat(2000)}`;
    const event = normalise(frame);
    expect(event).toMatchObject({ type: 'protocol-error', reason: 'json' });
    if (event.type !== 'protocol-error') throw new Error('unreachable');
    expect(event.raw).toBe(frame.slice(0, 500));
    expect(event.raw).toHaveLength(500);

    const big = JSON.stringify({ type: 'NOPE', pad: 'z'.repeat(2000) });
    const schema = schemaError(big);
    expect(schema.raw).toHaveLength(500);
  });

  it('names an unknown type as a schema failure on "type"', () => {
    const event = schemaError('{"type":"NOPE"}');
    expect(event.raw).toBe('{"type":"NOPE"}');
    expect(event.detail).toMatch(/^type: /);
  });

  it('names the missing field by its path', () => {
    const { amount: _amount, ...rest } = BID;
    const event = schemaError(JSON.stringify({ type: 'BID_CREATED', data: rest }));
    expect(event.detail).toMatch(/^data\.amount: /);
  });

  it('names a wrongly typed nested field by its full path', () => {
    const frame = JSON.stringify({ type: 'HISTORY', data: { bids: [{ ...BID, amount: 'lots' }], items: [] } });
    expect(schemaError(frame).detail).toMatch(/^data\.bids\.0\.amount: /);
  });

  it('rejects a non-integer amount, a non-positive item id and a bad item state', () => {
    expect(schemaError(JSON.stringify({ type: 'BID_CREATED', data: { ...BID, amount: 1.5 } })).detail).toMatch(/^data\.amount: /);
    expect(schemaError(JSON.stringify({ type: 'BID_CREATED', data: { ...BID, itemId: 0 } })).detail).toMatch(/^data\.itemId: /);
    const badState = JSON.stringify({ type: 'HISTORY', data: { bids: [], items: [{ ...ITEM, state: 'sold' }] } });
    expect(schemaError(badState).detail).toMatch(/^data\.items\.0\.state: /);
  });

  it.each(['42', 'null', '[]', '"HISTORY"', 'true'])('reports the JSON value %s that is not an object at (root)', (frame) => {
    expect(schemaError(frame).detail).toMatch(/^\(root\): /);
  });

  it('reports an ERROR without error_type', () => {
    expect(schemaError('{"type":"ERROR"}').detail).toMatch(/^error_type: /);
  });

  it.each([
    ['an ArrayBuffer', new ArrayBuffer(8)],
    ['a Uint8Array', new Uint8Array([123, 125])],
    ['a Buffer', Buffer.from('{"type":"STATUS"}')],
    ['a Blob', new Blob(['{}'])],
    ['null', null],
    ['undefined', undefined],
    ['a number', 42],
    ['an already parsed object', { type: 'HISTORY', data: { bids: [], items: [] } }],
  ])('turns %s into a binary protocol error', (_label, frame) => {
    expect(normalise(frame)).toEqual({ type: 'protocol-error', reason: 'binary', raw: '' });
  });

  it('never throws, whatever arrives', () => {
    const frames: unknown[] = [
      '',
      ' ',
      '\u0000',
      '{"type":"HISTORY"}',
      '{"type":"HISTORY","data":null}',
      '{"__proto__":{"type":"STATUS"}}',
      '{"type":{"nested":true}}',
      '['.repeat(5000) + ']'.repeat(5000),
      Symbol('frame'),
      () => 'frame',
      new Date(),
      BigInt(1),
    ];
    for (const frame of frames) {
      let event: ProtocolEvent | undefined;
      expect(() => (event = normalise(frame))).not.toThrow();
      expect(event?.type).toBe('protocol-error');
    }
  });
});

describe('normaliseFrames', () => {
  it('maps a stream of raw frames to typed events, in order', async () => {
    const events = await lastValueFrom(
      from<unknown[]>([JSON.stringify(STATUS), 'nope', new ArrayBuffer(1), '{"type":"NOPE"}']).pipe(normaliseFrames(), toArray()),
    );
    expect(events.map((e) => (e.type === 'message' ? e.msg.type : e.reason))).toEqual(['STATUS', 'json', 'binary', 'schema']);
    expect(events[0]).toEqual({ type: 'message', msg: STATUS });
  });
});

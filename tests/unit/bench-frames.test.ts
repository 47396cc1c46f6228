/**
 * The benchmark's clients read the server's frames with plain loops (bench/frames.ts): a key read
 * wrongly would time the wrong bid, so the fast reading is held to JSON.parse on frames like the
 * server's, names with quotes and backslashes included, cut into reads at every byte.
 */
import { describe, expect, it } from 'vitest';
import { bidKey } from '../../bench/common';
import { BID_CREATED_ITEM, bidKeyOf, FrameReader, startsWith } from '../../bench/frames';

/** A server frame (unmasked, FIN set) around `payload`. */
function frame(payload: Buffer, opcode = 0x1): Buffer {
  const n = payload.length;
  const head = n < 126 ? Buffer.from([0x80 | opcode, n]) : n < 65536 ? Buffer.from([0x80 | opcode, 126, n >> 8, n & 0xff]) : Buffer.alloc(10);
  if (n >= 65536) {
    head[0] = 0x80 | opcode;
    head[1] = 127;
    head.writeUInt32BE(Math.floor(n / 2 ** 32), 2);
    head.writeUInt32BE(n % 2 ** 32, 6);
  }
  return Buffer.concat([head, payload]);
}

const bidFrame = (itemId: number, itemName: string, amount: number) =>
  Buffer.from(
    JSON.stringify({ type: 'BID_CREATED', data: { itemId, itemName, amount, username: 'Ana "the" \\ bold', timer: 30, timestamp: 1_700_000_000_000, endsAt: 1_700_000_030_000 } }),
  );

describe('bench frames', () => {
  it('reads the bid key of a BID_CREATED frame as JSON.parse does, whatever the item name holds', () => {
    const names = ['Gold chest', 'a "quoted" name', 'back\\slash\\', '\\"', 'طومار النقاط', 'x'.repeat(300), ''];
    for (const [i, name] of names.entries()) {
      const payload = bidFrame(i + 1, name, 1000 + i * 7);
      const parsed = JSON.parse(payload.toString()) as { data: { itemId: number; amount: number } };
      expect(startsWith(payload, 0, payload.length, BID_CREATED_ITEM)).toBe(true);
      expect(bidKeyOf(payload, 0, payload.length)).toBe(bidKey(parsed.data.itemId, parsed.data.amount));
    }
  });

  it('falls back to searching when the fields come in another order', () => {
    const payload = Buffer.from('{"type":"BID_CREATED","data":{"itemId":7,"amount":55,"itemName":"late name"}}');
    expect(bidKeyOf(payload, 0, payload.length)).toBe(bidKey(7, 55));
  });

  it('splits a stream into whole frames however it is cut into reads', () => {
    const small = [bidFrame(3, 'Gold', 10), Buffer.alloc(200, 0x61), bidFrame(4, 'a"b', 11)];
    // cut at every byte, and (a frame with a 64-bit length) in larger reads
    for (const [payloads, cuts] of [
      [small, [1, 2, 3, 7, 126]],
      [[...small, Buffer.alloc(70_000, 0x62)], [1000, 65_536, Infinity]],
    ] as const) {
      const stream = Buffer.concat([...payloads.map((p) => frame(p)), frame(Buffer.from('hi'), 0x9)]);
      for (const cut of cuts) {
        const reader = new FrameReader();
        const seen: { opcode: number; payload: string }[] = [];
        for (let at = 0; at < stream.length; at += cut) {
          reader.push(stream.subarray(at, at + cut), (opcode, buf, start, end) => {
            seen.push({ opcode, payload: buf.toString('latin1', start, end) });
            return true;
          });
        }
        expect(seen).toEqual([...payloads.map((p) => ({ opcode: 1, payload: p.toString('latin1') })), { opcode: 9, payload: 'hi' }]);
      }
    }
  });

  it('stops at a close frame and refuses a fragment', () => {
    const reader = new FrameReader();
    const seen: number[] = [];
    reader.push(Buffer.concat([frame(Buffer.from([0x03, 0xe8]), 0x8), frame(Buffer.from('after'))]), (opcode) => {
      seen.push(opcode);
      return opcode !== 0x8;
    });
    expect(seen).toEqual([0x8]);
    const fragment = Buffer.from([0x01, 0x02, 0x61, 0x62]);
    expect(() => new FrameReader().push(fragment, () => true)).toThrow(/fragmented/);
  });
});

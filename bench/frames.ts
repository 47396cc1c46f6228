/**
 * Reading the server's frames in the benchmark's client threads, where every bid reaches every
 * socket (hundreds of thousands of frames a second): plain loops over the bytes, no allocation and
 * no native call per frame. A native call per frame (Buffer#indexOf to find a field,
 * Buffer#compare to tell a frame's type) was the clients' largest cost.
 */
import { bidKey } from './common';

export const BID_CREATED_ITEM = Buffer.from('{"type":"BID_CREATED","data":{"itemId":');
export const ERROR = Buffer.from('{"type":"ERROR"');
export const HISTORY = Buffer.from('{"type":"HISTORY"');
const ITEM_ID = Buffer.from('"itemId":');
const AMOUNT = Buffer.from('"amount":');
const ITEM_NAME = Buffer.from(',"itemName":"');
const AMOUNT_AFTER_NAME = Buffer.from(',"amount":');

/** buf[at, end) starts with `lit`. */
export function startsWith(buf: Buffer, at: number, end: number, lit: Buffer): boolean {
  if (end - at < lit.length) return false;
  for (let i = 0; i < lit.length; i++) if (buf[at + i] !== lit[i]) return false;
  return true;
}

/** Where the last digitsAt's number ended (not an object per call). */
let digitsEnd = 0;
/** The unsigned integer written at buf[at, …) (NaN when there is none); it ends at `digitsEnd`. */
function digitsAt(buf: Buffer, at: number, end: number): number {
  let n = 0;
  let i = at;
  for (; i < end; i++) {
    const c = buf[i] - 48;
    if (c < 0 || c > 9) break;
    n = n * 10 + c;
  }
  digitsEnd = i;
  return i === at ? NaN : n;
}

/** The integer after `marker` in buf[start, end) (the frames are compact JSON, so a fixed marker finds a field). */
function intAfter(buf: Buffer, start: number, end: number, marker: Buffer): number {
  const at = buf.indexOf(marker, start);
  if (at < 0 || at >= end) return NaN;
  return digitsAt(buf, at + marker.length, end);
}

/**
 * A BID_CREATED frame's bid key (item and amount), read where the server writes those fields
 * ({"type":"BID_CREATED","data":{"itemId":…,"itemName":"…","amount":…) in one pass. A frame laid
 * out otherwise is searched field by field.
 */
export function bidKeyOf(buf: Buffer, start: number, end: number): number {
  const itemId = digitsAt(buf, start + BID_CREATED_ITEM.length, end);
  let at = digitsEnd;
  if (!Number.isNaN(itemId) && startsWith(buf, at, end, ITEM_NAME)) {
    // past the item's name, a JSON string (a backslash escapes the byte after it), to its closing quote
    for (at += ITEM_NAME.length; at < end && buf[at] !== 0x22; at++) if (buf[at] === 0x5c) at++;
    if (startsWith(buf, at + 1, end, AMOUNT_AFTER_NAME)) {
      const amount = digitsAt(buf, at + 1 + AMOUNT_AFTER_NAME.length, end);
      if (!Number.isNaN(amount)) return bidKey(itemId, amount);
    }
  }
  return bidKey(intAfter(buf, start, end, ITEM_ID), intAfter(buf, start, end, AMOUNT));
}

/** Told each whole frame: its opcode and payload buf[start, end); false stops reading this chunk (the socket closes). */
export type OnFrame = (opcode: number, buf: Buffer, start: number, end: number) => boolean;

/**
 * Splits a server's TCP stream into WebSocket frames. A server's frames are unmasked; ws never
 * fragments what it sends, and a fragment is refused rather than misread. A frame cut between two
 * reads is kept until the rest arrives.
 */
export class FrameReader {
  private pending: Buffer | null = null;

  push(chunk: Buffer, onFrame: OnFrame): void {
    const buf: Buffer = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = null;
    let at = 0;
    while (at + 2 <= buf.length) {
      const b0 = buf[at];
      let length = buf[at + 1] & 0x7f;
      let header = 2;
      if (length === 126) {
        if (at + 4 > buf.length) break;
        length = buf.readUInt16BE(at + 2);
        header = 4;
      } else if (length === 127) {
        if (at + 10 > buf.length) break;
        length = buf.readUInt32BE(at + 2) * 2 ** 32 + buf.readUInt32BE(at + 6);
        header = 10;
      }
      if (at + header + length > buf.length) break;
      const start = at + header;
      const end = start + length;
      at = end;
      if ((b0 & 0x80) === 0) throw new Error('the server sent a fragmented frame; this client reads whole frames only');
      if (!onFrame(b0 & 0x0f, buf, start, end)) return;
    }
    if (at < buf.length) this.pending = Buffer.from(buf.subarray(at));
  }
}

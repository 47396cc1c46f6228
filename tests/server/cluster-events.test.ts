/**
 * The 'bids' event carries each bid whole, so its NOTIFY payloads must stay under PostgreSQL's
 * 8,000 bytes however long and however non-ASCII the names are: bidsNotifications splits a group's
 * bids into payloads by bytes, in order.
 */
import { describe, expect, it } from 'vitest';
import { ITEM_NAME_MAX } from '../../src/protocol/store';
import { USERNAME_MAX_LENGTH } from '../../src/protocol/auth';
import { bidsNotifications, readEnvelope, type BidEvent } from '../../server/cluster/events';

/** The payload as PostgreSQL receives it, from `select pg_notify('channel', '…')`. */
function payloadOf(statement: string): string {
  const match = /^select pg_notify\('[a-z_]+', '((?:[^']|'')*)'\)$/s.exec(statement);
  if (!match) throw new Error(`not a NOTIFY: ${statement.slice(0, 80)}`);
  return match[1].replace(/''/g, "'");
}

const long = (text: string, length: number) => text.repeat(Math.ceil(length / text.length)).slice(0, length);

function bidEvent(n: number, itemName: string, username: string): BidEvent {
  return {
    w: { itemId: n, itemName, amount: 1000 + n, username, timer: 600, timestamp: 1_800_000_000_000 + n, endsAt: 1_800_000_600_000, extensions: 0, reserveMet: false },
    by: n,
    i: n,
    outbid: n + 1,
    u: [
      [n + 1, 5000, 0],
      [n, 5000, 1000 + n],
    ],
  };
}

describe('bidsNotifications', () => {
  it.each([
    ['Arabic', 'تاجٌ ذهبيّ '],
    ['emoji (four bytes each)', '👑🗡️'],
    ["quotes (doubled in SQL, not in the payload)", "King's 'crown' "],
  ])('keeps each payload under 8,000 bytes with the longest names in %s, every bid once and in order', (_what, text) => {
    const bids = Array.from({ length: 120 }, (_, n) => bidEvent(n, long(text, ITEM_NAME_MAX), long(text, USERNAME_MAX_LENGTH)));
    const statements = bidsNotifications(bids);
    expect(statements.length).toBeGreaterThan(1);
    const told: BidEvent[] = [];
    for (const statement of statements) {
      const payload = payloadOf(statement);
      expect(Buffer.byteLength(payload)).toBeLessThan(8000);
      const envelope = readEnvelope(payload);
      expect(envelope?.e.k).toBe('bids');
      if (envelope?.e.k === 'bids') told.push(...(envelope.e.b as BidEvent[]));
    }
    expect(told).toEqual(bids);
  });

  it('sends a small group in one payload', () => {
    const bids = [bidEvent(1, 'Golden Sword', 'olga'), bidEvent(2, 'Silver Shield', 'pavel')];
    const statements = bidsNotifications(bids);
    expect(statements).toHaveLength(1);
    expect(readEnvelope(payloadOf(statements[0]))?.e).toEqual({ k: 'bids', b: bids });
  });
});

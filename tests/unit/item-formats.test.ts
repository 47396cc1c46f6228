import { describe, expect, it } from 'vitest';
import { firstIssue } from '../../src/protocol/auth';
import { createItemBody, editItemBody, formatFault, STORE_ERRORS } from '../../src/protocol/store';

const BASE = { itemName: 'Sword', start_price: 100, minIncrement: 10, duration: 60, extendWindow: 0, maxExtensions: 0 };

function sentence(body: unknown): string | null {
  const parsed = createItemBody.safeParse(body);
  return parsed.success ? null : firstIssue(parsed.error);
}

describe('an item\'s format and prices', () => {
  it('takes the english default, a reserve at the start price and a buy-now at the reserve', () => {
    expect(sentence(BASE)).toBeNull();
    expect(sentence({ ...BASE, format: 'english', reservePrice: 100, buyNowPrice: 100 })).toBeNull();
    expect(sentence({ ...BASE, format: 'sealed-second', reservePrice: 500 })).toBeNull();
  });

  it('refuses impossible combinations with a sentence', () => {
    expect(sentence({ ...BASE, reservePrice: 99 })).toBe(STORE_ERRORS.reserveBelowStart);
    expect(sentence({ ...BASE, buyNowPrice: 99 })).toBe(STORE_ERRORS.buyNowBelowStart);
    expect(sentence({ ...BASE, reservePrice: 300, buyNowPrice: 299 })).toBe(STORE_ERRORS.buyNowBelowReserve);
    expect(sentence({ ...BASE, format: 'sealed-first', buyNowPrice: 500 })).toBe(STORE_ERRORS.buyNowSealed);
    expect(sentence({ ...BASE, format: 'dutch' })).toBe(STORE_ERRORS.format);
    expect(sentence({ ...BASE, reservePrice: 0 })).toBe(STORE_ERRORS.reservePrice);
    expect(sentence({ ...BASE, buyNowPrice: 1.5 })).toBe(STORE_ERRORS.buyNowPrice);
  });

  it('judges an edit on the fields it leaves (formatFault), and lets it remove a price with null', () => {
    expect(editItemBody.safeParse({ reservePrice: null, buyNowPrice: null }).success).toBe(true);
    expect(formatFault({ format: 'sealed-second', start_price: 100, buyNowPrice: null })).toBeNull();
    expect(formatFault({ format: 'english', start_price: 100, reservePrice: 50 })).toBe(STORE_ERRORS.reserveBelowStart);
  });
});

import { describe, expect, it } from 'vitest';
import { POINTS_ERRORS, transactionBody } from '../../src/protocol/points';
import { readDecimal, readWhole } from '../../src/ui/lib/numbers';

describe('readWhole: a whole number as people type it', () => {
  it.each([
    ['en', '10000', 10000],
    ['en', ' 10,000 ', 10000],
    ['en', '1,234,567', 1234567],
    ['fr', '10 000', 10000],
    ['fr', '10\u202f000', 10000],
    ['fr', '10\u00a0000', 10000],
    ['it', '10.000', 10000],
    ['es', '1.234.567', 1234567],
    ['ar', '١٠٠٠٠', 10000],
    ['ar', '١٠٬٠٠٠', 10000],
    ['ar', '۱۲۳', 123],
    ['zh', '10,000', 10000],
    ['en', '-25', -25],
    ['en', '\u221225', -25],
    ['en', '+7', 7],
  ])('%s: %j is %d', (locale, text, n) => expect(readWhole(text, locale)).toBe(n));

  it.each([
    ['en', ''],
    ['en', '   '],
    ['en', '1.5'],
    ['en', '10.000'], // a point is not an English group separator
    ['fr', '10,000'], // nor a comma a French one
    ['en', '1,23'],
    ['en', '10 00'],
    ['en', '12abc'],
    ['en', '1e3'],
    ['en', '0x10'],
    ['en', '--5'],
    ['en', '10,000,'],
  ])('%s: %j is not one', (locale, text) => expect(readWhole(text, locale)).toBeNaN());
});

describe('readDecimal: a number with a fraction', () => {
  it.each([
    ['en', '0.5', 0.5],
    ['en', '1,234.25', 1234.25],
    ['fr', '0,5', 0.5],
    ['fr', '0.5', 0.5],
    ['fr', '1 234,5', 1234.5],
    ['it', '1.234,5', 1234.5],
    ['it', '1.234', 1234],
    ['it', '0.5', 0.5],
    ['ar', '٠٫٥', 0.5],
    ['en', '3', 3],
  ])('%s: %j is %d', (locale, text, n) => expect(readDecimal(text, locale)).toBe(n));

  it.each([
    ['en', '0,5'],
    ['en', '1.2.3'],
    ['en', '.'],
    ['en', 'half'],
  ])('%s: %j is not one', (locale, text) => expect(readDecimal(text, locale)).toBeNaN());
});

describe('the grant form: a typed amount read, then checked by the API schema', () => {
  const check = (text: string, locale: string) =>
    transactionBody.safeParse({ username: 'Aurélien', delta: readWhole(text, locale), reason: 'KvK' }).error?.issues.map((i) => i.message);

  it.each([
    ['fr', '100 000 000 000 000 000 000'],
    ['en', '99999999999999999999'],
    ['en', '1,000,000,001'],
  ])('%s: %j is told the 1,000,000,000 cap, not "whole number"', (locale, text) => expect(check(text, locale)).toEqual([POINTS_ERRORS.deltaTooLarge]));

  it.each([
    ['en', '1.5'],
    ['en', '0'],
    ['en', 'ten'],
  ])('%s: %j is told a whole number', (locale, text) => expect(check(text, locale)).toEqual([POINTS_ERRORS.deltaWhole]));

  it('the cap itself passes', () => expect(check('1 000 000 000', 'fr')).toBeUndefined());
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RTL_LOCALES } from '../../src/protocol/locales';

/**
 * In Arabic, "عنوان الصورة (https://…)" rendered as "(…//:https)": a left-to-right run
 * such as an address, inside a right-to-left sentence, must be isolated (U+2066 … U+2069) so its
 * characters keep their order.
 */
const LRI = '\u2066';
const PDI = '\u2069';

describe('right-to-left locales', () => {
  for (const locale of RTL_LOCALES) {
    const messages = JSON.parse(readFileSync(`src/locales/${locale}.json`, 'utf8')) as Record<string, string>;
    it(`${locale}: every web address in a message is isolated left to right`, () => {
      const bare: string[] = [];
      for (const [key, text] of Object.entries(messages)) {
        for (const match of text.matchAll(/https?:\/\/\S*/g)) {
          const before = text.slice(0, match.index);
          const isolated = before.lastIndexOf(LRI) > before.lastIndexOf(PDI) && text.indexOf(PDI, match.index) !== -1;
          if (!isolated) bare.push(`${key}: ${text}`);
        }
      }
      expect(bare).toEqual([]);
    });
  }
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../src/protocol/locales';
import { EXPORT_TITLES, SCREEN_KEYS, type ExportTitle } from '../../server/exports/titles';

const catalog = (locale: string) => JSON.parse(readFileSync(join(import.meta.dirname, '../../src/locales', `${locale}.json`), 'utf8')) as Record<string, string>;

describe('export column titles', () => {
  it('are the titles the pages show over the same columns, in every language', () => {
    for (const locale of LOCALES) {
      const texts = catalog(locale);
      for (const [title, key] of Object.entries(SCREEN_KEYS) as [ExportTitle, string][]) {
        expect(texts[key], `${locale} ${key}`).toBeTruthy();
        expect(EXPORT_TITLES[locale][title], `${locale} ${title}`).toBe(texts[key]);
      }
    }
  });

  it('every language titles every column, the exports’ own titles translated', () => {
    const english = EXPORT_TITLES.en;
    for (const locale of LOCALES) {
      expect(Object.keys(EXPORT_TITLES[locale]).sort(), locale).toEqual(Object.keys(english).sort());
      if (locale === 'en') continue;
      const own = (Object.keys(english) as ExportTitle[]).filter((t) => !(t in SCREEN_KEYS) && t !== 'id');
      for (const title of own) expect(EXPORT_TITLES[locale][title], `${locale} ${title}`).not.toBe(english[title]);
      expect(EXPORT_TITLES[locale].change).toContain('{title}');
    }
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkServerTexts, duplicateKeys } from '../../scripts/check-locales';
import { SERVER_TEXTS, translateServerText, type ServerTexts } from '../../src/locales/server-texts';
import { alreadyAppliedText, automaticReason } from '../../src/protocol/automatic-points';
import { HTTP_ERRORS } from '../../src/protocol/http';
import { LOCALES } from '../../src/protocol/locales';
import { BULK_ROW_ERRORS, LEDGER_REASONS, POINTS_ERRORS, POINTS_TEMPLATES } from '../../src/protocol/points';
import { duplicateFileText } from '../../src/protocol/scans';
import { SCAN_ROW_TEXTS } from '../../src/protocol/scan-file';
import { fill, holesOf } from '../../src/protocol/texts';

const shipped = (locale: string) => JSON.parse(readFileSync(`src/locales/server/${locale}.json`, 'utf8')) as ServerTexts;
const fr = shipped('fr');
/** A value as the translation writes it: isolated, so it keeps its own direction. */
const iso = (values: Record<string, string | number>) => Object.fromEntries(Object.entries(values).map(([k, v]) => [k, `\u2068${v}\u2069`]));
const ar = shipped('ar');

describe('fill and read back', () => {
  it('fills holes once: a value that looks like a hole stays as it is', () => {
    expect(fill(LEDGER_REASONS.won, { item: 'Gold {item} x2' })).toBe('Won "Gold {item} x2"');
  });

  it('reads every template back from its filled text', () => {
    // a catalog that says each template as its holes: what came back is what went in
    const echo = Object.fromEntries(Object.entries(SERVER_TEXTS).map(([key, text]) => [key, `${key}|${holesOf(text).map((h) => `{${h}}`).join('|')}`]));
    for (const [key, text] of Object.entries(SERVER_TEXTS)) {
      const holes = holesOf(text);
      if (!holes.length) continue;
      const values = Object.fromEntries(holes.map((h, i) => [h, `v${i} x`]));
      expect(translateServerText(fill(text, values), echo)).toBe(`${key}|${holes.map((_, i) => `\u2068v${i} x\u2069`).join('|')}`);
    }
  });
});

describe('a server text in the reader’s language', () => {
  it('is the English text itself in English', () => {
    expect(translateServerText(POINTS_ERRORS.moreThanBalance, null)).toBe(POINTS_ERRORS.moreThanBalance);
  });

  it('finds a fixed text by its English words', () => {
    expect(translateServerText(HTTP_ERRORS.busy, fr)).toBe(fr['HTTP_ERRORS.busy']);
    expect(translateServerText(HTTP_ERRORS.busy, fr)).not.toBe(HTTP_ERRORS.busy);
  });

  it('keeps the values of a template: ids, dates, names', () => {
    const said = translateServerText(duplicateFileText(12, '2024-03-03'), fr);
    expect(said).toBe(fill(fr['SCAN_TEMPLATES.duplicateFile'], iso({ scanId: 12, takenAt: '2024-03-03' })));
    expect(said).toContain('#\u206812\u2069');
    expect(said).toContain('2024-03-03');
    expect(translateServerText(alreadyAppliedText(7), ar)).toBe(fill(ar['RULE_TEMPLATES.alreadyApplied'], iso({ runId: 7 })));
    const reason = automaticReason({ id: 3, name: 'Power "up", (x)' }, 10, 11, 123456);
    expect(translateServerText(reason, fr)).toBe(fill(fr['RULE_TEMPLATES.reason'], iso({ ruleId: 3, rule: 'Power "up", (x)', from: 10, to: 11, governorId: 123456 })));
  });

  it('translates a protocol text inside a template (a bulk line’s ledger refusal, a sentinel’s meaning)', () => {
    const line = fill(POINTS_TEMPLATES.bulkRefusal, { line: 4, username: 'Zed', message: POINTS_ERRORS.moreThanBalance });
    expect(translateServerText(line, fr)).toBe(fill(fr['POINTS_TEMPLATES.bulkRefusal'], iso({ line: 4, username: 'Zed', message: fr['POINTS_ERRORS.moreThanBalance'] })));
    expect(translateServerText(SCAN_ROW_TEXTS.sentinel('T5 Kills', -2), ar)).toBe(fill(ar['SCAN_ROW_TEMPLATES.sentinel'], iso({ column: 'T5 Kills', value: -2, meaning: ar['SENTINEL_TEXTS.skipped'] })));
  });

  it('writes a number the server grouped in English the reader’s way, and leaves ids alone', () => {
    const fr_ = new Intl.NumberFormat('fr');
    const said = translateServerText(SCAN_ROW_TEXTS.wentDown('Deads', 1_896_457, 1_891_457), fr, (n) => fr_.format(n));
    expect(said).toBe(fill(fr['SCAN_ROW_TEMPLATES.wentDown'], iso({ column: 'Deads', before: fr_.format(1_896_457), now: fr_.format(1_891_457) })));
    expect(said).not.toContain('1,896,457');
    expect(translateServerText(duplicateFileText(1234, '2024-03-03'), fr, (n) => fr_.format(n))).toContain('#\u20681234\u2069');
  });

  it('says a row’s several errors, joined by spaces, each in the language', () => {
    const row = `${BULK_ROW_ERRORS.unknownUsername} ${BULK_ROW_ERRORS.amount}`;
    expect(translateServerText(row, fr)).toBe(`${fr['BULK_ROW_ERRORS.unknownUsername']} ${fr['BULK_ROW_ERRORS.amount']}`);
    expect(translateServerText(`${BULK_ROW_ERRORS.amount} and more words`, fr)).toBe(`${BULK_ROW_ERRORS.amount} and more words`);
  });

  it('leaves a text it does not know, and a person’s own words in a hole, as they are', () => {
    expect(translateServerText('Bought for the alliance fort', fr)).toBe('Bought for the alliance fort');
    const line = fill(POINTS_TEMPLATES.bulkRefusal, { line: 2, username: 'Zed', message: 'Some other words.' });
    expect(translateServerText(line, fr)).toBe(fill(fr['POINTS_TEMPLATES.bulkRefusal'], iso({ line: 2, username: 'Zed', message: 'Some other words.' })));
    expect(translateServerText(BULK_ROW_ERRORS.amount, {})).toBe(BULK_ROW_ERRORS.amount);
  });
});

describe('the catalog', () => {
  it('holds every text the protocol exports for a person to read', async () => {
    const known = new Set(Object.values(SERVER_TEXTS));
    const missing: string[] = [];
    for (const file of readdirSync('src/protocol').filter((f) => f.endsWith('.ts'))) {
      const module = (await import(`../../src/protocol/${file.slice(0, -3)}.ts`)) as Record<string, unknown>;
      for (const [name, group] of Object.entries(module)) {
        if (!/_(ERRORS|TEMPLATES|REASONS|TEXTS)$/.test(name) || typeof group !== 'object' || group === null || Array.isArray(group)) continue;
        for (const [key, text] of Object.entries(group)) if (typeof text === 'string' && !known.has(text)) missing.push(`${name}.${key}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('is said in every language but English, with English’s holes and numbers', () => {
    expect(checkServerTexts(shipped)).toEqual([]);
    for (const locale of LOCALES.filter((l) => l !== 'en')) expect(duplicateKeys(readFileSync(`src/locales/server/${locale}.json`, 'utf8'))).toEqual([]);
  });

  it('names a missing key, an extra key, a lost hole and a changed number', () => {
    const problems = checkServerTexts((locale) => {
      const texts = { ...shipped(locale) } as Record<string, string>;
      if (locale === 'fr') delete texts['HTTP_ERRORS.busy'];
      if (locale === 'es') texts['MADE.up'] = 'x';
      if (locale === 'it') texts['LEDGER_REASONS.won'] = 'Vinto';
      if (locale === 'zh') texts['POINTS_ERRORS.bulkTooManyRows'] = '文件最多 500 行。';
      return texts;
    });
    expect(problems.sort()).toEqual([
      'server/es: extra key MADE.up',
      'server/fr: missing key HTTP_ERRORS.busy',
      'server/it: LEDGER_REASONS.won has holes {}, English has {item}',
      'server/zh: POINTS_ERRORS.bulkTooManyRows names the numbers [500], English names [5000]',
    ]);
  });

  it('finds a key written twice', () => {
    expect(duplicateKeys('{\n  "a": "1",\n  "b": "2",\n  "a": "3"\n}\n')).toEqual(['a']);
  });
});

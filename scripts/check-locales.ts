/**
 * npm run check:locales — every locale has exactly English's keys, every value is a string that
 * parses as ICU MessageFormat, and each keeps English's placeholders; every language but English
 * says each of the server's texts (checkServerTexts). Exits 1 and names each problem otherwise.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { SERVER_TEXTS } from '../src/locales/server-texts';
import { LOCALES } from '../src/protocol/locales';
import { holesOf } from '../src/protocol/texts';

const DIR = join(import.meta.dirname, '..', 'src', 'locales');

export function placeholders(elements: MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const el of elements) {
    if (el.type === TYPE.argument || el.type === TYPE.number || el.type === TYPE.date || el.type === TYPE.time) into.add(el.value);
    if (el.type === TYPE.plural || el.type === TYPE.select) {
      into.add(el.value);
      for (const option of Object.values(el.options)) placeholders(option.value, into);
    }
    if (el.type === TYPE.tag) placeholders(el.children, into);
  }
  return into;
}

export function checkLocales(read: (locale: string) => unknown): string[] {
  const problems: string[] = [];
  const en = read('en') as Record<string, string>;
  const enKeys = Object.keys(en);
  for (const locale of LOCALES) {
    let messages: Record<string, unknown>;
    try {
      messages = read(locale) as Record<string, unknown>;
    } catch (error) {
      problems.push(`${locale}: cannot be read: ${(error as Error).message}`);
      continue;
    }
    const keys = Object.keys(messages);
    for (const key of enKeys) if (!(key in messages)) problems.push(`${locale}: missing key ${key}`);
    for (const key of keys) if (!(key in en)) problems.push(`${locale}: extra key ${key}`);
    for (const key of keys) {
      const value = messages[key];
      if (typeof value !== 'string' || value.trim() === '') {
        problems.push(`${locale}: ${key} is not a non-empty string`);
        continue;
      }
      try {
        const want = [...placeholders(parse(en[key] ?? ''))].sort().join(',');
        const got = [...placeholders(parse(value))].sort().join(',');
        if (key in en && want !== got) problems.push(`${locale}: ${key} has placeholders {${got}}, English has {${want}}`);
      } catch (error) {
        problems.push(`${locale}: ${key} is not valid ICU MessageFormat: ${(error as Error).message}`);
      }
    }
  }
  return problems;
}

/** The numbers a text names, as digits: a language's thousands separator (1,000 1.000 1 000) does not count. */
const numbersOf = (text: string) => (text.match(/\d(?:[\d,.\u00a0\u202f ]*\d)?/g) ?? []).map((n) => n.replace(/\D/g, '')).sort();

/**
 * The server's texts in each language but English (src/locales/server/<locale>.json): exactly the
 * protocol's keys, each a non-empty string with English's holes and English's numbers (a limit
 * said wrong is worse than one said in English).
 */
export function checkServerTexts(read: (locale: string) => unknown, english: Readonly<Record<string, string>> = SERVER_TEXTS): string[] {
  const problems: string[] = [];
  for (const locale of LOCALES) {
    if (locale === 'en') continue;
    let texts: Record<string, unknown>;
    try {
      texts = read(locale) as Record<string, unknown>;
    } catch (error) {
      problems.push(`server/${locale}: cannot be read: ${(error as Error).message}`);
      continue;
    }
    for (const key of Object.keys(english)) if (!(key in texts)) problems.push(`server/${locale}: missing key ${key}`);
    for (const [key, value] of Object.entries(texts)) {
      if (!(key in english)) {
        problems.push(`server/${locale}: extra key ${key}`);
        continue;
      }
      if (typeof value !== 'string' || value.trim() === '') {
        problems.push(`server/${locale}: ${key} is not a non-empty string`);
        continue;
      }
      const want = holesOf(english[key]).sort().join(',');
      const got = holesOf(value).sort().join(',');
      if (want !== got) problems.push(`server/${locale}: ${key} has holes {${got}}, English has {${want}}`);
      const wantNumbers = numbersOf(english[key]).join(' ');
      const gotNumbers = numbersOf(value).join(' ');
      if (wantNumbers !== gotNumbers) problems.push(`server/${locale}: ${key} names the numbers [${gotNumbers}], English names [${wantNumbers}]`);
    }
  }
  return problems;
}

/** Keys written twice in a locale file (JSON.parse keeps the last one silently). */
export function duplicateKeys(raw: string): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const m of raw.matchAll(/^\s*"((?:[^"\\]|\\.)*)"\s*:/gm)) (seen.has(m[1]) ? twice : seen).add(m[1]);
  return [...twice];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const files = [...LOCALES.map((l) => `${l}.json`), ...LOCALES.filter((l) => l !== 'en').map((l) => `server/${l}.json`)];
  const problems = [
    ...files.flatMap((file) => duplicateKeys(readFileSync(join(DIR, file), 'utf8')).map((key) => `${file}: key ${key} is written twice`)),
    ...checkLocales((locale) => JSON.parse(readFileSync(join(DIR, `${locale}.json`), 'utf8'))),
    ...checkServerTexts((locale) => JSON.parse(readFileSync(join(DIR, 'server', `${locale}.json`), 'utf8'))),
  ];
  if (problems.length) {
    for (const p of problems) console.error(p);
    console.error(`locale check: ${problems.length} problem(s)`);
    process.exit(1);
  }
  console.log(`locale check: ${LOCALES.length} locales, every key present, placeholders match; server texts in every language, holes and numbers kept`);
}

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

/**
 * One language's catalog against English's: a line per missing or extra key and per value that is
 * not a non-empty string; `unlike` says what else is wrong with a value, given English's text (none
 * for an extra key), or null.
 */
function catalogProblems(label: string, english: Readonly<Record<string, string>>, texts: Record<string, unknown>, unlike: (english: string | undefined, value: string) => string | null): string[] {
  const problems: string[] = [];
  for (const key of Object.keys(english)) if (!(key in texts)) problems.push(`${label}: missing key ${key}`);
  for (const key of Object.keys(texts)) if (!(key in english)) problems.push(`${label}: extra key ${key}`);
  for (const [key, value] of Object.entries(texts)) {
    if (typeof value !== 'string' || value.trim() === '') {
      problems.push(`${label}: ${key} is not a non-empty string`);
      continue;
    }
    const problem = unlike(key in english ? english[key] : undefined, value);
    if (problem) problems.push(`${label}: ${key} ${problem}`);
  }
  return problems;
}

/** Every language's catalog, read by `read`; one that cannot be read is named. */
function eachCatalog(locales: readonly string[], label: (locale: string) => string, read: (locale: string) => unknown, check: (label: string, texts: Record<string, unknown>) => string[]): string[] {
  return locales.flatMap((locale) => {
    try {
      return check(label(locale), read(locale) as Record<string, unknown>);
    } catch (error) {
      return [`${label(locale)}: cannot be read: ${(error as Error).message}`];
    }
  });
}

/** A message must parse as ICU (an extra key's too) and keep English's placeholders. */
const icuUnlike = (english: string | undefined, value: string): string | null => {
  try {
    const want = [...placeholders(parse(english ?? ''))].sort().join(',');
    const got = [...placeholders(parse(value))].sort().join(',');
    return english === undefined || want === got ? null : `has placeholders {${got}}, English has {${want}}`;
  } catch (error) {
    return `is not valid ICU MessageFormat: ${(error as Error).message}`;
  }
};

export function checkLocales(read: (locale: string) => unknown): string[] {
  const en = read('en') as Record<string, string>;
  return eachCatalog(LOCALES, (locale) => locale, read, (label, messages) => catalogProblems(label, en, messages, icuUnlike));
}

/** The numbers a text names, as digits: a language's thousands separator (1,000 1.000 1 000) does not count. */
const numbersOf = (text: string) => (text.match(/\d(?:[\d,.\u00a0\u202f ]*\d)?/g) ?? []).map((n) => n.replace(/\D/g, '')).sort();

/**
 * The server's texts in each language but English (src/locales/server/<locale>.json): exactly the
 * protocol's keys, each a non-empty string with English's holes and English's numbers (a limit
 * said wrong is worse than one said in English).
 */
export function checkServerTexts(read: (locale: string) => unknown, english: Readonly<Record<string, string>> = SERVER_TEXTS): string[] {
  const unlike = (en: string | undefined, value: string): string | null => {
    if (en === undefined) return null;
    const want = holesOf(en).sort().join(',');
    const got = holesOf(value).sort().join(',');
    if (want !== got) return `has holes {${got}}, English has {${want}}`;
    const wantNumbers = numbersOf(en).join(' ');
    const gotNumbers = numbersOf(value).join(' ');
    return wantNumbers === gotNumbers ? null : `names the numbers [${gotNumbers}], English names [${wantNumbers}]`;
  };
  const others = LOCALES.filter((locale) => locale !== 'en');
  return eachCatalog(others, (locale) => `server/${locale}`, read, (label, texts) => catalogProblems(label, english, texts, unlike));
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

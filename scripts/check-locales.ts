/**
 * npm run check:locales — every locale has exactly English's keys, every value is a string that
 * parses as ICU MessageFormat, and each keeps English's placeholders. Exits 1 and names each
 * problem otherwise.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { LOCALES } from '../src/protocol/locales';

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

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = checkLocales((locale) => JSON.parse(readFileSync(join(DIR, `${locale}.json`), 'utf8')));
  if (problems.length) {
    for (const p of problems) console.error(p);
    console.error(`locale check: ${problems.length} problem(s)`);
    process.exit(1);
  }
  console.log(`locale check: ${LOCALES.length} locales, every key present, placeholders match`);
}

import type { MessageFormatElement } from 'react-intl';
import type { Locale } from '../protocol/locales';
import en from './en.json';
import type { ServerTexts } from './server-texts';

/** Locale messages: precompiled ICU ASTs in the app (see scripts/vite-precompile-messages.ts). */
export type Messages = Record<string, string> | Record<string, MessageFormatElement[]>;
export const englishMessages = en as unknown as Messages;

/** English ships with the page; the other languages load on demand. */
const loaders: Record<Exclude<Locale, 'en'>, () => Promise<{ default: Messages }>> = {
  zh: () => import('./zh.json'),
  ar: () => import('./ar.json'),
  it: () => import('./it.json'),
  es: () => import('./es.json'),
  fr: () => import('./fr.json'),
};

export async function loadMessages(locale: Locale): Promise<Messages> {
  if (locale === 'en') return { ...englishMessages, ...((await import('./en.json?pages')).default as unknown as Messages) } as Messages;
  return (await loaders[locale]()).default;
}

/** The server's texts in each language but English (the wire's own), loaded on demand with its messages. */
const serverTextFiles = import.meta.glob<{ default: ServerTexts }>('./server/*.json');

/** Says a server's text in one language. */
export type ServerTextTranslator = (text: string) => string;

/**
 * The translator of the server's texts into a language, or null for English. The catalog and its
 * reader load with the language (they name every protocol text, so they stay off the first page).
 */
export async function loadServerTexts(locale: Locale): Promise<ServerTextTranslator | null> {
  if (locale === 'en') return null;
  const [{ translateServerText }, texts] = await Promise.all([import('./server-texts'), serverTextFiles[`./server/${locale}.json`]()]);
  const numbers = new Intl.NumberFormat(locale);
  return (text) => translateServerText(text, texts.default, (n) => numbers.format(n));
}

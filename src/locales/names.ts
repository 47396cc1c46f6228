import type { Locale } from '../protocol/locales';

/** Each language by its own name, as a picker shows it. */
export const LANGUAGE_NAMES: Record<Locale, string> = {
  en: 'English',
  zh: '中文',
  ar: 'العربية',
  it: 'Italiano',
  es: 'Español',
  fr: 'Français',
};

import { DirectionProvider } from '@radix-ui/react-direction';
import { useSelector } from '@xstate/react';
import { useEffect, useState, type ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import { englishMessages, loadMessages, type Messages } from '../locales/load';
import { RTL_LOCALES, type Locale } from '../protocol/locales';
import { useChild } from './app-context';

/**
 * The language, direction and theme of the document follow the settings actor: Arabic sets
 * dir=rtl on <html> and on Radix's direction provider, so every primitive mirrors.
 */
export function AppIntlProvider({ children }: { children: ReactNode }) {
  const settingsRef = useChild('settings');
  const settings = useSelector(settingsRef, (s) => s.context);
  const [loaded, setLoaded] = useState<{ locale: Locale; messages: Messages }>({ locale: 'en', messages: englishMessages });

  useEffect(() => {
    let live = true;
    loadMessages(settings.locale).then(
      (messages) => live && setLoaded({ locale: settings.locale, messages }),
      () => live && setLoaded({ locale: 'en', messages: englishMessages }),
    );
    return () => {
      live = false;
    };
  }, [settings.locale]);

  const dir = RTL_LOCALES.includes(loaded.locale) ? 'rtl' : 'ltr';
  useEffect(() => {
    const html = document.documentElement;
    html.lang = loaded.locale;
    html.dir = dir;
  }, [loaded.locale, dir]);

  useEffect(() => {
    const html = document.documentElement;
    html.classList.toggle('dark', settings.theme === 'dark');
    html.dataset.color = settings.color;
  }, [settings.theme, settings.color]);

  return (
    <IntlProvider locale={loaded.locale} messages={loaded.messages} defaultLocale="en" onError={reportMissing}>
      <DirectionProvider dir={dir}>{children}</DirectionProvider>
    </IntlProvider>
  );
}

function reportMissing(error: { code?: string; message: string }) {
  // the locale check keeps every key in every language; a miss here is a bug worth seeing in dev
  if (import.meta.env.DEV && error.code !== 'MISSING_TRANSLATION') console.warn(error.message);
}

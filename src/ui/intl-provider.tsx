import { DirectionProvider } from '@radix-ui/react-direction';
import { useSelector } from '@xstate/react';
import { useEffect, useState, type ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import { englishMessages, loadMessages, loadServerTexts, type Messages, type ServerTextTranslator } from '../locales/load';
import { RTL_LOCALES, type Locale } from '../protocol/locales';
import { useChild } from './app-context';
import { ServerTextsContext } from './lib/server-text';

/**
 * The language, direction and theme of the document follow the settings actor: Arabic sets
 * dir=rtl on <html> and on Radix's direction provider, so every primitive mirrors. The server's
 * texts in that language load with its messages (useServerText).
 */
export function AppIntlProvider({ children }: { children: ReactNode }) {
  const settingsRef = useChild('settings');
  const settings = useSelector(settingsRef, (s) => s.context);
  const [loaded, setLoaded] = useState<{ locale: Locale; messages: Messages; server: ServerTextTranslator | null }>({ locale: 'en', messages: englishMessages, server: null });

  useEffect(() => {
    let live = true;
    Promise.all([loadMessages(settings.locale), loadServerTexts(settings.locale)]).then(
      ([messages, server]) => live && setLoaded({ locale: settings.locale, messages, server }),
      () => live && setLoaded({ locale: 'en', messages: englishMessages, server: null }),
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
      <ServerTextsContext.Provider value={loaded.server}>
        <DirectionProvider dir={dir}>{children}</DirectionProvider>
      </ServerTextsContext.Provider>
    </IntlProvider>
  );
}

function reportMissing(error: { code?: string; message: string }) {
  // the locale check keeps every key in every language; a miss here is a bug worth seeing in dev
  if (import.meta.env.DEV && error.code !== 'MISSING_TRANSLATION') console.warn(error.message);
}

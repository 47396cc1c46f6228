import { useSelector } from '@xstate/react';
import { useIntl } from 'react-intl';
import { LANGUAGE_NAMES } from '../../locales/names';
import { LOCALES, type Locale } from '../../protocol/locales';
import { createAccountApi } from '../../api/account';
import { useChild } from '../app-context';
import { useApi } from '../lib/use-api';
import { rememberPickedLocale } from '../boot/storage';
import { NativeSelect } from '../components/native-select';

/** Changes the interface language; a signed-in account also keeps it on the server. */
export function LanguagePicker({ className }: { className?: string }) {
  const intl = useIntl();
  const account = useApi(createAccountApi);
  const settings = useChild('settings');
  const auth = useChild('auth');
  const locale = useSelector(settings, (s) => s.context.locale);
  const signedIn = useSelector(auth, (s) => s.matches('signedIn'));

  function change(value: string) {
    const next = value as Locale;
    settings.send({ type: 'SET', settings: { locale: next } });
    if (signedIn) {
      account.setLocale(next).then(
        (user) => auth.send({ type: 'USER_UPDATED', user }),
        () => {
          /* the choice still holds on this device */
        },
      );
    } else {
      // signed out (the sign-in page): the sign-in carries it, so the account's saved language does not undo it
      rememberPickedLocale(next);
    }
  }

  return (
    <NativeSelect
      className={className}
      value={locale}
      onChange={(e) => change(e.target.value)}
      aria-label={intl.formatMessage({ id: 'app.language' })}
    >
      {LOCALES.map((l) => (
        <option key={l} value={l} lang={l}>
          {LANGUAGE_NAMES[l]}
        </option>
      ))}
    </NativeSelect>
  );
}

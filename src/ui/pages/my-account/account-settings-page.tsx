import { useSelector } from '@xstate/react';
import { useState, type FormEvent } from 'react';
import { FormattedMessage, FormattedNumber, useIntl } from 'react-intl';
import { isStrongPassword } from '../../../protocol/auth';
import { COLORS, LAYOUT_TYPES, NAV_STYLES, THEMES, type Settings } from '../../../machines/settings.machine';
import { useChild } from '../../app-context';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Card, CardTitle } from '../../components/card';
import { Field } from '../../components/field';
import { Label } from '../../components/label';
import { PasswordInput } from '../../components/password-input';
import { RankTag } from '../../components/rank-tag';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '../../components/select';
import { LanguagePicker } from '../../shell/language-picker';
import { QueryError } from '../../components/query-error';
import { DiscordLinkCard } from '../../components/discord/discord-link';
import { ShareLinks } from '../../components/stats/share-links';
import { NoticePreferencesCard } from './notice-preferences';
import { createAccountApi } from '../../../api/account';
import { useApi } from '../../lib/use-api';

function AccountCard() {
  const user = useSelector(useChild('auth'), (s) => s.context.user);
  if (!user) return null;
  const rows: [string, React.ReactNode][] = [
    ['settings.username', <bdi>{user.username}</bdi>],
    ['settings.email', <span dir="ltr">{user.email}</span>],
    ['settings.playerid', <span dir="ltr">{user.playerid}</span>],
    ['settings.rank', <RankTag rank={user.rank} />],
    ['settings.balance', <FormattedNumber value={user.balance} />],
  ];
  return (
    <Card>
      <CardTitle>
        <FormattedMessage id="settings.account" />
      </CardTitle>
      <dl className="grid gap-3 sm:grid-cols-2">
        {rows.map(([id, value]) => (
          <div key={id} className="min-w-0">
            <dt className="text-xs text-muted-foreground">
              <FormattedMessage id={id} />
            </dt>
            <dd className="font-medium wrap-anywhere">{value}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

type PasswordErrors = Partial<Record<'oldPassword' | 'newPassword' | 'confirm', string>>;

function PasswordCard() {
  const intl = useIntl();
  const account = useApi(createAccountApi);
  const [form, setForm] = useState({ oldPassword: '', newPassword: '', confirm: '' });
  const [errors, setErrors] = useState<PasswordErrors>({});
  const [outcome, setOutcome] = useState<{ ok: true } | { ok: false; error: unknown } | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setOutcome(null);
    const next: PasswordErrors = {};
    if (!form.oldPassword) next.oldPassword = 'settings.oldPasswordRequired';
    if (!isStrongPassword(form.newPassword)) next.newPassword = 'signup.passwordRule';
    if (!form.confirm) next.confirm = 'signup.confirmRequired';
    else if (form.confirm !== form.newPassword) next.confirm = 'signup.confirmMismatch';
    setErrors(next);
    if (Object.keys(next).length) return;
    setBusy(true);
    try {
      await account.changePassword({ oldPassword: form.oldPassword, newPassword: form.newPassword });
      setForm({ oldPassword: '', newPassword: '', confirm: '' });
      setOutcome({ ok: true });
    } catch (error) {
      setOutcome({ ok: false, error });
    } finally {
      setBusy(false);
    }
  }

  const fields: [keyof typeof form, string, boolean][] = [
    ['oldPassword', 'settings.oldPassword', false],
    ['newPassword', 'settings.newPassword', true],
    ['confirm', 'settings.confirmPassword', false],
  ];
  return (
    <Card>
      <CardTitle>
        <FormattedMessage id="settings.changePassword" />
      </CardTitle>
      <form noValidate className="grid max-w-md gap-4" onSubmit={submit} aria-label={intl.formatMessage({ id: 'settings.changePassword' })}>
        {outcome?.ok && (
          <Alert variant="success">
            <FormattedMessage id="settings.passwordChanged" />
          </Alert>
        )}
        {outcome && !outcome.ok && <QueryError error={outcome.error} />}
        {fields.map(([key, labelId, strength]) => (
          <Field key={key} id={key} labelId={labelId} errorId={errors[key]}>
            <PasswordInput
              strength={strength}
              autoComplete={key === 'oldPassword' ? 'current-password' : 'new-password'}
              value={form[key]}
              onChange={(e) => setForm({ ...form, [key]: e.target.value })}
            />
          </Field>
        ))}
        <Button type="submit" disabled={busy} className="justify-self-start">
          <FormattedMessage id="settings.savePassword" />
        </Button>
      </form>
    </Card>
  );
}

const CHOICES: { key: Exclude<keyof Settings, 'locale'>; options: readonly string[]; prefix: string }[] = [
  { key: 'theme', options: THEMES, prefix: 'settings.theme' },
  { key: 'color', options: COLORS, prefix: 'settings.color' },
  { key: 'navStyle', options: NAV_STYLES, prefix: 'settings.navStyle' },
  { key: 'layoutType', options: LAYOUT_TYPES, prefix: 'settings.layoutType' },
];

function DisplayCard() {
  const settings = useChild('settings');
  const values = useSelector(settings, (s) => s.context);
  return (
    <Card>
      <CardTitle>
        <FormattedMessage id="settings.display" />
      </CardTitle>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="grid gap-1.5">
          <Label>
            <FormattedMessage id="settings.language" />
          </Label>
          <LanguagePicker className="w-full" />
        </div>
        {CHOICES.map(({ key, options, prefix }) => (
          <div key={key} className="grid gap-1.5">
            <Label htmlFor={`setting-${key}`}>
              <FormattedMessage id={prefix} />
            </Label>
            <Select value={values[key]} onValueChange={(value) => settings.send({ type: 'SET', settings: { [key]: value } })}>
              <SelectTrigger id={`setting-${key}`} className="w-full">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {options.map((o) => (
                  <SelectItem key={o} value={o}>
                    <FormattedMessage id={`${prefix}.${o}`} />
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
        ))}
      </div>
    </Card>
  );
}

export default function AccountSettingsPage() {
  return (
    <div className="grid gap-4">
      <h1 className="text-2xl font-semibold">
        <FormattedMessage id="settings.title" />
      </h1>
      <AccountCard />
      <PasswordCard />
      <DisplayCard />
      <DiscordLinkCard />
      <NoticePreferencesCard />
      <ShareLinks />
    </div>
  );
}

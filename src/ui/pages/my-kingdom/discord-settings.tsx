import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { createDiscordApi, discordKeys, type DiscordSettings } from '../../../api/discord';
import { DISCORD_WEBHOOK_KINDS } from '../../../protocol/discord';
import { LOCALES, type Locale } from '../../../protocol/locales';
import { LANGUAGE_NAMES } from '../../../locales/names';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Card, CardHeader } from '../../components/card';
import { Field } from '../../components/field';
import { Input } from '../../components/input';
import { NativeSelect } from '../../components/native-select';
import { QueryError } from '../../components/query-error';
import { useApi } from '../../lib/use-api';

type Form = { applicationId: string; publicKey: string; botToken: string; guildId: string; language: Locale } & Record<(typeof DISCORD_WEBHOOK_KINDS)[number], string>;

const formOf = (s: DiscordSettings | null): Form => ({
  applicationId: s?.applicationId ?? '',
  publicKey: s?.publicKey ?? '',
  botToken: '',
  guildId: s?.guildId ?? '',
  language: s?.language ?? 'en',
  ...(Object.fromEntries(DISCORD_WEBHOOK_KINDS.map((k) => [k, s?.webhooks[k] ?? ''])) as Record<(typeof DISCORD_WEBHOOK_KINDS)[number], string>),
});

/**
 * Kingdom Settings' Discord section (admins): the application, its public key, the bot token
 * (write-only: the server only says one is saved), the guild, the announcement language and a
 * channel webhook per kind; Save, then "Send a test message" says what each webhook answered.
 */
export function DiscordSettingsCard() {
  const discord = useApi(createDiscordApi);
  const settings = useQuery({ queryKey: discordKeys.settings, queryFn: () => discord.settings(), staleTime: 0 });
  return (
    <Card>
      <CardHeader title={<FormattedMessage id="discord.settings.title" />} className="mb-0" />
      <p className="mb-4 text-sm text-muted-foreground">
        <FormattedMessage id="discord.settings.description" />
      </p>
      {settings.isError && <QueryError error={settings.error} />}
      {settings.isSuccess && <DiscordForm saved={settings.data} />}
    </Card>
  );
}

function DiscordForm({ saved }: { saved: DiscordSettings | null }) {
  const intl = useIntl();
  const discord = useApi(createDiscordApi);
  const client = useQueryClient();
  const [form, setForm] = useState<Form>(() => formOf(saved));
  const save = useMutation({
    mutationFn: () =>
      discord.saveSettings({
        applicationId: form.applicationId.trim(),
        publicKey: form.publicKey.trim(),
        ...(form.botToken.trim() ? { botToken: form.botToken.trim() } : {}),
        guildId: form.guildId.trim(),
        language: form.language,
        webhooks: Object.fromEntries(DISCORD_WEBHOOK_KINDS.map((k) => [k, form[k].trim() || null])),
      }),
    onSuccess: (next) => {
      setForm({ ...form, botToken: '' });
      client.setQueryData(['discord', 'settings'], next);
    },
  });
  const test = useMutation({ mutationFn: () => discord.test() });
  const install = useMutation({ mutationFn: () => discord.installCommands() });
  const set = (key: keyof Form) => (e: { target: { value: string } }) => setForm({ ...form, [key]: e.target.value });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    test.reset();
    save.mutate();
  };
  const text: [keyof Form, string, string?][] = [
    ['applicationId', 'discord.settings.applicationId'],
    ['publicKey', 'discord.settings.publicKey'],
    ['guildId', 'discord.settings.guildId'],
  ];
  return (
    <form noValidate className="grid gap-4" onSubmit={submit} aria-label={intl.formatMessage({ id: 'discord.settings.title' })}>
      {save.isSuccess && (
        <Alert variant="success">
          <FormattedMessage id="discord.settings.saved" />
        </Alert>
      )}
      <QueryError error={save.error ?? test.error ?? install.error} />
      <div className="grid gap-4 sm:grid-cols-2">
        {text.map(([key, labelId]) => (
          <Field key={key} id={`discord-${key}`} labelId={labelId}>
            <Input dir="ltr" autoComplete="off" spellCheck={false} value={form[key]} onChange={set(key)} />
          </Field>
        ))}
        <Field id="discord-botToken" labelId="discord.settings.botToken" hintId={saved?.botTokenSet ? 'discord.settings.botTokenSaved' : 'discord.settings.botTokenHint'}>
          <Input type="password" dir="ltr" autoComplete="off" value={form.botToken} onChange={set('botToken')} />
        </Field>
        <Field id="discord-language" labelId="discord.settings.language">
          <NativeSelect className="w-full" value={form.language} onChange={set('language')}>
            {LOCALES.map((l) => (
              <option key={l} value={l}>
                {LANGUAGE_NAMES[l]}
              </option>
            ))}
          </NativeSelect>
        </Field>
      </div>
      <fieldset className="grid gap-4">
        <legend className="mb-2 text-sm font-medium">
          <FormattedMessage id="discord.settings.webhooks" />
        </legend>
        <div className="grid gap-4 sm:grid-cols-2">
          {DISCORD_WEBHOOK_KINDS.map((kind) => (
            <Field key={kind} id={`discord-webhook-${kind}`} labelId={`discord.settings.webhook.${kind}`}>
              <Input dir="ltr" type="url" autoComplete="off" spellCheck={false} placeholder="https://discord.com/api/webhooks/…" value={form[kind]} onChange={set(kind)} />
            </Field>
          ))}
        </div>
      </fieldset>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={save.isPending}>
          <FormattedMessage id="discord.settings.save" />
        </Button>
        <Button type="button" variant="outline" disabled={!saved || install.isPending} onClick={() => install.mutate()}>
          <FormattedMessage id="discord.settings.install" />
        </Button>
        <Button type="button" variant="outline" disabled={!saved || test.isPending} onClick={() => test.mutate()}>
          <FormattedMessage id="discord.settings.test" />
        </Button>
      </div>
      {install.data && (
        <Alert variant="success">
          <FormattedMessage id="discord.settings.installed" values={{ commands: install.data.map((c) => `/${c}`).join(' ') }} />
        </Alert>
      )}
      {test.data && (
        <ul className="grid gap-1 text-sm" aria-label={intl.formatMessage({ id: 'discord.settings.testResults' })}>
          {test.data.sent.length + test.data.errors.length === 0 && (
            <li className="text-muted-foreground">
              <FormattedMessage id="discord.settings.noWebhooks" />
            </li>
          )}
          {test.data.sent.map((kind) => (
            <li key={kind} className="text-success">
              <FormattedMessage id="discord.settings.testSent" values={{ kind: intl.formatMessage({ id: `discord.settings.webhook.${kind}` }) }} />
            </li>
          ))}
          {test.data.errors.map((e) => (
            <li key={e.kind} className="text-danger">
              <FormattedMessage id="discord.settings.testFailed" values={{ kind: intl.formatMessage({ id: `discord.settings.webhook.${e.kind}` }), error: e.text }} />
            </li>
          ))}
        </ul>
      )}
    </form>
  );
}

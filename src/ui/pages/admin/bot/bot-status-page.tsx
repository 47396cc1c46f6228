import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { useState, type FormEvent } from 'react';
import { FormattedDate, FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'wouter';
import { botsKeys, createBotsApi, type Bot, type Registered } from '../../../../api/bots';
import { endpoints } from '../../../../api/config';
import { botList } from '../../../../machines/bot-monitor';
import { BOT_NAME_MAX } from '../../../../protocol/bots';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { Card, CardTitle } from '../../../components/card';
import { Input } from '../../../components/input';
import { useApi } from '../../../lib/use-api';
import { Field } from '../../../components/field';
import { ConfirmDialogFor } from '../../../components/stats/confirm-dialog';
import { Hint } from '../../../components/hint';
import { BotActivity, BotPage, OnlineText, StateBadge, useBotWatch } from './shared';
import { QueryError } from '../../../components/query-error';
import { useSingleFlight } from '../../../lib/use-single-flight';

/** Admin → Servers → Status: every bot, online or not, its state and progress; register, rotate, revoke. */
export default function BotStatusPage({ titleId }: { titleId: string }) {
  const intl = useIntl();
  const actor = useBotWatch();
  const bots = useApi(createBotsApi);
  const client = useQueryClient();
  // the REST list until the watch socket's snapshot is there; then the live one
  const listed = useQuery({ queryKey: botsKeys.list, queryFn: () => bots.list() });
  const ready = useSelector(actor, (s) => s.context.monitor.ready);
  const live = useSelector(actor, (s) => s.context.monitor);
  const list = ready ? botList(live) : (listed.data ?? []);
  const [shown, setShown] = useState<Registered | null>(null);
  const [revoking, setRevoking] = useState<Bot | null>(null);
  const [rotating, setRotating] = useState<Bot | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: botsKeys.all });
  const rotate = useMutation({
    mutationFn: (bot: Bot) => bots.rotate(bot.id),
    onSuccess: (registered) => {
      setRotating(null);
      setShown(registered);
      void refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: (bot: Bot) => bots.revoke(bot.id),
    onSuccess: () => {
      setRevoking(null);
      void refresh();
    },
  });

  return (
    <BotPage titleId={titleId} actor={actor}>
      <RegisterForm
        onRegistered={(registered) => {
          setShown(registered);
          void refresh();
        }}
      />
      {shown && <TokenOnce registered={shown} onDone={() => setShown(null)} />}
      <QueryError error={rotate.error ?? revoke.error} />
      {!ready && <QueryError error={listed.error} />}
      {list.length === 0 && (ready || listed.isSuccess) ? (
        <Card>
          <Hint id="bots.none" />
        </Card>
      ) : (
        <ul className="grid min-w-0 grid-cols-1 gap-3 md:grid-cols-2 xl:grid-cols-3" aria-label={intl.formatMessage({ id: 'bots.listLabel' })}>
          {list.map((bot) => (
            <li key={bot.id} className="min-w-0">
              <BotCard bot={bot} onRotate={() => setRotating(bot)} onRevoke={() => setRevoking(bot)} />
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialogFor
        subject={rotating}
        onClose={() => setRotating(null)}
        title={(bot) => <FormattedMessage id="bots.rotateTitle" values={{ name: bot.name }} />}
        text={() => <FormattedMessage id="bots.rotateText" />}
        confirmId="bots.rotate"
        busy={rotate.isPending}
        onConfirm={(bot) => rotate.mutate(bot)}
      />
      <ConfirmDialogFor
        subject={revoking}
        onClose={() => setRevoking(null)}
        title={(bot) => <FormattedMessage id="bots.revokeTitle" values={{ name: bot.name }} />}
        text={() => <FormattedMessage id="bots.revokeText" />}
        confirmId="bots.revoke"
        busy={revoke.isPending}
        onConfirm={(bot) => revoke.mutate(bot)}
      />
    </BotPage>
  );
}

function BotCard({ bot, onRotate, onRevoke }: { bot: Bot; onRotate: () => void; onRevoke: () => void }) {
  const intl = useIntl();
  const when = (at: number | null) => (at === null ? <FormattedMessage id="bots.never" /> : <FormattedDate value={at} dateStyle="medium" timeStyle="short" />);
  return (
    <Card className="flex h-full flex-col gap-3" aria-label={bot.name}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="min-w-0 max-w-full truncate text-lg font-semibold" dir="auto" title={bot.name}>
          {bot.name}
        </h2>
        <span className="inline-flex items-center gap-2">
          <span className={bot.online ? 'size-2 rounded-full bg-success' : 'size-2 rounded-full bg-muted-foreground'} aria-hidden />
          <OnlineText bot={bot} />
          {bot.online && <StateBadge bot={bot} />}
        </span>
      </div>
      <BotActivity bot={bot} />
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-muted-foreground">
          <FormattedMessage id="bots.lastScan" />
        </dt>
        <dd>{when(bot.lastScanAt)}</dd>
        <dt className="text-muted-foreground">
          <FormattedMessage id="bots.lastSeen" />
        </dt>
        <dd>{when(bot.lastSeenAt)}</dd>
        <dt className="text-muted-foreground">
          <FormattedMessage id="bots.version" />
        </dt>
        <dd>{bot.version ?? '—'}</dd>
      </dl>
      <div className="mt-auto flex flex-wrap gap-2">
        <Button asChild size="sm" variant="outline">
          <Link href={`/admin/bot/console?bot=${bot.id}`} aria-label={intl.formatMessage({ id: 'bots.openConsoleOf' }, { name: bot.name })}>
            <FormattedMessage id="bots.openConsole" />
          </Link>
        </Button>
        <Button size="sm" variant="outline" onClick={onRotate} aria-label={intl.formatMessage({ id: 'bots.rotateOf' }, { name: bot.name })}>
          <FormattedMessage id="bots.rotate" />
        </Button>
        <Button size="sm" variant="danger" onClick={onRevoke} aria-label={intl.formatMessage({ id: 'bots.revokeOf' }, { name: bot.name })}>
          <FormattedMessage id="bots.revoke" />
        </Button>
      </div>
    </Card>
  );
}

function RegisterForm({ onRegistered }: { onRegistered: (r: Registered) => void }) {
  const bots = useApi(createBotsApi);
  const [name, setName] = useState('');
  const register = useMutation({
    mutationFn: (n: string) => bots.register(n),
    onSuccess: (registered) => {
      setName('');
      onRegistered(registered);
    },
  });
  const registerOnce = useSingleFlight(register);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    registerOnce(name.trim());
  };
  return (
    <Card>
      <CardTitle>
        <FormattedMessage id="bots.registerTitle" />
      </CardTitle>
      <form onSubmit={submit} className="flex flex-wrap items-end gap-3" noValidate>
        <Field id="bot-name" labelId="bots.name" className="flex-1 gap-1 sm:max-w-sm">
          <Input id="bot-name" value={name} maxLength={BOT_NAME_MAX} dir="auto" onChange={(e) => setName(e.target.value)} aria-invalid={register.isError || undefined} />
        </Field>
        <Button type="submit" disabled={register.isPending || name.trim() === ''}>
          <FormattedMessage id="bots.register" />
        </Button>
      </form>
      <QueryError error={register.error} className="mt-3" />
    </Card>
  );
}

/** The token, this once, with the agent's command line to copy. */
function TokenOnce({ registered, onDone }: { registered: Registered; onDone: () => void }) {
  const intl = useIntl();
  const [copied, setCopied] = useState(false);
  const server = new URL(endpoints().api, window.location.origin).toString().replace(/\/$/, '');
  const commandLine = `npm run agent -- --server ${server} --token ${registered.token} --watch "C:\\RokTracker\\scans"`;
  const copy = () => {
    void navigator.clipboard?.writeText(registered.token).then(() => setCopied(true));
  };
  return (
    <Card className="grid gap-3 border-primary/50" role="region" aria-label={intl.formatMessage({ id: 'bots.tokenTitle' }, { name: registered.bot.name })}>
      <CardTitle>
        <FormattedMessage id="bots.tokenTitle" values={{ name: registered.bot.name }} />
      </CardTitle>
      <Alert>
        <FormattedMessage id="bots.tokenOnce" />
      </Alert>
      <div className="flex flex-wrap items-center gap-2">
        <code className="min-w-0 flex-1 break-all rounded-md bg-muted px-3 py-2 text-sm" dir="ltr">
          {registered.token}
        </code>
        <Button variant="outline" size="sm" onClick={copy}>
          <FormattedMessage id={copied ? 'bots.copied' : 'bots.copy'} />
        </Button>
      </div>
      <Hint id="bots.agentHint" />
      <code className="block overflow-x-auto whitespace-pre rounded-md bg-muted px-3 py-2 text-xs" dir="ltr">
        {commandLine}
      </code>
      <div>
        <Button onClick={onDone}>
          <FormattedMessage id="bots.tokenDone" />
        </Button>
      </div>
    </Card>
  );
}

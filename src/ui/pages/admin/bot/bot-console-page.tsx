import { useMutation } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { useMemo, useState, type FormEvent } from 'react';
import { FormattedMessage, FormattedTime, useIntl } from 'react-intl';
import { useLocation, useSearch } from 'wouter';
import { createBotsApi } from '../../../../api/bots';
import { botList, commandsOf, visibleLines, type CommandEntry } from '../../../../machines/bot-monitor';
import { commandBody, LOG_LEVELS } from '../../../../protocol/bots';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { Card, CardTitle } from '../../../components/card';
import { Input } from '../../../components/input';
import { NativeSelect } from '../../../components/native-select';
import { cn } from '../../../lib/cn';
import { useApi } from '../../../lib/use-api';
import { useServerText } from '../../../lib/server-text';
import { Field } from '../../../components/field';
import { Hint } from '../../../components/hint';
import { BotActivity, BotOptions, BotPage, LogList, OnlineText, StateBadge, useBotNames, useBotWatch } from './shared';
import { QueryError } from '../../../components/query-error';

/** Admin → Servers → Console (`?bot=ID`): one bot's live log and a command line, each command with its answer. */
export default function BotConsolePage({ titleId }: { titleId: string }) {
  const intl = useIntl();
  const actor = useBotWatch();
  const search = useSearch();
  const [, navigate] = useLocation();
  const monitor = useSelector(actor, (s) => s.context.monitor);
  const names = useBotNames(actor);
  const bots = useMemo(() => botList(monitor), [monitor]);
  const asked = Number(new URLSearchParams(search).get('bot'));
  const bot = bots.find((b) => b.id === asked) ?? (search.includes('bot=') ? undefined : bots[0]);
  const lines = useMemo(() => (bot ? visibleLines(monitor.lines, { botId: bot.id, levels: [...LOG_LEVELS] }, null) : []), [monitor.lines, bot]);
  const commands = useMemo(() => (bot ? commandsOf(monitor, bot.id) : []), [monitor, bot]);

  return (
    <BotPage titleId={titleId} actor={actor}>
      <Card className="grid gap-3">
        <div className="flex flex-wrap items-end gap-3">
          <Field id="console-bot" labelId="bots.consoleBot" className="gap-1">
            <NativeSelect id="console-bot" className="w-full min-w-0 sm:w-64" value={bot ? String(bot.id) : ''} onChange={(e) => navigate(`/admin/bot/console?bot=${e.target.value}`)}>
              {!bot && <option value="">{intl.formatMessage({ id: 'bots.chooseBot' })}</option>}
              <BotOptions bots={bots} />
            </NativeSelect>
          </Field>
          {bot && (
            <span className="inline-flex items-center gap-2 pb-2">
              <OnlineText bot={bot} />
              <StateBadge bot={bot} />
              {bot.version && <span className="text-xs text-muted-foreground">v{bot.version}</span>}
            </span>
          )}
        </div>
        {monitor.ready && bots.length === 0 && (
          <Hint id="bots.noneConsole" />
        )}
        {monitor.ready && !bot && bots.length > 0 && (
          <Alert>
            <FormattedMessage id="bots.unknownBot" />
          </Alert>
        )}
        {bot && <BotActivity bot={bot} />}
      </Card>
      {bot && (
        <div className="grid min-w-0 gap-4 lg:grid-cols-2">
          <Card className="grid min-w-0 content-start gap-3">
            <CardTitle>
              <FormattedMessage id="bots.consoleLog" values={{ name: bot.name }} />
            </CardTitle>
            <LogList lines={lines} names={names} showBot={false} label={intl.formatMessage({ id: 'bots.consoleLog' }, { name: bot.name })} className="h-[50vh]" />
          </Card>
          <CommandPanel botId={bot.id} online={bot.online} known={bot.commands} commands={commands} />
        </div>
      )}
    </BotPage>
  );
}

function CommandPanel({ botId, online, known, commands }: { botId: number; online: boolean; known: string[]; commands: CommandEntry[] }) {
  const intl = useIntl();
  const say = useServerText();
  const bots = useApi(createBotsApi);
  const [line, setLine] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const send = useMutation({ mutationFn: (body: { command: string; args?: string[] }) => bots.command(botId, body), onSuccess: () => setLine('') });
  const run = (text: string) => {
    const [command = '', ...args] = text.trim().split(/\s+/);
    const body = { command, ...(args.length ? { args } : {}) };
    if (!commandBody.safeParse(body).success || !known.includes(command)) {
      setInvalid(intl.formatMessage({ id: 'bots.commandUnknown' }, { commands: known.join(', ') }));
      return;
    }
    setInvalid(null);
    send.mutate(body);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    run(line);
  };
  return (
    <Card className="grid min-w-0 content-start gap-3">
      <CardTitle>
        <FormattedMessage id="bots.commands" />
      </CardTitle>
      <ol className="grid max-h-[40vh] gap-2 overflow-auto" aria-label={intl.formatMessage({ id: 'bots.commandHistory' })}>
        {commands.length === 0 && (
          <li className="text-sm text-muted-foreground">
            <FormattedMessage id="bots.noCommands" />
          </li>
        )}
        {commands.map(({ sent, answer }) => (
          <li key={sent.id} className="rounded-md border border-border p-2 text-sm" data-state={answer ? (answer.ok ? 'ok' : 'failed') : 'waiting'}>
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <code className="font-semibold" dir="ltr">
                &gt; {[sent.command, ...(sent.args ?? [])].join(' ')}
              </code>
              <span className="text-xs text-muted-foreground">
                <FormattedMessage id="bots.sentBy" values={{ by: sent.by, time: <FormattedTime value={sent.at} hour="2-digit" minute="2-digit" second="2-digit" /> }} />
              </span>
            </div>
            {answer ? (
              <div className="mt-1 grid gap-1">
                <span className={cn('text-xs font-medium', answer.ok ? 'text-success' : 'text-danger')}>
                  <FormattedMessage id={answer.ok ? 'bots.answerOk' : 'bots.answerFailed'} />
                </span>
                <pre className="overflow-x-auto whitespace-pre-wrap break-words rounded bg-muted px-2 py-1 text-xs" dir="auto">
                  {answer.output.split('\n').map(say).join('\n')}
                </pre>
              </div>
            ) : (
              <p className="mt-1 text-xs text-muted-foreground" role="status">
                <FormattedMessage id="bots.waitingAnswer" />
              </p>
            )}
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-2" role="group" aria-label={intl.formatMessage({ id: 'bots.quickCommands' })}>
        {known.map((c) => (
          <Button key={c} size="sm" variant="outline" disabled={!online || send.isPending} onClick={() => run(c)}>
            <code>{c}</code>
          </Button>
        ))}
      </div>
      <form onSubmit={submit} className="flex flex-wrap items-end gap-2" noValidate>
        <Field id="console-command" labelId="bots.commandLine" className="flex-1 gap-1">
          <Input
            id="console-command"
            dir="ltr"
            list="console-commands"
            autoComplete="off"
            spellCheck={false}
            className="font-mono"
            value={line}
            onChange={(e) => setLine(e.target.value)}
            aria-invalid={!!invalid || undefined}
            aria-describedby={invalid ? 'console-command-error' : undefined}
          />
        </Field>
        <datalist id="console-commands">
          {known.map((c) => (
            <option key={c} value={c} />
          ))}
        </datalist>
        <Button type="submit" disabled={!online || send.isPending || line.trim() === ''}>
          <FormattedMessage id="bots.send" />
        </Button>
      </form>
      {!online && (
        <Hint id="bots.offlineNoCommands" />
      )}
      {invalid && (
        <p id="console-command-error" className="text-sm text-danger" role="alert">
          {invalid}
        </p>
      )}
      <QueryError error={send.error} />
    </Card>
  );
}

import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { botList, visibleLines } from '../../../../machines/bot-monitor';
import { LOG_LEVELS, type LogLevel } from '../../../../protocol/bots';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { Checkbox } from '../../../components/checkbox';
import { Label } from '../../../components/label';
import { Field } from '../../../components/field';
import { NativeSelect } from '../../../components/native-select';
import { downloadBotLog } from '../../../boot/bot-watch';
import { BotOptions, BotPage, LogList, useBotNames, useBotWatch } from './shared';

/** Admin → Servers → Monitor: the live log of every bot, filtered by bot and level, paused at will. */
export default function BotMonitorPage({ titleId }: { titleId: string }) {
  const intl = useIntl();
  const actor = useBotWatch();
  const monitor = useSelector(actor, (s) => s.context.monitor);
  const filter = useSelector(actor, (s) => s.context.filter);
  const pausedAt = useSelector(actor, (s) => s.context.pausedAt);
  const names = useBotNames(actor);
  const bots = useMemo(() => botList(monitor), [monitor]);
  const lines = useMemo(() => visibleLines(monitor.lines, filter, pausedAt), [monitor.lines, filter, pausedAt]);
  const waiting = pausedAt === null ? 0 : monitor.lines.filter((l) => l.seq > pausedAt).length;
  const toggleLevel = (level: LogLevel, on: boolean) =>
    actor.send({ type: 'FILTER', levels: on ? LOG_LEVELS.filter((l) => l === level || filter.levels.includes(l)) : filter.levels.filter((l) => l !== level) });

  return (
    <BotPage titleId={titleId} actor={actor}>
      <Card className="grid gap-3">
        <div className="flex flex-wrap items-end gap-x-6 gap-y-3">
          <Field id="monitor-bot" labelId="bots.filterBot" className="gap-1">
            <NativeSelect
              id="monitor-bot"
              className="w-full min-w-0 sm:w-56"
              value={filter.botId === null ? '' : String(filter.botId)}
              onChange={(e) => actor.send({ type: 'FILTER', botId: e.target.value === '' ? null : Number(e.target.value) })}
            >
              <option value="">{intl.formatMessage({ id: 'bots.allBots' })}</option>
              <BotOptions bots={bots} />
            </NativeSelect>
          </Field>
          <fieldset className="flex flex-wrap items-center gap-x-4 gap-y-2">
            <legend className="mb-1 text-sm font-medium">
              <FormattedMessage id="bots.filterLevel" />
            </legend>
            {LOG_LEVELS.map((level) => (
              <span key={level} className="inline-flex items-center gap-2">
                <Checkbox id={`monitor-level-${level}`} checked={filter.levels.includes(level)} onCheckedChange={(v) => toggleLevel(level, v === true)} />
                <Label htmlFor={`monitor-level-${level}`}>
                  <FormattedMessage id={`bots.level.${level}`} />
                </Label>
              </span>
            ))}
          </fieldset>
          <div className="ms-auto flex flex-wrap items-center gap-3">
            {pausedAt !== null && waiting > 0 && (
              <span className="text-sm text-muted-foreground" role="status">
                <FormattedMessage id="bots.newWhilePaused" values={{ count: waiting }} />
              </span>
            )}
            <Button variant={pausedAt === null ? 'outline' : 'primary'} onClick={() => actor.send({ type: pausedAt === null ? 'PAUSE' : 'RESUME' })} aria-pressed={pausedAt !== null}>
              <FormattedMessage id={pausedAt === null ? 'bots.pause' : 'bots.resume'} />
            </Button>
          </div>
        </div>
        <LogList lines={lines} names={names} label={intl.formatMessage({ id: 'bots.monitorLog' })} />
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-xs text-muted-foreground">
            <FormattedMessage id="bots.linesShown" values={{ shown: lines.length, total: monitor.lines.length }} />
          </p>
          <Button variant="outline" size="sm" onClick={downloadBotLog}>
            <FormattedMessage id="bots.downloadLog" />
          </Button>
        </div>
      </Card>
    </BotPage>
  );
}

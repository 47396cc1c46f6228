import { useVirtualizer } from '@tanstack/react-virtual';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { FormattedMessage, FormattedTime, useIntl } from 'react-intl';
import type { Bot, BotState, LogLevel, LogLine } from '../../../../protocol/bots';
import { useChild } from '../../../app-context';
import { botSessionRecorder, botWatchWiring } from '../../../boot/bot-watch';
import { Alert } from '../../../components/alert';
import { PageHeader } from '../../../components/page-header';
import { cn } from '../../../lib/cn';
import { useServerText } from '../../../lib/server-text';

/**
 * What the three bot pages share: the watch socket's actor (one per page, wired in
 * src/ui/boot/bot-watch.ts), a bot's state, its progress and a virtualised log.
 */
export function useBotWatch() {
  const token = useSelector(useChild('auth'), (state) => state.context.token);
  const username = useSelector(useChild('auth'), (s) => s.context.user?.username ?? null);
  useEffect(() => botSessionRecorder().setUser(username), [username]);
  const { machine, url } = useMemo(() => botWatchWiring(), []);
  const actor = useActorRef(machine, { input: { url, token } });
  useEffect(() => {
    if (actor.getSnapshot().context.token !== token) actor.send({ type: 'TOKEN', token });
  }, [actor, token]);
  return actor;
}

export type BotWatchActor = ReturnType<typeof useBotWatch>;

/** "Connecting…" or "Reconnecting…" while the live view is not there; the server's refusal when it said no. */
export function WatchStatus({ actor }: { actor: BotWatchActor }) {
  const state = useSelector(actor, (s) => (s.matches('unauthorized') ? 'refused' : s.matches({ online: 'connected' }) ? 'live' : s.matches('disconnected') ? 'reconnecting' : 'connecting'));
  const error = useSelector(actor, (s) => s.context.monitor.error);
  if (state === 'live') {
    return (
      <span className="inline-flex items-center gap-1.5 text-xs text-muted-foreground" data-testid="watch-status" data-state="live">
        <span className="size-2 rounded-full bg-success" aria-hidden />
        <FormattedMessage id="bots.live" />
      </span>
    );
  }
  if (state === 'refused') {
    return (
      <Alert variant="error" data-testid="watch-status" data-state="refused">
        {error ?? <FormattedMessage id="bots.watchRefused" />}
      </Alert>
    );
  }
  return (
    <span className="inline-flex items-center gap-1.5 text-xs text-muted-foreground" role="status" data-testid="watch-status" data-state={state}>
      <span className="size-2 animate-pulse rounded-full bg-warning" aria-hidden />
      <FormattedMessage id={state === 'reconnecting' ? 'bots.reconnecting' : 'bots.connecting'} />
    </span>
  );
}

const STATE_STYLE: Record<BotState | 'offline', string> = {
  idle: 'bg-muted text-foreground',
  scanning: 'bg-primary/15 text-primary',
  paused: 'bg-warning/20 text-foreground',
  'needs-human': 'bg-warning text-black',
  error: 'bg-danger text-white',
  offline: 'bg-muted text-muted-foreground',
};

export function StateBadge({ bot }: { bot: Bot }) {
  const state = bot.online ? (bot.state ?? 'idle') : 'offline';
  return (
    <span className={cn('inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap', STATE_STYLE[state])} data-state={state}>
      <FormattedMessage id={`bots.state.${state}`} />
    </span>
  );
}

/** Seconds as "1 h 5 min", "4 min", "30 s" in the reader's language. */
export function useDuration() {
  const intl = useIntl();
  return (seconds: number) => {
    const s = Math.max(0, Math.round(seconds));
    const unit = (value: number, u: 'hour' | 'minute' | 'second') => intl.formatNumber(value, { style: 'unit', unit: u, unitDisplay: 'narrow' });
    if (s >= 3600) return `${unit(Math.floor(s / 3600), 'hour')} ${unit(Math.floor((s % 3600) / 60), 'minute')}`;
    if (s >= 60) return unit(Math.round(s / 60), 'minute');
    return unit(s, 'second');
  };
}

export function BotProgress({ bot }: { bot: Bot }) {
  const intl = useIntl();
  const duration = useDuration();
  const p = bot.progress;
  if (!bot.online || !p || p.total <= 0) return null;
  const percent = Math.min(100, Math.round((p.done / p.total) * 100));
  return (
    <div className="grid gap-1">
      <div
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-label={intl.formatMessage({ id: 'bots.progress' }, { name: bot.name })}
        className="relative h-1.5 w-full overflow-hidden rounded-full bg-muted"
      >
        <div className="h-full bg-primary transition-all" style={{ width: `${percent}%` }} />
      </div>
      <div className="flex flex-wrap justify-between gap-x-3 text-xs text-muted-foreground">
        <span>
          <FormattedMessage id="bots.progressOf" values={{ done: intl.formatNumber(p.done), total: intl.formatNumber(p.total), percent: intl.formatNumber(percent / 100, { style: 'percent' }) }} />
        </span>
        {p.etaSeconds !== null && p.etaSeconds !== undefined && (
          <span>
            <FormattedMessage id="bots.eta" values={{ time: duration(p.etaSeconds) }} />
          </span>
        )}
      </div>
    </div>
  );
}

/** A bot page: its title with the live view's status beside it, then its content. */
export function BotPage({ titleId, actor, children }: { titleId: string; actor: BotWatchActor; children: ReactNode }) {
  return (
    <div className="grid min-w-0 gap-4">
      <PageHeader titleId={titleId}>
        <WatchStatus actor={actor} />
      </PageHeader>
      {children}
    </div>
  );
}

/** The bots as a picker's options, by name. */
export function BotOptions({ bots }: { bots: readonly Bot[] }) {
  return bots.map((b) => (
    <option key={b.id} value={b.id}>
      {b.name}
    </option>
  ));
}

/** "Online" or "Offline". */
export function OnlineText({ bot }: { bot: Bot }) {
  return (
    <span className="text-sm">
      <FormattedMessage id={bot.online ? 'bots.online' : 'bots.offline'} />
    </span>
  );
}

/** What a bot is doing now: waiting for a person, its own message, its progress (nothing while offline). */
export function BotActivity({ bot }: { bot: Bot }) {
  const say = useServerText();
  return (
    <>
      <NeedsHuman bot={bot} />
      {bot.online && bot.message && bot.state !== 'needs-human' && (
        <p className="text-sm text-muted-foreground" dir="auto">
          {say(bot.message)}
        </p>
      )}
      <BotProgress bot={bot} />
    </>
  );
}

/** A bot waiting for a person (state needs-human): said plainly, with its message. */
export function NeedsHuman({ bot }: { bot: Bot }) {
  const say = useServerText();
  if (!bot.online || bot.state !== 'needs-human') return null;
  return (
    <Alert role="alert" className="border-warning/60 bg-warning/10">
      <p className="font-medium">
        <FormattedMessage id="bots.needsHuman" values={{ name: bot.name }} />
      </p>
      {bot.message && (
        <p className="mt-1 text-sm" dir="auto">
          {say(bot.message)}
        </p>
      )}
    </Alert>
  );
}

const LEVEL_STYLE: Record<LogLevel, string> = {
  debug: 'text-muted-foreground',
  info: 'text-foreground',
  warn: 'text-warning',
  error: 'text-danger',
};

const ROW_HEIGHT = 26;
/** On a phone a row is two lines: the time, bot and level, then the text. */
const NARROW_ROW_HEIGHT = 42;
const WIDE = '(min-width: 640px)';

function useWide(): boolean {
  const [wide, setWide] = useState(() => typeof window === 'undefined' || window.matchMedia(WIDE).matches);
  useEffect(() => {
    const query = window.matchMedia(WIDE);
    const change = () => setWide(query.matches);
    query.addEventListener('change', change);
    return () => query.removeEventListener('change', change);
  }, []);
  return wide;
}

/**
 * A log, virtualised (only the rows in view are in the page): follows the newest line while the
 * reader is at the bottom, stays where it is when they scrolled up.
 */
export function LogList({ lines, names, label, showBot = true, className }: { lines: readonly LogLine[]; names: Record<string, string>; label: string; showBot?: boolean; className?: string }) {
  const intl = useIntl();
  const say = useServerText();
  const parent = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const wide = useWide();
  const rowHeight = wide ? ROW_HEIGHT : NARROW_ROW_HEIGHT;
  const virtualizer = useVirtualizer({ count: lines.length, getScrollElement: () => parent.current, estimateSize: () => rowHeight, overscan: 12 });
  useEffect(() => virtualizer.measure(), [rowHeight, virtualizer]);
  // the newest line's seq, not the count: once the list is full its length stops changing
  const newest = lines.length ? lines[lines.length - 1].seq : 0;
  useLayoutEffect(() => {
    if (atBottom.current && lines.length > 0) virtualizer.scrollToIndex(lines.length - 1, { align: 'end' });
  }, [newest, lines.length, virtualizer, rowHeight]);
  const onScroll = () => {
    const el = parent.current;
    if (el) atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < ROW_HEIGHT * 2;
  };
  return (
    <div
      ref={parent}
      onScroll={onScroll}
      role="log"
      aria-label={label}
      aria-live="off"
      tabIndex={0}
      className={cn('h-[60vh] min-h-64 overflow-auto rounded-md border border-border bg-background font-mono text-xs', className)}
      data-testid="bot-log"
      data-count={lines.length}
    >
      {lines.length === 0 ? (
        <p className="p-4 text-sm text-muted-foreground font-sans">
          <FormattedMessage id="bots.noLines" />
        </p>
      ) : (
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((row) => {
            const line = lines[row.index];
            return (
              <div
                key={line.seq}
                className={cn('absolute inset-x-0 px-2 whitespace-nowrap', wide ? 'flex items-center gap-2' : 'grid content-center border-b border-border/50')}
                style={{ height: rowHeight, transform: `translateY(${row.start}px)` }}
                data-testid="log-line"
                data-level={line.level}
              >
                <span className={cn('flex min-w-0 items-center gap-2', wide && 'shrink-0')}>
                  <span className="shrink-0 text-muted-foreground tabular-nums">
                    <FormattedTime value={line.at} hour="2-digit" minute="2-digit" second="2-digit" />
                  </span>
                  {showBot && <span className={cn('min-w-0 truncate font-sans font-medium', wide ? 'w-40 shrink-0' : 'max-w-40')}>{names[String(line.botId)] ?? `#${line.botId}`}</span>}
                  <span className={cn('shrink-0 truncate uppercase', wide && 'w-16', LEVEL_STYLE[line.level])}>{intl.formatMessage({ id: `bots.level.${line.level}` })}</span>
                </span>
                <span className={cn('min-w-0 truncate', LEVEL_STYLE[line.level])} title={say(line.text)} dir="auto">
                  {say(line.text)}
                </span>
              </div>
            );
          })}
        </div>
      )}
    </div>
  );
}

/** Bots' names by id, for the log's rows. */
export function useBotNames(actor: BotWatchActor): Record<string, string> {
  const bots = useSelector(actor, (s) => s.context.monitor.bots);
  return useMemo(() => Object.fromEntries(Object.values(bots).map((b) => [String(b.id), b.name])), [bots]);
}

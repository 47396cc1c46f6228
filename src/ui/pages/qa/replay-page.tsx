import { useActorRef, useSelector } from '@xstate/react';
import type { ChangeEvent } from 'react';
import { FormattedMessage, FormattedNumber, FormattedTime, useIntl } from 'react-intl';
import type { BoardView } from '../../../auction/board-view';
import { liveClock } from '../../../machines/clock';
import { SPEEDS, isEnded, isPlaying, playerMachine } from '../../../replay/player.machine';
import { LogError, parseLog, type LogEntry } from '../../../streams/log';
import { Button } from '../../components/button';
import { Card, CardTitle } from '../../components/card';
import { cn } from '../../lib/cn';

/**
 * The QA player (/qa/replay): loads a recorded session log and plays it into a real board actor of
 * its own (not the live one), with play, pause, step, seek and speed, so a bug a player saw can be
 * watched again exactly. The player is a machine (src/replay/player.machine.ts); the page shows it.
 */
const RECENT = 12;

function describe(entry: LogEntry): string {
  if (entry.dir === 'open') return 'open';
  if (entry.dir === 'close') return `close ${entry.code}`;
  if (entry.dir === 'in' && entry.raw !== undefined) return entry.binary ? 'binary frame' : `raw ${JSON.stringify(entry.raw.slice(0, 40))}`;
  const msg = entry.msg as { type?: unknown; error_type?: unknown; data?: { itemId?: unknown; amount?: unknown } } | undefined;
  const parts = [String(msg?.type ?? '?')];
  if (msg?.error_type) parts.push(String(msg.error_type));
  if (msg?.data?.itemId !== undefined) parts.push(`#${String(msg.data.itemId)}`);
  if (msg?.data?.amount !== undefined) parts.push(String(msg.data.amount));
  return parts.join(' ');
}

function BoardPanel({ view }: { view: BoardView }) {
  const items = Object.values(view.items);
  return (
    <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_20rem]">
      <Card className="min-w-0">
        <CardTitle>
          <FormattedMessage id="qa.replay.items" values={{ count: items.length }} />
        </CardTitle>
        <div className="max-h-[32rem] overflow-auto">
          <table className="w-full text-sm">
            <thead className="text-start text-xs text-muted-foreground">
              <tr>
                <th className="py-1 text-start">#</th>
                <th className="py-1 text-start"><FormattedMessage id="qa.col.item" /></th>
                <th className="py-1 text-end"><FormattedMessage id="qa.col.amount" /></th>
                <th className="py-1 text-start ps-3"><FormattedMessage id="qa.col.leader" /></th>
                <th className="py-1 text-start"><FormattedMessage id="qa.col.state" /></th>
                <th className="py-1 text-start"><FormattedMessage id="qa.col.endsAt" /></th>
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {items.map((item) => (
                <tr key={item.itemId} data-item-id={item.itemId}>
                  <td className="py-1 tabular-nums">{item.itemId}</td>
                  <td className="py-1"><bdi>{item.itemName}</bdi></td>
                  <td className="py-1 text-end tabular-nums"><FormattedNumber value={item.amount} /></td>
                  <td className="py-1 ps-3"><bdi>{item.username}</bdi></td>
                  <td className={cn('py-1', item.state === 'finished' ? 'text-muted-foreground' : 'text-success')}>
                    <FormattedMessage id={item.state === 'finished' ? 'state.finished' : 'state.live'} />
                  </td>
                  <td className="py-1 tabular-nums">
                    <FormattedTime value={item.endsAt} hour="2-digit" minute="2-digit" second="2-digit" />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Card>
      <Card>
        <CardTitle>
          <FormattedMessage id="qa.replay.latestBids" />
        </CardTitle>
        <ol className="divide-y divide-border text-sm">
          {view.latestBids.map((bid) => (
            <li key={`${bid.itemId}:${bid.amount}`} className="flex justify-between gap-2 py-1">
              <span><bdi>{bid.username}</bdi> · <bdi>{bid.itemName}</bdi></span>
              <span className="tabular-nums"><FormattedNumber value={bid.amount} /></span>
            </li>
          ))}
        </ol>
      </Card>
    </div>
  );
}

export default function ReplayPage() {
  const intl = useIntl();
  const player = useActorRef(playerMachine, { clock: liveClock });
  const log = useSelector(player, (s) => s.context.log);
  const fileName = useSelector(player, (s) => s.context.fileName);
  const error = useSelector(player, (s) => s.context.error);
  const speed = useSelector(player, (s) => s.context.speed);
  const view = useSelector(player, (s) => s.context.board);
  const time = useSelector(player, (s) => s.context.time);
  const position = useSelector(player, (s) => s.context.position);
  const duration = useSelector(player, (s) => s.context.duration);
  const playing = useSelector(player, isPlaying);
  const ended = useSelector(player, isEnded);

  async function load(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (!file) return;
    const text = await file.text();
    try {
      player.send({ type: 'LOAD', fileName: file.name, log: parseLog(text) });
    } catch (e) {
      player.send({ type: 'LOAD_FAILED', fileName: file.name, error: e instanceof LogError ? e.message : String(e) });
    }
  }

  const total = log?.entries.length ?? 0;
  const recent = log ? log.entries.slice(Math.max(0, position - RECENT), position).reverse() : [];

  return (
    <div className="grid gap-4">
      <h1 className="text-2xl font-semibold">
        <FormattedMessage id="qa.replay.title" />
      </h1>
      <Card>
        <div className="flex flex-wrap items-center gap-3">
          <label className={cn('cursor-pointer rounded-md border border-border px-3 py-2 text-sm hover:bg-muted')}>
            <FormattedMessage id="qa.replay.file" />
            <input type="file" accept=".jsonl,.ndjson,.log,text/plain" className="sr-only" onChange={load} />
          </label>
          <span className="text-sm text-muted-foreground">{fileName}</span>
          {log && (
            <span className="text-xs text-muted-foreground">
              {log.header.app} · {log.header.user ?? '—'} · {log.header.recordedAt}
            </span>
          )}
        </div>
        {error && (
          <p role="alert" className="mt-3 text-sm text-danger">
            {error}
          </p>
        )}
      </Card>

      {log && view && (
        <>
          <Card className="grid gap-3">
            <div className="flex flex-wrap items-center gap-2">
              {playing ? (
                <Button variant="outline" size="sm" onClick={() => player.send({ type: 'PAUSE' })}>
                  <FormattedMessage id="qa.replay.pause" />
                </Button>
              ) : (
                <Button size="sm" onClick={() => player.send({ type: 'PLAY' })} disabled={ended}>
                  <FormattedMessage id="qa.replay.play" />
                </Button>
              )}
              <Button variant="outline" size="sm" onClick={() => player.send({ type: 'STEP' })} disabled={ended}>
                <FormattedMessage id="qa.replay.step" />
              </Button>
              <Button variant="outline" size="sm" onClick={() => player.send({ type: 'SEEK', time: 0 })}>
                <FormattedMessage id="qa.replay.restart" />
              </Button>
              <label className="ms-2 flex items-center gap-2 text-sm">
                <FormattedMessage id="qa.replay.speed" />
                <select
                  className="rounded-md border border-border bg-transparent px-2 py-1"
                  value={speed}
                  onChange={(e) => player.send({ type: 'SPEED', speed: Number(e.target.value) })}
                >
                  {SPEEDS.map((s) => (
                    <option key={s} value={s}>
                      {s}×
                    </option>
                  ))}
                </select>
              </label>
              <span
                className={cn('ms-auto rounded-full px-2 py-0.5 text-xs font-medium', view.connected ? 'bg-success/15 text-success' : 'bg-danger/15 text-danger')}
              >
                <FormattedMessage id={view.connected ? 'topbar.connected' : 'topbar.disconnected'} />
              </span>
            </div>
            <input
              type="range"
              min={0}
              max={duration}
              value={Math.min(time, duration)}
              aria-label={intl.formatMessage({ id: 'qa.replay.seek' })}
              onChange={(e) => player.send({ type: 'SEEK', time: Number(e.target.value) })}
              className="w-full"
            />
            <p className="text-sm tabular-nums text-muted-foreground" data-ended={ended}>
              <FormattedMessage
                id="qa.replay.position"
                values={{ time: Math.round(time), duration, entry: position, entries: total }}
              />
              {ended && (
                <>
                  {' · '}
                  <FormattedMessage id="qa.replay.ended" />
                </>
              )}
            </p>
          </Card>

          <BoardPanel view={view} />

          <div className="grid gap-4 lg:grid-cols-2">
            <Card>
              <CardTitle>
                <FormattedMessage id="qa.replay.recent" />
              </CardTitle>
              <ol className="font-mono text-xs">
                {recent.map((entry) => (
                  <li key={entry.line} className="flex gap-3 py-0.5">
                    <span className="w-14 shrink-0 text-end tabular-nums text-muted-foreground">{entry.t}</span>
                    <span className="w-24 shrink-0">{entry.ch} {entry.dir}</span>
                    <span className="min-w-0 truncate">{describe(entry)}</span>
                  </li>
                ))}
              </ol>
            </Card>
            <Card>
              <details>
                <summary className="cursor-pointer text-sm font-medium">
                  <FormattedMessage id="qa.replay.json" />
                </summary>
                <pre className="mt-2 max-h-80 overflow-auto text-xs" dir="ltr">
                  {JSON.stringify(view, null, 2)}
                </pre>
              </details>
            </Card>
          </div>
        </>
      )}
    </div>
  );
}

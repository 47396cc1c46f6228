import { lazy, Suspense, useMemo } from 'react';
import { FormattedDate, FormattedMessage, FormattedNumber, useIntl } from 'react-intl';
import type { HistoryEntry } from '../../../protocol/scans';
import { Spinner } from '../loader';
import { Change, Num } from './num';
import { StatTile } from './stat-tile';
import { killsByTier, lastChange } from '../../lib/stats-format';

const Chart = lazy(() => import('./chart'));

/** The profile's stats (power, T4 and T5 kills, deaths, helps and resource assistance). */
export const PROFILE_STATS = ['power', 't4Kills', 't5Kills', 'deads', 'helps', 'rssAssistance'] as const;
type ProfileStat = (typeof PROFILE_STATS)[number] | 'killpoints';

/** The latest scan's values, each with its change since the scan before. */
export function StatsGrid({ history, stats = PROFILE_STATS }: { history: HistoryEntry[]; stats?: readonly ProfileStat[] }) {
  const latest = history[history.length - 1];
  if (!latest) return null;
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
      {stats.map((stat) => (
        <StatTile key={stat} labelId={`stat.${stat}`} raised={false}>
          <Num value={latest[stat]} className="text-xl font-semibold" />
          <Change value={lastChange(history.map((h) => h[stat]))} />
        </StatTile>
      ))}
    </dl>
  );
}

/** A stat over the governor's scans (uPlot, loaded when shown). */
export function Trend({ history, stat }: { history: HistoryEntry[]; stat: ProfileStat }) {
  const intl = useIntl();
  const label = intl.formatMessage({ id: `stat.${stat}` });
  const xs = useMemo(() => history.map((h) => h.takenAt / 1000), [history]);
  const series = useMemo(() => [{ label, values: history.map((h) => h[stat]) }], [history, stat, label]);
  if (history.length < 2) {
    return (
      <p className="text-sm text-muted-foreground">
        <FormattedMessage id="governor.oneScan" />
      </p>
    );
  }
  return (
    <Suspense fallback={<Spinner />}>
      <Chart xs={xs} series={series} label={label} height={200} />
    </Suspense>
  );
}

/** Kills by tier: a bar per tier with its count and share (the chart and the numbers at once). */
export function KillsBars({ entry }: { entry: HistoryEntry }) {
  const tiers = killsByTier(entry);
  const max = Math.max(1, ...tiers.map((t) => t.kills));
  if (tiers.length === 0) {
    return (
      <p className="text-sm text-muted-foreground">
        <FormattedMessage id="governor.noKills" />
      </p>
    );
  }
  return (
    <ul className="grid gap-3">
      {tiers.map((t) => (
        <li key={t.tier} className="grid grid-cols-[3.5rem_minmax(0,1fr)_8.5rem] items-center gap-3 text-sm">
          <span className="font-medium">
            <FormattedMessage id={`stat.${t.tier}`} />
          </span>
          <span className="h-4 overflow-hidden rounded bg-muted" aria-hidden="true">
            <span className="block h-full rounded bg-primary" style={{ width: `${(t.kills / max) * 100}%` }} />
          </span>
          <span className="text-end">
            <bdi className="font-medium tabular-nums">
              <FormattedNumber value={t.kills} />
            </bdi>
            <span className="ms-2 text-xs text-muted-foreground">
              <FormattedNumber value={t.share} style="percent" maximumFractionDigits={1} />
            </span>
          </span>
        </li>
      ))}
    </ul>
  );
}

export function ScannedOn({ entry }: { entry: HistoryEntry }) {
  return (
    <p className="text-xs text-muted-foreground">
      <FormattedMessage id="governor.scannedOn" values={{ date: <FormattedDate value={entry.takenAt} dateStyle="medium" timeStyle="short" /> }} />
    </p>
  );
}

import { useQuery } from '@tanstack/react-query';
import { FormattedDate, FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { createKvkApi, kvkKeys } from '../../../api/kvk';
import { isLeadership } from '../../../protocol/ranks';
import { useRank } from '../../lib/back-office';
import { Card, CardTitle } from '../../components/card';
import { useApi } from '../../lib/use-api';
import { KvkAlert, ProgressBar, StatusTag } from '../../components/stats/kvk-parts';
import { Num } from '../../components/stats/num';

/** A requirement of the governor's bracket: done of required, and the progress bar. */
function RequirementTile({ labelId, done, required, progress, progressLabelId }: { labelId: string; done: number | null; required: number; progress: number; progressLabelId: string }) {
  return (
    <div className="min-w-0 rounded-lg border border-border p-3">
      <dt className="text-xs text-muted-foreground">
        <FormattedMessage id={labelId} />
      </dt>
      <dd className="mt-1 grid gap-1.5">
        <span className="text-sm">
          <FormattedMessage id="kvk.profile.ofRequired" values={{ done: <Num value={done} />, required: <Num value={required} /> }} />
        </span>
        <ProgressBar value={progress} labelId={progressLabelId} />
      </dd>
    </div>
  );
}

/**
 * The player's own KvK progress while a season runs: for each of their governors in
 * the season's start scan, DKP, the requirement of its bracket and progress, as the server computed
 * them. Nothing is shown when no season runs.
 */
export function ProfileKvk() {
  const kvk = useApi(createKvkApi);
  const me = useQuery({ queryKey: kvkKeys.me, queryFn: () => kvk.me() });
  const player = !isLeadership(useRank());
  // a player lists only the published seasons: when there is one, the way to the standings
  const seasons = useQuery({ queryKey: kvkKeys.seasons, queryFn: () => kvk.seasons(), enabled: player });
  const standingsLink = player && (seasons.data?.length ?? 0) > 0 && (
    <Link href="/my-kingdom/kvk-dashboard" className="justify-self-start text-sm font-medium text-primary underline-offset-4 hover:underline">
      <FormattedMessage id="kvk.profile.standings" />
    </Link>
  );
  if (me.error) return <KvkAlert error={me.error} />;
  const data = me.data;
  if (!data?.season) return standingsLink ? <Card className="grid min-w-0">{standingsLink}</Card> : null;
  return (
    <Card className="grid min-w-0" aria-labelledby="profile-kvk-title">
      <CardTitle id="profile-kvk-title" className="mb-1">
        <FormattedMessage id="kvk.profile.title" values={{ name: <bdi>{data.season.name}</bdi> }} />
      </CardTitle>
      <p className="mb-4 text-sm text-muted-foreground">
        {data.to ? (
          <FormattedMessage
            id="kvk.period"
            values={{ from: <FormattedDate value={data.season.startScan.takenAt} dateStyle="medium" />, to: <FormattedDate value={data.to.takenAt} dateStyle="medium" /> }}
          />
        ) : (
          <FormattedMessage id="kvk.noEndYet" values={{ from: <FormattedDate value={data.season.startScan.takenAt} dateStyle="medium" /> }} />
        )}
      </p>
      {data.governors.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          <FormattedMessage id="kvk.profile.notInSeason" />
        </p>
      ) : (
        <div className="grid gap-4">
          {data.governors.map((g) => {
            const kills = g.gains.t4Kills === null && g.gains.t5Kills === null ? null : (g.gains.t4Kills ?? 0) + (g.gains.t5Kills ?? 0);
            return (
              <div key={g.governorId} className="grid gap-3">
                <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                  <bdi className="font-semibold">{g.name}</bdi>
                  <StatusTag status={g.status} />
                  {g.reason && <bdi className="text-xs text-muted-foreground">{g.reason}</bdi>}
                </div>
                <dl className="grid gap-3 sm:grid-cols-3">
                  <div className="min-w-0 rounded-lg border border-border p-3">
                    <dt className="text-xs text-muted-foreground">
                      <FormattedMessage id="kvk.col.dkp" />
                    </dt>
                    <dd className="mt-1 text-xl font-semibold">
                      <Num value={g.dkp} />
                    </dd>
                  </div>
                  <RequirementTile labelId="kvk.profile.kills" done={kills} required={g.required.kills} progress={g.progress.kills} progressLabelId="kvk.col.killsProgress" />
                  <RequirementTile labelId="stat.deads" done={g.gains.deads} required={g.required.deads} progress={g.progress.deads} progressLabelId="kvk.col.deadsProgress" />
                </dl>
              </div>
            );
          })}
        </div>
      )}
      {standingsLink && <div className="mt-4 grid">{standingsLink}</div>}
    </Card>
  );
}

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useState, type ReactNode } from 'react';
import { FormattedMessage, FormattedNumber, useIntl } from 'react-intl';
import { adminKeys, createAdminApi, type AuditFilter, type Dashboard } from '../../../api/admin';
import { AUDIT_ACTIONS } from '../../../protocol/admin';
import { RANKS } from '../../../protocol/ranks';
import { Alert } from '../../components/alert';
import { Card, CardHeader } from '../../components/card';
import { ShareLinks } from '../../components/stats/share-links';
import { PageTitle } from '../../components/page-header';
import { Input } from '../../components/input';
import { NativeSelect } from '../../components/native-select';
import { Pagination } from '../../components/pagination';
import { CardRow, Table, TableHead, Td } from '../../components/table';
import { useApi } from '../../lib/use-api';
import { today } from '../../lib/period';
import { ExportButtons, ExportCsvButton } from '../../components/export-csv-button';
import { Field } from '../../components/field';
import { useDebounced } from '../../lib/use-debounced';
import { usePagedFilter } from '../../lib/use-paged-filter';
import { QueryError } from '../../components/query-error';
import { Hint } from '../../components/hint';
import { DiscordDeliveries } from './discord-deliveries';
import { When } from './shared';
import { AuditActor, AuditDetail, AuditTarget } from './audit-detail';

/** Areas of the audit log's actions (`points` matches points.grant, points.deduct…), for the filter. */
const AREAS = [...new Set(AUDIT_ACTIONS.map((a) => a.split('.')[0]))];

const KNOWN_ACTIONS: ReadonlySet<string> = new Set(AUDIT_ACTIONS);

/** An action said in the reader's language (admin.audit.action.*); one the app does not know (an older server's) stays its code. */
function ActionName({ action }: { action: string }) {
  return KNOWN_ACTIONS.has(action) ? <FormattedMessage id={`admin.audit.action.${action}`} /> : <>{action}</>;
}

/** Admin → Admin Dashboard: the site's health at a glance, and the audit log of every leadership action. */
export default function AdminDashboardPage({ titleId }: { titleId: string }) {
  const admin = useApi(createAdminApi);
  const health = useQuery({ queryKey: adminKeys.dashboard, queryFn: () => admin.dashboard(), refetchInterval: 30_000 });
  return (
    <div className="grid min-w-0 gap-4">
      <PageTitle titleId={titleId} />
      <QueryError error={health.error} />
      {health.data && <Health dashboard={health.data} />}
      {health.data && <KingdomData backup={health.data.backup} />}
      <DiscordDeliveries />
      <AuditLog />
      <ShareLinks all />
    </div>
  );
}

function Stat({ labelId, children }: { labelId: string; children: ReactNode }) {
  const label = useId();
  return (
    <Card className="grid min-w-0 content-start gap-1 p-4" aria-labelledby={label}>
      <h2 id={label} className="text-xs font-medium text-muted-foreground">
        <FormattedMessage id={labelId} />
      </h2>
      <div className="min-w-0 text-lg font-semibold break-words">{children}</div>
    </Card>
  );
}

/** A line under a figure, saying what it is made of. */
function Detail({ id, values }: { id: string; values: Record<string, number> }) {
  return (
    <p className="text-xs font-normal text-muted-foreground">
      <FormattedMessage id={id} values={values} />
    </p>
  );
}

function bytes(n: number, locale: string): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value)} ${units[unit]}`;
}

function Health({ dashboard: d }: { dashboard: Dashboard }) {
  const intl = useIntl();
  const uptimeHours = Math.floor(d.uptimeSeconds / 3600);
  const uptimeMinutes = Math.floor((d.uptimeSeconds % 3600) / 60);
  const others = Object.entries(d.accountsByRank).filter(([rank]) => !(RANKS as readonly string[]).includes(rank));
  return (
    <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-4">
      <Stat labelId="admin.dashboard.accounts">
        <ul className="grid gap-0.5 text-sm font-normal">
          {RANKS.map((rank) => (
            <li key={rank} className="flex justify-between gap-2">
              <FormattedMessage id={`rank.${rank}`} />
              <bdi className="font-semibold tabular-nums">
                <FormattedNumber value={d.accountsByRank[rank] ?? 0} />
              </bdi>
            </li>
          ))}
          {others.length > 0 && (
            <li className="flex justify-between gap-2">
              <FormattedMessage id="rank.unknown" />
              <bdi className="font-semibold tabular-nums">
                <FormattedNumber value={others.reduce((n, [, c]) => n + c, 0)} />
              </bdi>
            </li>
          )}
          <li className="flex justify-between gap-2 text-muted-foreground">
            <FormattedMessage id="admin.dashboard.disabled" />
            <bdi className="tabular-nums">
              <FormattedNumber value={d.disabledAccounts} />
            </bdi>
          </li>
        </ul>
      </Stat>
      <Stat labelId="admin.dashboard.sockets">
        <FormattedNumber value={d.sockets.auction + d.sockets.user} />
        <Detail id="admin.dashboard.socketsDetail" values={{ auction: d.sockets.auction, user: d.sockets.user }} />
      </Stat>
      <Stat labelId="admin.dashboard.bidsLastHour">
        <FormattedNumber value={d.bidsLastHour} />
      </Stat>
      <Stat labelId="admin.dashboard.liveItems">
        <FormattedNumber value={d.liveItems} />
      </Stat>
      <Stat labelId="admin.dashboard.lastScan">
        {d.lastScan ? (
          <>
            {/* a card a quarter of the page wide: the date and its time may take two lines */}
            <When at={d.lastScan.takenAt} wrap />
            <Detail id="admin.dashboard.lastScanDetail" values={{ id: d.lastScan.id, rows: d.lastScan.rows }} />
          </>
        ) : (
          <span className="text-base font-normal text-muted-foreground">
            <FormattedMessage id="admin.dashboard.noScan" />
          </span>
        )}
      </Stat>
      <Stat labelId="admin.dashboard.botsOnline">
        <FormattedNumber value={d.botsOnline} />
      </Stat>
      <Stat labelId="admin.dashboard.database">
        <bdi dir="ltr">{bytes(d.databaseBytes, intl.locale)}</bdi>
      </Stat>
      <Stat labelId="admin.dashboard.version">
        <bdi dir="ltr">{d.version}</bdi>
        <Detail id="admin.dashboard.uptime" values={{ hours: uptimeHours, minutes: uptimeMinutes }} />
      </Stat>
    </div>
  );
}

/** An age said in the reader's language ("3 hours ago", "il y a 2 jours"). */
function age(ms: number, intl: ReturnType<typeof useIntl>): string {
  const minutes = Math.max(0, Math.round(ms / 60_000));
  if (minutes < 60) return intl.formatRelativeTime(-minutes, 'minute', { numeric: 'auto' });
  const hours = Math.round(minutes / 60);
  if (hours < 48) return intl.formatRelativeTime(-hours, 'hour', { numeric: 'auto' });
  return intl.formatRelativeTime(-Math.round(hours / 24), 'day', { numeric: 'auto' });
}

/**
 * The backups (SQLite: the last one, its size and age, the schedule or that there is none, a
 * warning when it is behind; nothing on PostgreSQL, whose pg_dump backups the server cannot see)
 * and the button that downloads everything the kingdom owns.
 */
function KingdomData({ backup }: { backup: Dashboard['backup'] }) {
  const intl = useIntl();
  const admin = useApi(createAdminApi);
  return (
    <Card className="grid min-w-0 gap-3">
      <CardHeader title={<FormattedMessage id="admin.dashboard.data" />} className="mb-0">
        <ExportCsvButton fetchCsv={() => admin.exportZip()} filename={`kingdom-export-${today()}.zip`} labelId="admin.dashboard.exportAll" />
      </CardHeader>
      {backup && (
        <div className="grid gap-2 text-sm">
          <p>
            <span className="font-medium">
              <FormattedMessage id="admin.dashboard.lastBackup" />
            </span>
            {': '}
            {backup.last ? (
              <>
                <When at={backup.last.takenAt} />
                {' · '}
                <FormattedMessage
                  id="admin.dashboard.backupAge"
                  values={{ size: <bdi dir="ltr">{bytes(backup.last.bytes, intl.locale)}</bdi>, age: age(Date.now() - backup.last.takenAt, intl) }}
                />
              </>
            ) : (
              <FormattedMessage id="admin.dashboard.noBackup" />
            )}
          </p>
          {backup.everyHours !== null && backup.keep !== null ? (
            <p className="text-muted-foreground">
              <FormattedMessage id="admin.dashboard.backupSchedule" values={{ hours: backup.everyHours, keep: backup.keep }} />
            </p>
          ) : (
            <Alert variant="warning">
              <FormattedMessage id="admin.dashboard.backupOff" />
            </Alert>
          )}
          {backup.overdue && backup.everyHours !== null && (
            <Alert variant="error">
              <FormattedMessage id="admin.dashboard.backupOverdue" values={{ hours: 2 * backup.everyHours }} />
            </Alert>
          )}
        </div>
      )}
      <p className="text-xs text-muted-foreground">
        <FormattedMessage id="admin.dashboard.exportHint" />
      </p>
    </Card>
  );
}

function AuditLog() {
  const intl = useIntl();
  const admin = useApi(createAdminApi);
  const [page, setPage] = useState(1);
  const [actor, setActor] = usePagedFilter('', setPage);
  const [action, setAction] = usePagedFilter('', setPage);
  const actorFilter = useDebounced(actor.trim());
  const filter: AuditFilter = { actor: actorFilter, action, page };
  const log = useQuery({ queryKey: adminKeys.audit(filter), queryFn: () => admin.audit(filter), placeholderData: keepPreviousData });
  return (
    <Card className="grid min-w-0 gap-3">
      <CardHeader title={<FormattedMessage id="admin.audit.title" />} className="mb-0">
        <ExportButtons fetchFile={(file) => admin.auditFile(filter, file)} name={`audit-${today()}`} />
      </CardHeader>
      <div className="grid gap-3 sm:grid-cols-[minmax(0,16rem)_minmax(0,16rem)]">
        <Field id="audit-actor" labelId="admin.audit.actor">
          <Input id="audit-actor" value={actor} maxLength={64} onChange={(e) => setActor(e.target.value)} />
        </Field>
        <Field id="audit-action" labelId="admin.audit.action">
          <NativeSelect id="audit-action" className="w-full" value={action} onChange={(e) => setAction(e.target.value)}>
            <option value="">{intl.formatMessage({ id: 'admin.audit.allActions' })}</option>
            <optgroup label={intl.formatMessage({ id: 'admin.audit.areas' })}>
              {AREAS.map((area) => (
                <option key={area} value={area}>
                  {intl.formatMessage({ id: `admin.audit.area.${area}` })}
                </option>
              ))}
            </optgroup>
            <optgroup label={intl.formatMessage({ id: 'admin.audit.actions' })}>
              {AUDIT_ACTIONS.map((a) => (
                <option key={a} value={a}>
                  {intl.formatMessage({ id: `admin.audit.action.${a}` })}
                </option>
              ))}
            </optgroup>
          </NativeSelect>
        </Field>
      </div>
      <QueryError error={log.error} />
      {log.data && log.data.entries.length === 0 ? (
        <Hint id="admin.audit.empty" />
      ) : (
        <Table loading={log.isPending} columns={5} minWidth="0" className="max-md:block md:min-w-[48rem]" aria-label={intl.formatMessage({ id: 'admin.audit.title' })}>
          <TableHead className="max-md:hidden" columns={['admin.audit.when', 'admin.audit.actor', 'admin.audit.action', 'admin.audit.target', 'admin.audit.detail']} />
          <tbody className="max-md:grid max-md:gap-2 md:divide-y md:divide-border">
            {log.data?.entries.map((e, i) => (
              <CardRow key={`${e.at}-${i}`}>
                <Td className="max-md:col-span-2 max-md:px-1 max-md:text-xs max-md:text-muted-foreground">
                  <When at={e.at} />
                </Td>
                <Td className="max-md:px-1">
                  <span className="font-medium whitespace-nowrap">
                    <AuditActor actor={e.actor} action={e.action} />
                  </span>
                </Td>
                <Td className="max-md:px-1">
                  <span className="font-medium">
                    <ActionName action={e.action} />
                  </span>
                </Td>
                <Td className="max-md:col-span-2 max-md:px-1">
                  <span className="[overflow-wrap:anywhere]">
                    <AuditTarget target={e.target} />
                  </span>
                </Td>
                <Td className="max-md:col-span-2 max-md:px-1">
                  <AuditDetail detail={e.detail} action={e.action} />
                </Td>
              </CardRow>
            ))}
          </tbody>
        </Table>
      )}
      {log.data && <Pagination page={log.data.page} pageSize={log.data.pageSize} total={log.data.total} onPage={setPage} />}
    </Card>
  );
}

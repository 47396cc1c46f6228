import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ErrorText } from '../../components/query-error';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { statsKeys, type AllianceRow } from '../../../api/scans';
import { Button } from '../../components/button';
import { Card, CardTitle } from '../../components/card';
import { Checkbox } from '../../components/checkbox';
import { Input } from '../../components/input';
import { Field } from '../../components/field';
import { PageTitle } from '../../components/page-header';
import { CardRow, endColumns, Table, TableHead, Td } from '../../components/table';
import { CellCaption } from '../../components/stats/cells';
import { Hint } from '../../components/hint';
import { useScansApi, Empty, ScanLabel, ScanSelect, useScans } from '../../components/stats/scan-parts';
import { Num } from '../../components/stats/num';
import { QueryError } from '../../components/query-error';

/** Admin → Alliances: the alliances seen in a scan (the latest by default), their name, whether they are the kingdom's, members and power. */
export default function AlliancesPage({ titleId }: { titleId: string }) {
  const scansApi = useScansApi();
  const scans = useScans();
  const [scanId, setScanId] = useState('');
  const alliances = useQuery({
    queryKey: statsKeys.alliances(scanId ? Number(scanId) : undefined),
    queryFn: () => scansApi.allianceSums(scanId ? Number(scanId) : undefined),
    select: (sums) => sums.alliances,
  });
  const shown = scanId ? scans.data?.scans.find((s) => String(s.id) === scanId) : scans.data?.scans[0];

  return (
    <div className="grid min-w-0 gap-4">
      <PageTitle titleId={titleId} />
      <Card className="grid min-w-0 gap-3">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <CardTitle>
            <FormattedMessage id="stats.alliances.title" />
            {shown && (
              <span className="ms-2 text-sm font-normal text-muted-foreground">
                <ScanLabel scan={shown} />
              </span>
            )}
          </CardTitle>
          <Field id="alliances-scan" labelId="stats.alliances.scan" className="gap-1">
            <ScanSelect id="alliances-scan" value={scanId} onChange={setScanId} scans={scans.data?.scans ?? []} defaultLabelId="stats.alliances.latest" />
          </Field>
        </div>
        <Hint id="stats.alliances.hint" />
        <QueryError error={alliances.error} />
        {alliances.data && alliances.data.length === 0 ? (
          <Empty textId="stats.alliances.empty" />
        ) : (
          <Table loading={alliances.isPending} columns={6} minWidth="0" className="max-md:block md:min-w-[48rem]">
            <TableHead className="max-md:hidden" columns={['stats.alliances.tag', 'stats.alliances.name', 'stats.alliances.ours', ...endColumns(['stats.alliances.members', 'stat.power', 'stat.killpoints'])]} />
            {/* on phones each alliance is a card */}
            <tbody className="max-md:grid max-md:gap-3">{alliances.data?.map((row) => <AllianceLine key={row.tag} row={row} />)}</tbody>
          </Table>
        )}
      </Card>
    </div>
  );
}

function AllianceLine({ row }: { row: AllianceRow }) {
  const scansApi = useScansApi();
  const intl = useIntl();
  const client = useQueryClient();
  const [name, setName] = useState(row.name);
  const save = useMutation({
    mutationFn: (body: { name?: string; ours?: boolean }) => scansApi.saveAlliance(row.tag, body),
    onSuccess: () => client.invalidateQueries({ queryKey: statsKeys.alliancesAll }),
  });
  const nameId = `alliance-name-${row.tag}`;
  return (
    <CardRow className="max-md:grid-cols-3">
      <Td className="font-medium max-md:col-span-2 max-md:px-1">
        <bdi>{row.tag}</bdi>
      </Td>
      <Td className="max-md:col-span-3 max-md:row-start-2 max-md:px-1">
        <form
          className="flex min-w-0 items-center gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate({ name });
          }}
        >
          <label htmlFor={nameId} className="sr-only">
            {intl.formatMessage({ id: 'stats.alliances.nameOf' }, { tag: row.tag })}
          </label>
          <Input id={nameId} dir="auto" className="h-8 min-w-0 w-44" value={name} maxLength={64} onChange={(e) => setName(e.target.value)} />
          <Button size="sm" variant="outline" type="submit" disabled={save.isPending || name === row.name}>
            <FormattedMessage id="stats.alliances.save" />
          </Button>
        </form>
        {save.error && (
          <p className="mt-1 text-xs text-danger" role="alert">
            <bdi><ErrorText error={save.error} /></bdi>
          </p>
        )}
      </Td>
      <Td className="max-md:col-start-3 max-md:row-start-1 max-md:px-1 max-md:text-end">
        <Checkbox
          checked={row.ours}
          disabled={save.isPending}
          aria-label={intl.formatMessage({ id: 'stats.alliances.oursOf' }, { tag: row.tag })}
          onCheckedChange={(v) => save.mutate({ ours: v === true })}
        />
      </Td>
      <Td className="text-end tabular-nums max-md:px-1 max-md:text-start">
        <CellCaption id="stats.alliances.members" />
        <Num value={row.members} />
      </Td>
      <Td className="text-end max-md:px-1 max-md:text-start">
        <CellCaption id="stat.power" />
        <Num value={row.power} />
      </Td>
      <Td className="text-end max-md:px-1 max-md:text-start">
        <CellCaption id="stat.killpoints" />
        <Num value={row.killpoints} />
      </Td>
    </CardRow>
  );
}

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { playerIdsKeys, type PlayerLink } from '../../../api/scans';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Card, CardTitle } from '../../components/card';
import { Checkbox } from '../../components/checkbox';
import { Input } from '../../components/input';
import { Label } from '../../components/label';
import { Pagination } from '../../components/pagination';
import { usePagedFilter } from '../../lib/use-paged-filter';
import { CardRow, Table, TableHead, Td } from '../../components/table';
import { Field } from '../../components/field';
import { PageTitle } from '../../components/page-header';
import { GovernorName } from '../../components/stats/cells';
import { ConfirmDialogFor } from '../../components/stats/confirm-dialog';
import { Hint } from '../../components/hint';
import { useScansApi, Empty } from '../../components/stats/scan-parts';
import { QueryError } from '../../components/query-error';
import { LinkImportCard } from './link-import-card';

/** Admin → Player IDs: accounts and the governors linked to them (the sign-up's claim, farms), verified or not. */
export default function PlayerIdsPage({ titleId }: { titleId: string }) {
  const intl = useIntl();
  const scansApi = useScansApi();
  const client = useQueryClient();
  const [page, setPage] = useState(1);
  const [q, setQ] = usePagedFilter('', setPage);
  const [unlinking, setUnlinking] = useState<PlayerLink | null>(null);
  const links = useQuery({
    queryKey: playerIdsKeys.page(q, page),
    queryFn: () => scansApi.playerIds(q, page),
    placeholderData: keepPreviousData,
  });
  const refresh = () => client.invalidateQueries({ queryKey: playerIdsKeys.all });
  const verify = useMutation({
    mutationFn: (link: PlayerLink) => scansApi.link(link.governorId, { username: link.username, verified: !link.verified }),
    onSuccess: refresh,
  });
  const unlink = useMutation({
    mutationFn: (link: PlayerLink) => scansApi.unlink(link.governorId),
    onSuccess: () => {
      setUnlinking(null);
      void refresh();
    },
  });

  return (
    <div className="grid min-w-0 gap-4">
      <PageTitle titleId={titleId} />
      <LinkForm onLinked={refresh} />
      <LinkImportCard onLinked={refresh} />
      <Card className="grid min-w-0 gap-3">
        <CardTitle>
          <FormattedMessage id="stats.playerIds.listTitle" />
        </CardTitle>
        <Field id="player-ids-q" labelId="stats.playerIds.search" className="max-w-sm gap-1">
          <Input id="player-ids-q" value={q} maxLength={64} onChange={(e) => setQ(e.target.value)} />
        </Field>
        <QueryError error={links.error ?? verify.error ?? unlink.error} />
        {links.data && links.data.links.length === 0 ? (
          <Empty textId={q.trim() ? 'stats.playerIds.noMatch' : 'stats.playerIds.empty'} />
        ) : (
          <Table loading={links.isPending} columns={5} minWidth="0" className="max-md:block md:min-w-[44rem]">
            <TableHead className="max-md:hidden" columns={['stats.playerIds.governor', 'stats.playerIds.account', 'stats.playerIds.kind', 'stats.playerIds.verified', { id: 'stats.playerIds.actions', srOnly: true }]} />
            {/* on phones each link is a card: every action stays on screen */}
            <tbody className="max-md:grid max-md:gap-3">
              {links.data?.links.map((link) => (
                <CardRow key={link.governorId}>
                  <Td className="max-md:px-1">
                    <GovernorName governorId={link.governorId} name={link.name} />
                  </Td>
                  <Td className="max-md:px-1">
                    <bdi className="break-all">{link.username}</bdi>
                  </Td>
                  <Td className="whitespace-nowrap max-md:px-1">
                    <FormattedMessage id={link.main ? 'stats.playerIds.main' : 'stats.playerIds.farm'} />
                  </Td>
                  <Td className="whitespace-nowrap max-md:px-1">
                    <span className="md:hidden">
                      <FormattedMessage id="stats.playerIds.verified" />:{' '}
                    </span>
                    <FormattedMessage id={link.verified ? 'stats.playerIds.yes' : 'stats.playerIds.no'} />
                  </Td>
                  <Td className="max-md:col-span-2 max-md:px-1">
                    <div className="flex justify-end gap-2 max-md:justify-start">
                      <Button size="sm" variant="outline" disabled={verify.isPending} onClick={() => verify.mutate(link)}>
                        <FormattedMessage id={link.verified ? 'stats.playerIds.unverify' : 'stats.playerIds.verify'} />
                      </Button>
                      <Button size="sm" variant="outline" onClick={() => setUnlinking(link)}>
                        <FormattedMessage id="stats.playerIds.unlink" />
                      </Button>
                    </div>
                  </Td>
                </CardRow>
              ))}
            </tbody>
          </Table>
        )}
        {links.data && <Pagination page={links.data.page} pageSize={links.data.pageSize} total={links.data.total} onPage={setPage} />}
      </Card>
      <ConfirmDialogFor
        subject={unlinking}
        onClose={() => setUnlinking(null)}
        title={() => intl.formatMessage({ id: 'stats.playerIds.unlinkTitle' })}
        text={(l) => intl.formatMessage({ id: 'stats.playerIds.unlinkText' }, { governorId: l.governorId, username: l.username })}
        confirmId="stats.playerIds.unlink"
        busy={unlink.isPending}
        onConfirm={(l) => unlink.mutate(l)}
      />
    </div>
  );
}

/** Link a governor (a farm, or a corrected main) to an account, verified or not. */
function LinkForm({ onLinked }: { onLinked: () => void }) {
  const scansApi = useScansApi();
  const intl = useIntl();
  const [governorId, setGovernorId] = useState('');
  const [username, setUsername] = useState('');
  const [verified, setVerified] = useState(true);
  const [invalid, setInvalid] = useState(false);
  // a governor linked to another account: moving it is said first, and confirmed
  const [moving, setMoving] = useState<{ governorId: number; from: string; to: string } | null>(null);
  const link = useMutation({
    mutationFn: async ({ confirmed }: { confirmed: boolean }) => {
      const id = Number(governorId.trim());
      const to = username.trim();
      if (!confirmed) {
        const current = (await scansApi.playerIds(String(id), 1)).links.find((l) => l.governorId === id);
        if (current && current.username.toLowerCase() !== to.toLowerCase()) return { kind: 'moving' as const, moving: { governorId: id, from: current.username, to } };
      }
      return { kind: 'linked' as const, linked: await scansApi.link(id, { username: to, verified }) };
    },
    onSuccess: (done) => {
      if (done.kind === 'moving') return setMoving(done.moving);
      setMoving(null);
      setGovernorId('');
      setUsername('');
      onLinked();
    },
  });
  const linked = link.data?.kind === 'linked' ? link.data.linked : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const ok = /^[1-9]\d{0,14}$/.test(governorId.trim()) && username.trim() !== '';
    setInvalid(!ok);
    if (ok) link.mutate({ confirmed: false });
  };
  return (
    <Card className="grid min-w-0 gap-3">
      <CardTitle>
        <FormattedMessage id="stats.playerIds.linkTitle" />
      </CardTitle>
      <Hint id="stats.playerIds.linkHint" />
      <form className="flex flex-wrap items-end gap-3" onSubmit={submit} noValidate>
        <Field id="link-governor" labelId="stats.playerIds.governorId" className="gap-1">
          <Input id="link-governor" inputMode="numeric" dir="ltr" className="w-40" value={governorId} onChange={(e) => setGovernorId(e.target.value)} aria-invalid={invalid && !/^[1-9]\d{0,14}$/.test(governorId.trim())} />
        </Field>
        <Field id="link-username" labelId="stats.playerIds.username" className="gap-1">
          <Input id="link-username" className="w-56" value={username} maxLength={64} onChange={(e) => setUsername(e.target.value)} aria-invalid={invalid && username.trim() === ''} />
        </Field>
        <div className="flex items-center gap-2 pb-2">
          <Checkbox id="link-verified" checked={verified} onCheckedChange={(v) => setVerified(v === true)} />
          <Label htmlFor="link-verified">
            <FormattedMessage id="stats.playerIds.verified" />
          </Label>
        </div>
        <Button type="submit" disabled={link.isPending}>
          <FormattedMessage id="stats.playerIds.link" />
        </Button>
      </form>
      {invalid && <Alert variant="error">{intl.formatMessage({ id: 'stats.playerIds.invalid' })}</Alert>}
      <QueryError error={link.error} />
      {linked && (
        <Alert variant="success">
          <FormattedMessage id="stats.playerIds.linked" values={{ governorId: linked.governorId, username: linked.username }} />
        </Alert>
      )}
      {/* the server names a governor from the scans: no name, no scan has ever held this id (a typing slip, or a farm below the scans' cutoff) */}
      {linked && linked.name === null && (
        <Alert variant="warning">
          <FormattedMessage id="stats.playerIds.unseen" values={{ governorId: linked.governorId }} />
        </Alert>
      )}
      <ConfirmDialogFor
        subject={moving}
        onClose={() => setMoving(null)}
        title={() => intl.formatMessage({ id: 'stats.playerIds.moveTitle' })}
        text={(m) => intl.formatMessage({ id: 'stats.playerIds.moveText' }, m)}
        confirmId="stats.playerIds.move"
        busy={link.isPending}
        onConfirm={() => link.mutate({ confirmed: true })}
      />
    </Card>
  );
}

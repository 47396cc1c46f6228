import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { FormattedMessage, FormattedNumber, useIntl } from 'react-intl';
import { createPointsApi, pointsKeys, type PointsPlayer } from '../../../../api/points';
import { transactionBody } from '../../../../protocol/points';
import { Alert } from '../../../components/alert';
import { QueryError } from '../../../components/query-error';
import { Button } from '../../../components/button';
import { Card, CardTitle } from '../../../components/card';
import { Input } from '../../../components/input';
import { Pagination } from '../../../components/pagination';
import { RankTag } from '../../../components/rank-tag';
import { Table, Td, Th } from '../../../components/table';
import { useApi } from '../../../lib/use-api';
import { cn } from '../../../lib/cn';
import { Field } from '../../../components/field';
import { formErrors } from '../../../lib/form-errors';
import { readWhole } from '../../../lib/numbers';
import { useDebounced } from '../../../lib/use-debounced';
import { useServerText } from '../../../lib/server-text';

type Errors = Partial<Record<'username' | 'delta' | 'reason', string>>;

/** Grant or deduct points for one player, with a required reason; the player's sidebar follows live. */
function ChangeForm({ username, onUsername }: { username: string; onUsername: (u: string) => void }) {
  const intl = useIntl();
  const points = useApi(createPointsApi);
  const queryClient = useQueryClient();
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const say = useServerText();
  const [errors, setErrors] = useState<Errors>({});
  const change = useMutation({
    mutationFn: (body: { username: string; delta: number; reason: string }) => points.change(body),
    onSuccess: () => {
      setAmount('');
      setReason('');
      void queryClient.invalidateQueries({ queryKey: pointsKeys.all });
    },
  });

  function submit(sign: 1 | -1) {
    return (e?: FormEvent) => {
      e?.preventDefault();
      change.reset();
      const n = readWhole(amount, intl.locale);
      const body = { username, delta: sign * n, reason };
      const parsed = transactionBody.safeParse(body);
      // the button gives the sign: "-25" with Deduct would otherwise grant 25
      const noSign: Errors = n < 0 ? { delta: intl.formatMessage({ id: 'points.error.noSign' }) } : {};
      if (!parsed.success || n < 0) {
        setErrors({ ...(parsed.success ? {} : formErrors<keyof Errors>(intl, say, parsed.error.issues)), ...noSign });
        return;
      }
      setErrors({});
      change.mutate(parsed.data);
    };
  }

  const done = change.data;
  return (
    <form noValidate onSubmit={submit(1)} className="grid gap-4" aria-label={intl.formatMessage({ id: 'points.change' })}>
      {done && (
        <Alert variant="success" data-testid="change-done">
          <FormattedMessage
            id={done.transaction.delta > 0 ? 'points.granted' : 'points.deducted'}
            values={{ amount: Math.abs(done.transaction.delta), username: done.transaction.username, balance: done.balance }}
          />
        </Alert>
      )}
      {change.isError && <QueryError error={change.error} />}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="change-username" labelId="points.player" error={errors.username}>
          <Input value={username} onChange={(e) => onUsername(e.target.value)} autoComplete="off" dir="auto" />
        </Field>
        <Field id="change-amount" labelId="points.amount" error={errors.delta}>
          <Input inputMode="numeric" value={amount} onChange={(e) => setAmount(e.target.value)} />
        </Field>
        <div className="sm:col-span-2">
          <Field id="change-reason" labelId="points.reason" error={errors.reason}>
            <Input value={reason} maxLength={200} onChange={(e) => setReason(e.target.value)} dir="auto" />
          </Field>
        </div>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={change.isPending}>
          <FormattedMessage id="points.grant" />
        </Button>
        <Button type="button" variant="danger" disabled={change.isPending} onClick={submit(-1)}>
          <FormattedMessage id="points.deduct" />
        </Button>
      </div>
    </form>
  );
}

function PlayersTable({ players, selected, onSelect, loading }: { players: PointsPlayer[]; selected: string; onSelect: (u: string) => void; loading: boolean }) {
  return (
    <Table minWidth="30rem" loading={loading} columns={5}>
      <thead>
        <tr>
          {['player', 'playerid', 'balance', 'available'].map((c) => (
            <Th key={c}>
              <FormattedMessage id={`points.col.${c}`} />
            </Th>
          ))}
          <Th />
        </tr>
      </thead>
      <tbody className="divide-y divide-border">
        {players.map((p) => (
          <tr key={p.username} className={cn(selected === p.username && 'bg-muted/60')}>
            <Td>
              <span className="flex flex-wrap items-center gap-2">
                <bdi className="font-medium">{p.username}</bdi>
                <RankTag rank={p.rank} />
              </span>
            </Td>
            <Td dir="ltr" className="text-start tabular-nums">{p.playerid}</Td>
            <Td className="tabular-nums">
              <FormattedNumber value={p.balance} />
            </Td>
            <Td className="tabular-nums">
              <FormattedNumber value={p.available} />
              {p.reserved > 0 && (
                <span className="block text-xs text-muted-foreground">
                  <FormattedMessage id="app.reserved" values={{ reserved: <FormattedNumber value={p.reserved} /> }} />
                </span>
              )}
            </Td>
            <Td className="text-end">
              <Button size="sm" variant={selected === p.username ? 'primary' : 'outline'} onClick={() => onSelect(p.username)}>
                <FormattedMessage id="points.select" />
              </Button>
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

/** Find players by name or governor id, then grant or deduct. */
export function PlayersCard() {
  const points = useApi(createPointsApi);
  const intl = useIntl();
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const [username, setUsername] = useState('');
  const query = useDebounced(q);
  const players = useQuery({
    queryKey: pointsKeys.players(query, page),
    queryFn: () => points.players(query, page),
    placeholderData: keepPreviousData,
  });
  const list = players.data?.players ?? [];
  return (
    <Card>
      <CardTitle>
        <FormattedMessage id="points.players" />
      </CardTitle>
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="min-w-0">
          <Input
            type="search"
            value={q}
            onChange={(e) => {
              setQ(e.target.value);
              setPage(1);
            }}
            placeholder={intl.formatMessage({ id: 'points.searchPlaceholder' })}
            aria-label={intl.formatMessage({ id: 'points.search' })}
            className="mb-3"
          />
          {players.isError && <QueryError error={players.error} />}
          {players.isSuccess && list.length === 0 ? (
            <p className="text-sm text-muted-foreground">
              <FormattedMessage id="points.noPlayers" />
            </p>
          ) : (
            <PlayersTable players={list} selected={username} onSelect={setUsername} loading={players.isPending} />
          )}
          {players.data?.total !== undefined && players.data.pageSize !== undefined && (
            <Pagination page={players.data.page ?? page} pageSize={players.data.pageSize} total={players.data.total} onPage={setPage} />
          )}
        </div>
        <div className="min-w-0 xl:border-s xl:border-border xl:ps-6">
          <h3 className="mb-3 font-semibold">
            <FormattedMessage id="points.change" />
          </h3>
          <ChangeForm username={username} onUsername={setUsername} />
        </div>
      </div>
    </Card>
  );
}

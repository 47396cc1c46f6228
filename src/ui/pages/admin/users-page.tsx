import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { Fragment, useState } from 'react';
import { FormattedMessage, FormattedNumber, useIntl } from 'react-intl';
import { adminKeys, createAdminApi, type AdminUser } from '../../../api/admin';
import { RANKS, type Rank } from '../../../protocol/ranks';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Card, CardTitle } from '../../components/card';
import { Input } from '../../components/input';
import { NativeSelect } from '../../components/native-select';
import { Pagination } from '../../components/pagination';
import { RankTag } from '../../components/rank-tag';
import { CardRow, Table, TableHead, Td } from '../../components/table';
import { PageTitle } from '../../components/page-header';
import { CellCaption } from '../../components/stats/cells';
import { useChild } from '../../app-context';
import { useApi } from '../../lib/use-api';
import { Field } from '../../components/field';
import { useDebounced } from '../../lib/use-debounced';
import { usePagedFilter } from '../../lib/use-paged-filter';
import { ConfirmDialogFor } from '../../components/stats/confirm-dialog';
import { ErrorText, QueryError } from '../../components/query-error';
import { Hint } from '../../components/hint';
import { When } from './shared';

type Pending = { kind: 'disable' | 'revoke'; user: AdminUser } | null;

/**
 * Admin → Users: every account with its rank, balance, governor, sign-up and last seen; change a
 * rank, disable or enable an account, sign it out everywhere. Nothing is deleted.
 */
export default function UsersPage({ titleId }: { titleId: string }) {
  const intl = useIntl();
  const admin = useApi(createAdminApi);
  const client = useQueryClient();
  // an admin cannot disable their own account (the server refuses it too)
  const me = useSelector(useChild('auth'), (st) => st.context.user?.username);
  const [page, setPage] = useState(1);
  const [q, setQ] = usePagedFilter('', setPage);
  const [rank, setRank] = usePagedFilter<Rank | ''>('', setPage);
  const [pending, setPending] = useState<Pending>(null);
  const [done, setDone] = useState<string | null>(null);
  const search = useDebounced(q.trim());
  const list = useQuery({
    queryKey: adminKeys.accountsPage({ q: search, rank, page }),
    queryFn: () => admin.accounts({ q: search, rank, page }),
    placeholderData: keepPreviousData,
  });
  const refresh = () => client.invalidateQueries({ queryKey: adminKeys.accounts });
  const changeRank = useMutation({
    mutationFn: ({ username, rank: next }: { username: string; rank: Rank }) => admin.setRank(username, next),
    onSuccess: (user) => {
      setDone(intl.formatMessage({ id: 'admin.users.rankChanged' }, { username: user.username, rank: intl.formatMessage({ id: `rank.${user.rank}` }) }));
      void refresh();
    },
  });
  const enable = useMutation({
    mutationFn: (username: string) => admin.enable(username),
    onSuccess: (user) => {
      setDone(intl.formatMessage({ id: 'admin.users.enabled' }, { username: user.username }));
      void refresh();
    },
  });
  const confirm = useMutation({
    mutationFn: async (action: NonNullable<Pending>) => {
      if (action.kind === 'disable') {
        await admin.disable(action.user.username);
        return intl.formatMessage({ id: 'admin.users.disabledDone' }, { username: action.user.username });
      }
      const { revoked } = await admin.revokeSessions(action.user.username);
      return intl.formatMessage({ id: 'admin.users.revokedDone' }, { username: action.user.username, count: revoked });
    },
    onSuccess: (text) => {
      setPending(null);
      setDone(text);
      void refresh();
    },
  });
  const busy = changeRank.isPending || enable.isPending || confirm.isPending;

  return (
    <div className="grid min-w-0 gap-4">
      <PageTitle titleId={titleId} />
      <Card className="grid min-w-0 gap-3">
        <CardTitle className="mb-0">
          <FormattedMessage id="admin.users.listTitle" />
        </CardTitle>
        <div className="grid gap-3 sm:grid-cols-[minmax(0,24rem)_12rem]">
          <Field id="users-q" labelId="admin.users.search">
            <Input id="users-q" type="search" value={q} maxLength={64} onChange={(e) => setQ(e.target.value)} />
          </Field>
          <Field id="users-rank" labelId="admin.users.rankFilter">
            <NativeSelect id="users-rank" className="w-full" value={rank} onChange={(e) => setRank(e.target.value as Rank | '')}>
              <option value="">{intl.formatMessage({ id: 'admin.users.allRanks' })}</option>
              {RANKS.map((r) => (
                <option key={r} value={r}>
                  {intl.formatMessage({ id: `rank.${r}` })}
                </option>
              ))}
            </NativeSelect>
          </Field>
        </div>
        <QueryError error={list.error ?? changeRank.error ?? enable.error} />
        {done && (
          <Alert variant="success">
            <bdi>{done}</bdi>
          </Alert>
        )}
        {list.data && list.data.users.length === 0 ? (
          <Hint id="admin.users.noMatch" />
        ) : (
          <Table loading={list.isPending} columns={6} minWidth="0" className="max-lg:block">
            <TableHead
              className="max-lg:hidden"
              columns={[
                'admin.users.account',
                'admin.users.governor',
                'admin.users.rank',
                { id: 'admin.users.balance', end: true },
                {
                  id: 'admin.users.signedUp',
                  label: (
                    <>
                      <FormattedMessage id="admin.users.signedUp" />
                      {' · '}
                      <FormattedMessage id="admin.users.lastSeen" />
                    </>
                  ),
                },
                { id: 'admin.users.actions', srOnly: true },
              ]}
            />
            {/* on phones and tablets each account is a card: every action stays on screen */}
            <tbody className="max-lg:grid max-lg:gap-3 lg:divide-y lg:divide-border">
              {list.data?.users.map((user) => (
                <CardRow key={user.username} data-username={user.username} until="lg" className="max-lg:gap-y-1">
                  <Td className="max-lg:col-span-2 max-lg:px-1 lg:max-w-72">
                    <div className="grid min-w-0">
                      <span className="flex flex-wrap items-center gap-2">
                        <bdi className="font-medium [overflow-wrap:anywhere]">{user.username}</bdi>
                        {user.disabled && (
                          <span className="rounded bg-danger/15 px-1.5 py-0.5 text-[11px] font-semibold text-danger">
                            <FormattedMessage id="admin.users.disabled" />
                          </span>
                        )}
                      </span>
                      <bdi className="text-xs text-muted-foreground [overflow-wrap:break-word]">
                        <EmailText email={user.email} />
                      </bdi>
                    </div>
                  </Td>
                  <Td className="max-lg:px-1">
                    <CellCaption id="admin.users.governor" until="lg" />
                    <span dir="ltr" className="tabular-nums">
                      {user.governorId}
                    </span>
                  </Td>
                  <Td className="max-lg:px-1">
                    <CellCaption id="admin.users.rank" until="lg" />
                    {/* (a phone's half-width cell: the select goes under the tag rather than being squeezed unreadable) */}
                    <span className="flex flex-wrap items-center gap-2">
                      <RankTag rank={user.rank} className="lg:hidden" />
                      <NativeSelect
                        aria-label={intl.formatMessage({ id: 'admin.users.rankOf' }, { username: user.username })}
                        className="w-auto min-w-32 max-w-full"
                        value={(RANKS as readonly string[]).includes(user.rank) ? user.rank : ''}
                        disabled={busy}
                        onChange={(e) => changeRank.mutate({ username: user.username, rank: e.target.value as Rank })}
                      >
                        {!(RANKS as readonly string[]).includes(user.rank) && <option value="">{intl.formatMessage({ id: 'rank.unknown' })}</option>}
                        {RANKS.map((r) => (
                          <option key={r} value={r}>
                            {intl.formatMessage({ id: `rank.${r}` })}
                          </option>
                        ))}
                      </NativeSelect>
                    </span>
                  </Td>
                  <Td className="max-lg:px-1 lg:text-end">
                    <CellCaption id="admin.users.balance" until="lg" />
                    <bdi className="tabular-nums">
                      <FormattedNumber value={user.balance} />
                    </bdi>
                  </Td>
                  <Td className="max-lg:col-span-2 max-lg:px-1">
                    <dl className="grid grid-cols-[auto_1fr] gap-x-2 text-xs">
                      <dt className="whitespace-nowrap text-muted-foreground">
                        <FormattedMessage id="admin.users.signedUp" />
                      </dt>
                      <dd>
                        <When at={user.createdAt} />
                      </dd>
                      <dt className="whitespace-nowrap text-muted-foreground">
                        <FormattedMessage id="admin.users.lastSeen" />
                      </dt>
                      <dd>
                        <When at={user.lastSeenAt} />
                      </dd>
                    </dl>
                  </Td>
                  <Td className="max-lg:col-span-2 max-lg:px-1">
                    <div className="flex flex-wrap justify-end gap-2 max-lg:justify-start lg:flex-col lg:items-end [&>button]:whitespace-nowrap">
                      {user.username === me ? null : user.disabled ? (
                        <Button size="sm" variant="outline" disabled={busy} onClick={() => enable.mutate(user.username)}>
                          <FormattedMessage id="admin.users.enable" />
                        </Button>
                      ) : (
                        <Button size="sm" variant="outline" disabled={busy} onClick={() => setPending({ kind: 'disable', user })}>
                          <FormattedMessage id="admin.users.disable" />
                        </Button>
                      )}
                      <Button size="sm" variant="outline" disabled={busy} onClick={() => setPending({ kind: 'revoke', user })}>
                        <FormattedMessage id="admin.users.revoke" />
                      </Button>
                    </div>
                  </Td>
                </CardRow>
              ))}
            </tbody>
          </Table>
        )}
        {list.data && <Pagination page={list.data.page} pageSize={list.data.pageSize} total={list.data.total} onPage={setPage} />}
      </Card>
      <ConfirmDialogFor
        subject={pending}
        onClose={() => {
          setPending(null);
          confirm.reset();
        }}
        title={(p) => intl.formatMessage({ id: p.kind === 'revoke' ? 'admin.users.revokeTitle' : 'admin.users.disableTitle' })}
        text={(p) => (
          <>
            {intl.formatMessage({ id: p.kind === 'revoke' ? 'admin.users.revokeText' : 'admin.users.disableText' }, { username: p.user.username })}
            {confirm.error && (
              <span role="alert" className="mt-2 block text-danger">
                <bdi><ErrorText error={confirm.error} /></bdi>
              </span>
            )}
          </>
        )}
        confirmId={pending?.kind === 'revoke' ? 'admin.users.revoke' : 'admin.users.disable'}
        busy={confirm.isPending}
        onConfirm={(p) => confirm.mutate(p)}
      />
    </div>
  );
}

/**
 * An email that may wrap only before its '@' and its dots, never inside a word (one longer than the
 * cell still breaks rather than widen the page).
 */
function EmailText({ email }: { email: string }) {
  const parts = email.split(/(?=[@.])/);
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  );
}

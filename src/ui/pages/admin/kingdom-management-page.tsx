import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { adminKeys, createAdminApi, type Kingdom } from '../../../api/admin';
import { KINGDOM_CAMP_MAX, KINGDOM_NAME_MAX, KINGDOM_NUMBER_MAX } from '../../../protocol/admin';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Card, CardTitle } from '../../components/card';
import { PageTitle } from '../../components/page-header';
import { Input } from '../../components/input';
import { CardRow, Table, TableHead, Td } from '../../components/table';
import { useApi } from '../../lib/use-api';
import { Field } from '../../components/field';
import { ConfirmDialogFor } from '../../components/stats/confirm-dialog';
import { ErrorText, QueryError } from '../../components/query-error';
import { Hint } from '../../components/hint';

const validNumber = (v: string) => /^\d{1,5}$/.test(v.trim()) && Number(v) >= 1 && Number(v) <= KINGDOM_NUMBER_MAX;

/**
 * Admin → Kingdom Management: the kingdoms the site knows (ours, and the others met in KvK), by
 * number, with a name and a camp; KvK seasons and the scans' kingdom column use them.
 */
export default function KingdomManagementPage({ titleId }: { titleId: string }) {
  const intl = useIntl();
  const admin = useApi(createAdminApi);
  const client = useQueryClient();
  const kingdoms = useQuery({ queryKey: adminKeys.kingdoms, queryFn: () => admin.kingdoms() });
  const refresh = () => client.invalidateQueries({ queryKey: adminKeys.kingdoms });
  const [editing, setEditing] = useState<number | null>(null);
  const [removing, setRemoving] = useState<Kingdom | null>(null);
  const remove = useMutation({
    mutationFn: (k: Kingdom) => admin.removeKingdom(k.number),
    onSuccess: () => {
      setRemoving(null);
      void refresh();
    },
  });
  return (
    <div className="grid min-w-0 gap-4">
      <PageTitle titleId={titleId} />
      <AddKingdom onAdded={refresh} />
      <Card className="grid min-w-0 gap-3">
        <CardTitle className="mb-0">
          <FormattedMessage id="admin.kingdoms.listTitle" />
        </CardTitle>
        <QueryError error={kingdoms.error ?? remove.error} />
        {kingdoms.data && kingdoms.data.length === 0 ? (
          <Hint id="admin.kingdoms.empty" />
        ) : (
          <Table loading={kingdoms.isPending} columns={4} minWidth="0" className="max-md:block md:min-w-[40rem]">
            <TableHead className="max-md:hidden" columns={['admin.kingdoms.number', 'admin.kingdoms.name', 'admin.kingdoms.camp', { id: 'admin.users.actions', srOnly: true }]} />
            <tbody className="max-md:grid max-md:gap-3 md:divide-y md:divide-border">
              {kingdoms.data?.map((k) =>
                editing === k.number ? (
                  <EditRow
                    key={k.number}
                    kingdom={k}
                    onDone={() => {
                      setEditing(null);
                      void refresh();
                    }}
                    onCancel={() => setEditing(null)}
                  />
                ) : (
                  <CardRow key={k.number}>
                    <Td className="max-md:px-1">
                      <span className="flex items-center gap-2">
                        <bdi dir="ltr" className="font-semibold tabular-nums">
                          {k.number}
                        </bdi>
                        {k.ours && (
                          <span className="rounded bg-primary/15 px-1.5 py-0.5 text-[11px] font-semibold text-primary">
                            <FormattedMessage id="admin.kingdoms.ours" />
                          </span>
                        )}
                      </span>
                    </Td>
                    <Td className="max-md:px-1">
                      <bdi className="[overflow-wrap:anywhere]">{k.name}</bdi>
                    </Td>
                    <Td className="max-md:col-span-2 max-md:px-1">
                      <span className="text-xs text-muted-foreground md:hidden">
                        <FormattedMessage id="admin.kingdoms.camp" />:{' '}
                      </span>
                      {k.camp ? <bdi>{k.camp}</bdi> : <span className="text-muted-foreground">—</span>}
                    </Td>
                    <Td className="max-md:col-span-2 max-md:px-1">
                      <div className="flex justify-end gap-2 max-md:justify-start">
                        <Button size="sm" variant="outline" onClick={() => setEditing(k.number)} aria-label={intl.formatMessage({ id: 'admin.kingdoms.editOf' }, { number: k.number })}>
                          <FormattedMessage id="admin.kingdoms.edit" />
                        </Button>
                        <Button size="sm" variant="outline" onClick={() => setRemoving(k)} aria-label={intl.formatMessage({ id: 'admin.kingdoms.removeOf' }, { number: k.number })}>
                          <FormattedMessage id="admin.kingdoms.remove" />
                        </Button>
                      </div>
                    </Td>
                  </CardRow>
                ),
              )}
            </tbody>
          </Table>
        )}
      </Card>
      <ConfirmDialogFor
        subject={removing}
        onClose={() => setRemoving(null)}
        title={() => intl.formatMessage({ id: 'admin.kingdoms.removeTitle' })}
        text={(k) => intl.formatMessage({ id: 'admin.kingdoms.removeText' }, { number: k.number, name: k.name })}
        confirmId="admin.kingdoms.remove"
        busy={remove.isPending}
        onConfirm={(k) => remove.mutate(k)}
      />
    </div>
  );
}

function AddKingdom({ onAdded }: { onAdded: () => void }) {
  const intl = useIntl();
  const admin = useApi(createAdminApi);
  const [number, setNumber] = useState('');
  const [name, setName] = useState('');
  const [camp, setCamp] = useState('');
  const [invalid, setInvalid] = useState(false);
  const add = useMutation({
    mutationFn: () => admin.addKingdom({ number: Number(number), name: name.trim(), camp: camp.trim() }),
    onSuccess: () => {
      setNumber('');
      setName('');
      setCamp('');
      onAdded();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const ok = validNumber(number) && name.trim() !== '';
    setInvalid(!ok);
    if (ok) add.mutate();
  };
  return (
    <Card className="grid min-w-0 gap-3">
      <CardTitle className="mb-0">
        <FormattedMessage id="admin.kingdoms.addTitle" />
      </CardTitle>
      <form className="flex flex-wrap items-end gap-3" onSubmit={submit} noValidate>
        <Field id="kingdom-number" labelId="admin.kingdoms.number">
          <Input id="kingdom-number" inputMode="numeric" dir="ltr" className="w-28" value={number} onChange={(e) => setNumber(e.target.value)} aria-invalid={invalid && !validNumber(number)} />
        </Field>
        <Field id="kingdom-name" labelId="admin.kingdoms.name">
          <Input id="kingdom-name" className="w-56 max-w-full" value={name} maxLength={KINGDOM_NAME_MAX} onChange={(e) => setName(e.target.value)} aria-invalid={invalid && name.trim() === ''} />
        </Field>
        <Field id="kingdom-camp" labelId="admin.kingdoms.camp">
          <Input id="kingdom-camp" className="w-40" value={camp} maxLength={KINGDOM_CAMP_MAX} onChange={(e) => setCamp(e.target.value)} />
        </Field>
        <Button type="submit" disabled={add.isPending}>
          <FormattedMessage id="admin.kingdoms.add" />
        </Button>
      </form>
      {invalid && <Alert variant="error">{intl.formatMessage({ id: 'admin.kingdoms.invalid' }, { max: KINGDOM_NUMBER_MAX })}</Alert>}
      <QueryError error={add.error} />
    </Card>
  );
}

function EditRow({ kingdom, onDone, onCancel }: { kingdom: Kingdom; onDone: () => void; onCancel: () => void }) {
  const intl = useIntl();
  const admin = useApi(createAdminApi);
  const [name, setName] = useState(kingdom.name);
  const [camp, setCamp] = useState(kingdom.camp);
  const save = useMutation({ mutationFn: () => admin.editKingdom(kingdom.number, { name: name.trim(), camp: camp.trim() }), onSuccess: onDone });
  return (
    <CardRow className="max-md:grid-cols-none max-md:gap-2">
      <Td className="max-md:px-1">
        <bdi dir="ltr" className="font-semibold tabular-nums">
          {kingdom.number}
        </bdi>
      </Td>
      <Td className="max-md:px-1">
        <Input aria-label={intl.formatMessage({ id: 'admin.kingdoms.name' })} value={name} maxLength={KINGDOM_NAME_MAX} onChange={(e) => setName(e.target.value)} />
      </Td>
      <Td className="max-md:px-1">
        <Input aria-label={intl.formatMessage({ id: 'admin.kingdoms.camp' })} value={camp} maxLength={KINGDOM_CAMP_MAX} onChange={(e) => setCamp(e.target.value)} />
      </Td>
      <Td className="max-md:px-1">
        <div className="flex flex-wrap justify-end gap-2 max-md:justify-start">
          <Button size="sm" disabled={save.isPending || name.trim() === ''} onClick={() => save.mutate()}>
            <FormattedMessage id="admin.kingdoms.save" />
          </Button>
          <Button size="sm" variant="outline" onClick={onCancel}>
            <FormattedMessage id="stats.cancel" />
          </Button>
        </div>
        {save.error && (
          <p role="alert" className="mt-1 text-xs text-danger">
            <bdi><ErrorText error={save.error} /></bdi>
          </p>
        )}
      </Td>
    </CardRow>
  );
}

import { useMutation } from '@tanstack/react-query';
import { FormattedMessage, FormattedNumber } from 'react-intl';
import { createPointsApi } from '../../../../api/points';
import { Alert } from '../../../components/alert';
import { QueryError } from '../../../components/query-error';
import { Button } from '../../../components/button';
import { Card, CardTitle } from '../../../components/card';
import { Table, Td, Th } from '../../../components/table';
import { useApi } from '../../../lib/use-api';

/** Admin: proves every balance equals its ledger and every reservation the leading bids, or names who does not. */
export function LedgerCheckCard() {
  const points = useApi(createPointsApi);
  const check = useMutation({ mutationFn: () => points.ledgerCheck() });
  const result = check.data;
  return (
    <Card>
      <CardTitle>
        <FormattedMessage id="ledger.title" />
      </CardTitle>
      <p className="mb-4 text-sm text-muted-foreground">
        <FormattedMessage id="ledger.hint" />
      </p>
      <Button variant="outline" disabled={check.isPending} onClick={() => check.mutate()}>
        <FormattedMessage id={check.isPending ? 'ledger.running' : 'ledger.run'} />
      </Button>
      {check.isError && <QueryError error={check.error} className="mt-4" />}
      {result?.ok && (
        <Alert variant="success" className="mt-4">
          <FormattedMessage id="ledger.ok" values={{ accounts: result.accounts }} />
        </Alert>
      )}
      {result && !result.ok && (
        <div className="mt-4 grid gap-3">
          <Alert variant="error">
            <FormattedMessage id="ledger.mismatch" values={{ count: result.mismatches.length, accounts: result.accounts }} />
          </Alert>
          <Table minWidth="36rem">
            <thead>
              <tr>
                {['player', 'balance', 'ledgerSum', 'reserved', 'leadingSum'].map((c) => (
                  <Th key={c}>
                    <FormattedMessage id={`ledger.col.${c}`} />
                  </Th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {result.mismatches.map((m) => (
                <tr key={m.username}>
                  <Td>
                    <bdi className="font-medium">{m.username}</bdi>
                  </Td>
                  {[
                    [m.balance, m.ledgerSum],
                    [m.ledgerSum, m.balance],
                    [m.reserved, m.leadingSum],
                    [m.leadingSum, m.reserved],
                  ].map(([value, other], i) => (
                    <Td key={i} className={value !== other ? 'tabular-nums font-semibold text-danger' : 'tabular-nums'}>
                      <FormattedNumber value={value} />
                    </Td>
                  ))}
                </tr>
              ))}
            </tbody>
          </Table>
        </div>
      )}
    </Card>
  );
}

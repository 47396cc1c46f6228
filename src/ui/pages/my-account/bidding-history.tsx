import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedDate, FormattedMessage, FormattedNumber } from 'react-intl';
import { createStoreOfficeApi, storeOfficeKeys } from '../../../api/store-office';
import { Pagination } from '../../components/pagination';
import { Table, Td, Th } from '../../components/table';
import { useApi } from '../../lib/use-api';
import { QueryError } from '../../components/query-error';

/** The profile's "My Bidding History": the player's won items, newest first, paginated. */
export function BiddingHistory() {
  const storeOffice = useApi(createStoreOfficeApi);
  const [page, setPage] = useState(1);
  const history = useQuery({
    queryKey: storeOfficeKeys.myHistory(page),
    queryFn: () => storeOffice.myHistory(page),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
  if (history.isError) return <QueryError error={history.error} />;
  const { sales, pageSize, total } = history.data ?? { sales: [], pageSize: 0, total: 0 };
  if (history.isSuccess && total === 0) {
    return (
      <p className="text-sm">
        <FormattedMessage id="profile.noWinningBids" />
      </p>
    );
  }
  return (
    <>
      <Table minWidth="28rem" loading={history.isPending} columns={3} skeletonRows={3}>
        <thead>
          <tr>
            {['item', 'price', 'date'].map((c) => (
              <Th key={c}>
                <FormattedMessage id={`profile.history.${c}`} />
              </Th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-border">
          {sales.map((s) => (
            <tr key={s.itemId}>
              <Td dir="auto" className="text-start font-medium">
                {s.itemName}
              </Td>
              <Td className="tabular-nums">
                <FormattedNumber value={s.amount} />
              </Td>
              <Td className="whitespace-nowrap text-xs">
                <FormattedDate value={s.at} year="numeric" month="short" day="numeric" hour="2-digit" minute="2-digit" />
              </Td>
            </tr>
          ))}
        </tbody>
      </Table>
      {history.data && <Pagination page={history.data.page} pageSize={pageSize} total={total} onPage={setPage} />}
    </>
  );
}

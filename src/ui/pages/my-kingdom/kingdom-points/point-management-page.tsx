import { FormattedMessage } from 'react-intl';
import { useRank } from '../../../lib/back-office';
import { BulkImportCard } from './bulk-import-card';
import { LedgerCheckCard } from './ledger-check-card';
import { PlayersCard } from './players-card';
import { TransactionsCard } from './transactions-card';

/** /my-kingdom/kingdom-points/point-management (council, admin; the server checks every call). */
export default function PointManagementPage({ titleId }: { titleId: string }) {
  const rank = useRank();
  return (
    <div className="grid grid-cols-1 gap-4">
      <h1 className="text-2xl font-semibold">
        <FormattedMessage id={titleId} />
      </h1>
      <PlayersCard />
      <BulkImportCard />
      <TransactionsCard />
      {rank === 'admin' && <LedgerCheckCard />}
    </div>
  );
}

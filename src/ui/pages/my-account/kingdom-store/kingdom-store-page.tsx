import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { FormattedDate, FormattedMessage, FormattedNumber, useIntl } from 'react-intl';
import { selectUpcoming, selectUpcomingError } from '../../../../machines/board.machine';
import { useChild } from '../../../app-context';
import { Alert } from '../../../components/alert';
import { Card, CardTitle } from '../../../components/card';
import { FinishedItemRow } from './item-card';
import { ItemDetailsDialog, ItemNameButton } from './item-details';
import { LatestBids } from './latest-bids';
import { LiveGrid } from './live-grid';
import { useItemGroups } from './use-item-groups';
import { WatchStar } from '../watch-star';

const FINISHED_SHOWN = 20;

/** The scheduled items, as the board keeps them: it fetches them while this list is shown and drops each one as it starts or is cancelled. */
function Upcoming() {
  const intl = useIntl();
  const board = useChild('board');
  useEffect(() => {
    board.send({ type: 'UPCOMING_WATCH' });
    return () => board.send({ type: 'UPCOMING_UNWATCH' });
  }, [board]);
  const items = useSelector(board, selectUpcoming);
  const error = useSelector(board, selectUpcomingError);
  if (error !== null) {
    return (
      <p role="alert" className="text-sm text-danger">
        <FormattedMessage id="store.loadFailed" values={{ error }} />
      </p>
    );
  }
  if (items.length === 0) {
    return (
      <p className="text-sm text-muted-foreground">
        <FormattedMessage id="store.noUpcoming" />
      </p>
    );
  }
  return (
    <ul className="divide-y divide-border" aria-label={intl.formatMessage({ id: 'store.upcoming' })}>
      {items.map((it) => (
        <li key={it.itemId} className="grid gap-0.5 py-2 text-sm" data-testid="upcoming-item">
          <span className="flex items-start justify-between gap-2">
            <ItemDetailsDialog phase="scheduled" facts={it} trigger={<ItemNameButton name={it.itemName} className="font-medium" />} />
            <WatchStar itemId={it.itemId} itemName={it.itemName} className="-me-1 -my-1" />
          </span>
          <span className="flex flex-wrap justify-between gap-x-3 text-xs text-muted-foreground">
            <span>
              <FormattedMessage
                id="store.startsAt"
                values={{ time: <FormattedDate value={it.startsAt} month="short" day="numeric" hour="2-digit" minute="2-digit" /> }}
              />
            </span>
            <span className="tabular-nums">
              <FormattedNumber value={it.start_price} />
            </span>
          </span>
        </li>
      ))}
    </ul>
  );
}

/** While the council keeps the store closed, every bid is refused and the auctions are paused: say so up front (live, from the auction socket). */
function StoreClosedNotice() {
  const closed = useSelector(useChild('board'), (s) => s.context.store === 'closed');
  if (!closed) return null;
  return (
    <Alert variant="error">
      <strong className="block font-semibold">
        <FormattedMessage id="store.closed.title" />
      </strong>
      <FormattedMessage id="store.closed.text" />
    </Alert>
  );
}

/** /my-account/kingdom-store: the live board, the 5 latest bids, upcoming and finished items. */
export default function KingdomStorePage({ titleId }: { titleId: string }) {
  const intl = useIntl();
  const board = useChild('board');
  const { live, finished } = useItemGroups(board);
  return (
    <div className="grid grid-cols-1 gap-4">
      <h1 className="text-2xl font-semibold">
        <FormattedMessage id={titleId} />
      </h1>
      <StoreClosedNotice />
      <div className="grid grid-cols-1 gap-4 xl:grid-cols-[minmax(0,1fr)_20rem]">
        <section aria-labelledby="live-title" className="min-w-0">
          <h2 id="live-title" className="mb-3 text-lg font-semibold">
            <FormattedMessage id="store.live" /> <span className="text-muted-foreground">({live.length})</span>
          </h2>
          {live.length === 0 ? (
            <Card>
              <p className="text-sm text-muted-foreground">
                <FormattedMessage id="store.noLive" />
              </p>
            </Card>
          ) : (
            <LiveGrid items={live} />
          )}
        </section>
        <aside className="grid min-w-0 grid-cols-1 content-start gap-4">
          <Card>
            <CardTitle>
              <FormattedMessage id="store.latestBids" />
            </CardTitle>
            <LatestBids />
          </Card>
          <Card>
            <CardTitle>
              <FormattedMessage id="store.upcoming" />
            </CardTitle>
            <Upcoming />
          </Card>
          <Card>
            <CardTitle>
              <FormattedMessage id="store.finished" />
            </CardTitle>
            {finished.length === 0 ? (
              <p className="text-sm text-muted-foreground">
                <FormattedMessage id="store.noFinished" />
              </p>
            ) : (
              <ul className="divide-y divide-border" aria-label={intl.formatMessage({ id: 'store.finished' })}>
                {finished.slice(0, FINISHED_SHOWN).map((item) => (
                  <FinishedItemRow key={item.id} item={item} />
                ))}
              </ul>
            )}
          </Card>
        </aside>
      </div>
    </div>
  );
}

import { useSelector } from '@xstate/react';
import { FormattedMessage, FormattedNumber, FormattedTime, useIntl } from 'react-intl';
import { useChild } from '../../../app-context';

/** The 5 latest bids, newest first. */
export function LatestBids() {
  const intl = useIntl();
  const bids = useSelector(useChild('board'), (s) => s.context.latestBids);
  if (bids.length === 0) {
    return (
      <p className="text-sm text-muted-foreground">
        <FormattedMessage id="store.noBids" />
      </p>
    );
  }
  return (
    <ol className="divide-y divide-border" aria-label={intl.formatMessage({ id: 'store.latestBids' })}>
      {bids.map((bid) => (
        <li key={`${bid.itemId}:${bid.amount}`} className="flex items-baseline justify-between gap-3 py-2 text-sm">
          {/* who, then on what: each on its own line, so a long name never mixes with the other in right-to-left */}
          <span className="min-w-0 wrap-anywhere">
            <span className="block font-medium">
              <bdi>{bid.username}</bdi>
              {bid.auto && (
                <span className="ms-1.5 rounded bg-muted px-1.5 py-0.5 text-xs font-normal text-muted-foreground">
                  <FormattedMessage id="store.autoBid" />
                </span>
              )}
            </span>
            <span className="block text-muted-foreground">
              <bdi>{bid.itemName}</bdi>
            </span>
          </span>
          <span className="shrink-0 text-end">
            <span className="font-semibold tabular-nums">
              <FormattedNumber value={bid.amount} />
            </span>
            <span className="block text-xs text-muted-foreground">
              <FormattedTime value={bid.timestamp} hour="2-digit" minute="2-digit" second="2-digit" />
            </span>
          </span>
        </li>
      ))}
    </ol>
  );
}

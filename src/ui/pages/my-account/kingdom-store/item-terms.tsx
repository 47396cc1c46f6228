import { useSelector } from '@xstate/react';
import { useState, type ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import type { ItemRef } from '../../../../machines/board.machine';
import type { ItemContext } from '../../../../machines/item.machine';
import { checkBid } from '../../../../auction/bid-rule';
import { useChild, useSocketConnected } from '../../../app-context';
import { Button } from '../../../components/button';
import { cn } from '../../../lib/cn';
import { newRequestId } from '../../../lib/request-id';

/**
 * How an item is sold, on its card: the format when it is sealed, whether the reserve is met (only
 * for an item that has one), the buy-now price and a sealed item's count of bids. The board holds
 * all of it (item-fold.ts, board-fold.ts); these parts only read it.
 */

const isSealed = (format: ItemContext['format']) => format !== 'english';

function Tag({ tone, children }: { tone: 'muted' | 'success' | 'warning'; children: ReactNode }) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium',
        tone === 'muted' && 'bg-muted text-muted-foreground',
        tone === 'success' && 'bg-success/15 text-success',
        tone === 'warning' && 'bg-warning/15 text-warning',
      )}
    >
      {children}
    </span>
  );
}

/** The item's terms as tags: its format (when sealed), the reserve's state, the buy-now price. */
export function ItemTerms({ item }: { item: ItemRef }) {
  const format = useSelector(item, (s) => s.context.format);
  const reserveMet = useSelector(item, (s) => s.context.reserveMet);
  const buyNowPrice = useSelector(item, (s) => s.context.buyNowPrice);
  if (!isSealed(format) && reserveMet === null && buyNowPrice === null) return null;
  return (
    <p className="flex flex-wrap gap-1.5">
      {isSealed(format) && (
        <Tag tone="muted">
          <FormattedMessage id={`manage.format.${format}`} />
        </Tag>
      )}
      {reserveMet !== null && (
        <Tag tone={reserveMet ? 'success' : 'warning'}>
          <FormattedMessage id={reserveMet ? 'store.reserveMet' : 'store.reserveNotMet'} />
        </Tag>
      )}
      {buyNowPrice !== null && (
        <Tag tone="muted">
          <FormattedMessage id="store.buyNowPrice" values={{ amount: buyNowPrice }} />
        </Tag>
      )}
    </p>
  );
}

/** A sealed item's facts: how many have bid, never their amounts, and the player's own bid. */
export function SealedFacts({ item }: { item: ItemRef }) {
  const me = useSelector(useChild('auth'), (s) => s.context.user?.username);
  const bids = useSelector(item, (s) => s.context.sealedBids);
  const amount = useSelector(item, (s) => s.context.amount);
  const mine = useSelector(item, (s) => s.context.username === me);
  return (
    <div className="grid gap-1 text-sm">
      <p className="font-semibold">
        <FormattedMessage id="store.sealedBids" values={{ count: bids ?? 0 }} />
      </p>
      <p className="text-xs text-muted-foreground">
        <FormattedMessage id="store.sealedHint" />
      </p>
      {mine && (
        <p className="text-xs font-medium text-primary">
          <FormattedMessage id="store.yourSealedBid" values={{ amount }} />
        </p>
      )}
    </div>
  );
}

/**
 * Buy now: a bid of the buy-now price, which ends the item at once at that price. Asked twice (the
 * button, then a confirmation), since it cannot be taken back. Shown while the amount is below the
 * price and the player may bid it.
 */
export function BuyNow({ item }: { item: ItemRef }) {
  const board = useChild('board');
  const user = useSelector(useChild('auth'), (s) => s.context.user);
  const connected = useSocketConnected('auction');
  const storeOpen = useSelector(board, (s) => s.context.store === 'open');
  const c = useSelector(item, (s) => s.context);
  const [asking, setAsking] = useState(false);
  if (!user || c.buyNowPrice === null || c.format !== 'english' || c.amount >= c.buyNowPrice) return null;
  const price = c.buyNowPrice;
  const me = { username: user.username, rank: user.rank, available: user.available };
  const check = checkBid(price, c, me);
  const canBuy = check.ok && connected && storeOpen;
  if (!asking) {
    return (
      <Button type="button" variant="outline" size="sm" disabled={!canBuy} onClick={() => setAsking(true)}>
        <FormattedMessage id="store.buyNow" values={{ amount: price }} />
      </Button>
    );
  }
  return (
    <div className="flex flex-wrap items-center gap-2 rounded-md border border-primary/40 bg-primary/5 p-2 text-sm">
      <span className="min-w-0 flex-1">
        <FormattedMessage id="store.buyNowConfirm" values={{ amount: price, itemName: <bdi>{c.itemName}</bdi> }} />
      </span>
      <Button
        type="button"
        size="sm"
        disabled={!canBuy}
        onClick={() => {
          board.send({ type: 'PLACE_BID', itemId: c.itemId, amount: price, requestId: newRequestId() });
          setAsking(false);
        }}
      >
        <FormattedMessage id="store.buyNowYes" />
      </Button>
      <Button type="button" size="sm" variant="ghost" onClick={() => setAsking(false)}>
        <FormattedMessage id="store.buyNowNo" />
      </Button>
    </div>
  );
}

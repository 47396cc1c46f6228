import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import type { ItemRef } from '../../../../machines/board.machine';
import { useChild } from '../../../app-context';
import { useBidAbility } from './use-bid-ability';
import { Button } from '../../../components/button';
import { TermTags } from '../../../components/terms';
import { termsOf } from '../../../lib/item-terms';
import { newRequestId } from '../../../lib/request-id';

/**
 * How an item is sold, on its card: the format when it is sealed, whether the reserve is met (only
 * for an item that has one), the buy-now price and a sealed item's count of bids. The board holds
 * all of it (item-fold.ts, board-fold.ts); these parts only read it.
 */

/** The item's terms as tags: its format (when sealed), the reserve's state, the buy-now price. */
export function ItemTerms({ item }: { item: ItemRef }) {
  const format = useSelector(item, (s) => s.context.format);
  const reserveMet = useSelector(item, (s) => s.context.reserveMet);
  const buyNowPrice = useSelector(item, (s) => s.context.buyNowPrice);
  return <TermTags terms={termsOf({ format, reserveMet, buyNowPrice })} className="flex" />;
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
  const ability = useBidAbility(item);
  const c = useSelector(item, (s) => s.context);
  const [asking, setAsking] = useState(false);
  if (!ability || c.buyNowPrice === null || c.format !== 'english' || c.amount >= c.buyNowPrice) return null;
  const { board } = ability;
  const price = c.buyNowPrice;
  const canBuy = ability.check(price).ok && ability.open;
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

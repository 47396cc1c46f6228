import { useSelector } from '@xstate/react';
import { memo } from 'react';
import { FormattedMessage, FormattedNumber } from 'react-intl';
import type { ItemRef } from '../../../../machines/board.machine';
import type { ItemContext } from '../../../../machines/item.machine';
import { useChild } from '../../../app-context';
import { assetUrl } from '../../../lib/back-office';
import { cn } from '../../../lib/cn';
import { formatCountdown } from '../../../lib/use-now';
import { BidBox } from './bid-box';
import { minimumOf } from '../../../../auction/bid-rule';
import { ItemDetailsDialog, ItemNameButton, type ItemFacts } from './item-details';
import { BuyNow, ItemTerms, SealedFacts } from './item-terms';
import { MaxBidBox } from './max-bid-box';
import { useServerNow } from './use-item-groups';
import { WatchStar } from '../watch-star';

const factsOf = (c: ItemContext): ItemFacts => ({
  itemId: c.itemId,
  itemName: c.itemName,
  description: c.description,
  imageUrl: c.imageUrl,
  start_price: c.start_price,
  minIncrement: c.minIncrement,
  endsAt: c.endsAt,
  amount: c.amount,
  username: c.username,
  sold: c.sold,
});

function Countdown({ item }: { item: ItemRef }) {
  const endsAt = useSelector(item, (s) => s.context.endsAt);
  const heldMs = useSelector(item, (s) => s.context.heldMs);
  const closing = useSelector(item, (s) => s.matches({ live: 'closing' }));
  const now = useServerNow();
  // the store is closed: the time left stands still until it opens again
  if (heldMs !== null) {
    return (
      <span>
        <FormattedMessage id="store.paused" values={{ time: <span dir="ltr" className="tabular-nums">{formatCountdown(heldMs)}</span> }} />
      </span>
    );
  }
  const left = endsAt - now;
  if (closing || left <= 0) return <FormattedMessage id="store.closing" />;
  return (
    <>
      <FormattedMessage id="store.endsIn" />{' '}
      <span dir="ltr" className={cn('tabular-nums', left < 60_000 && 'text-danger')}>
        {formatCountdown(left)}
      </span>
    </>
  );
}

function ItemImage({ url, name }: { url: string | null; name: string }) {
  if (!url) {
    return (
      <div aria-hidden="true" className="flex h-14 w-14 shrink-0 items-center justify-center rounded-md bg-muted text-lg font-semibold text-muted-foreground">
        {name.slice(0, 1).toUpperCase()}
      </div>
    );
  }
  return <img src={assetUrl(url)} alt="" loading="lazy" className="h-14 w-14 shrink-0 rounded-md bg-muted object-cover" />;
}

/** Soft close, seen: how a late bid moves the end and, once it has, that it moved and how many extensions are left. */
function SoftClose({ extensions, maxExtensions, extendWindow }: { extensions: number; maxExtensions: number | null; extendWindow: number | null }) {
  if (!extendWindow || !maxExtensions) return null;
  return (
    <p className={cn('text-xs', extensions > 0 ? 'font-medium text-warning' : 'text-muted-foreground')}>
      {extensions > 0 ? (
        <FormattedMessage id="store.extended" values={{ left: Math.max(0, maxExtensions - extensions) }} />
      ) : (
        <FormattedMessage id="store.softClose" values={{ seconds: extendWindow, max: maxExtensions }} />
      )}
    </p>
  );
}

/** One live item: name, image, current amount, leader, countdown, next minimum and the bid box. */
export const LiveItemCard = memo(function LiveItemCard({ item }: { item: ItemRef }) {
  const me = useSelector(useChild('auth'), (s) => s.context.user?.username);
  const c = useSelector(item, (s) => s.context);
  const noBids = c.username === 'server';
  const sealed = c.format !== 'english';
  return (
    <article aria-label={c.itemName} className="flex h-full flex-col gap-3 rounded-lg border border-border bg-card p-4" data-testid="live-item" data-item-id={c.itemId}>
      <div className="flex gap-3">
        <ItemImage url={c.imageUrl} name={c.itemName} />
        <div className="min-w-0 flex-1">
          <h3 className="text-start">
            <ItemDetailsDialog phase="live" facts={factsOf(c)} trigger={<ItemNameButton name={c.itemName} />} />
          </h3>
          <p className="text-xs text-muted-foreground">
            <Countdown item={item} />
          </p>
        </div>
        {typeof c.itemId === 'number' && <WatchStar itemId={c.itemId} itemName={c.itemName} className="-me-1 -mt-1" />}
      </div>
      <ItemTerms item={item} />
      {sealed ? (
        <SealedFacts item={item} />
      ) : (
        <dl className="grid grid-cols-2 gap-2 text-sm">
          <div>
            <dt className="text-xs text-muted-foreground">
              <FormattedMessage id="store.currentBid" />
            </dt>
            <dd className="font-semibold tabular-nums">
              <FormattedNumber value={c.amount} />
            </dd>
          </div>
          <div className="min-w-0">
            <dt className="text-xs text-muted-foreground">
              <FormattedMessage id="store.leader" />
            </dt>
            <dd className="wrap-anywhere">
              {noBids ? <FormattedMessage id="store.noLeader" /> : c.username === me ? <strong><FormattedMessage id="store.you" /></strong> : c.username}
            </dd>
          </div>
        </dl>
      )}
      <p className="text-xs text-muted-foreground">
        <FormattedMessage id="store.nextMin" values={{ amount: minimumOf(c) }} />
      </p>
      {!sealed && <SoftClose extensions={c.extensions} maxExtensions={c.maxExtensions} extendWindow={c.extendWindow} />}
      <div className="mt-auto grid gap-2">
        <BidBox item={item} />
        <BuyNow item={item} />
        <MaxBidBox item={item} />
      </div>
    </article>
  );
});

/** A finished item: winner and price, or not sold. */
export function FinishedItemRow({ item }: { item: ItemRef }) {
  const c = useSelector(item, (s) => s.context);
  return (
    <li className="grid gap-0.5 py-2 text-sm" data-item-id={c.itemId}>
      <ItemDetailsDialog phase="finished" facts={factsOf(c)} trigger={<ItemNameButton name={c.itemName} className="font-medium" />} />
      <span className="text-muted-foreground wrap-anywhere">
        {c.sold ? (
          <FormattedMessage id="store.wonBy" values={{ username: <bdi>{c.username}</bdi>, amount: c.amount }} />
        ) : (
          <FormattedMessage id={c.reserveMet === false ? 'store.reserveNotMetEnd' : 'store.noBuyer'} />
        )}
      </span>
    </li>
  );
}

import { useSelector } from '@xstate/react';
import { useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { ItemRef } from '../../../../machines/board.machine';
import type { ItemContext } from '../../../../machines/item.machine';
import { availableFor, checkBid, minimumOf } from '../../../../auction/bid-rule';
import { useChild, useSocketConnected } from '../../../app-context';
import { Button } from '../../../components/button';
import { Input } from '../../../components/input';
import { cn } from '../../../lib/cn';
import { readWhole } from '../../../lib/numbers';
import { newRequestId } from '../../../lib/request-id';

/**
 * How an item is sold, on its card: the format when it is sealed, whether the reserve is met (only
 * for an item that has one), the buy-now price, a sealed item's count of bids, and the player's
 * own maximum bid. The board holds all of it (item-fold.ts, board-fold.ts); these parts only read it.
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

/**
 * "Bid up to…": the player's maximum bid on an English item. Kingdom bids for them the least that
 * leads, up to it; only they see it. Shows the standing max (raise it, or withdraw it), and says
 * when the server dropped one the player's points could not cover.
 */
export function MaxBidBox({ item }: { item: ItemRef }) {
  const intl = useIntl();
  const board = useChild('board');
  const user = useSelector(useChild('auth'), (s) => s.context.user);
  const connected = useSocketConnected('auction');
  const c = useSelector(item, (s) => s.context);
  const key = String(c.itemId);
  const standing = useSelector(board, (s) => s.context.maxBids[key] ?? null);
  const dropped = useSelector(board, (s) => s.context.maxDropped[key] === true);
  const sending = useSelector(board, (s) => Object.values(s.context.pendingMax).some((p) => String(p.itemId) === key));
  const storeOpen = useSelector(board, (s) => s.context.store === 'open');
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  if (!user || c.format !== 'english') return null;
  const me = { username: user.username, rank: user.rank, available: user.available };
  const leading = c.username === user.username;
  const min = minimumOf(c);
  const max = typed.trim() === '' ? NaN : readWhole(typed, intl.locale);
  const check = typed.trim() === '' ? null : checkBid(max, c, me);
  const canSend = connected && storeOpen && !sending;

  function send(value: number) {
    if (!canSend) return;
    board.send({ type: 'SET_MAX', itemId: c.itemId, max: value, requestId: newRequestId() });
    setTyped('');
  }

  return (
    <div className="grid gap-1.5 text-sm">
      {standing && (
        <p className="flex flex-wrap items-center gap-2 text-xs font-medium">
          <span className={leading ? 'text-success' : 'text-warning'}>
            <FormattedMessage id={leading ? 'store.max.leading' : 'store.max.behind'} values={{ max: standing.max, amount: c.amount }} />
          </span>
          <Button type="button" size="sm" variant="ghost" className="h-6 px-2 text-xs" disabled={!canSend} onClick={() => send(0)}>
            <FormattedMessage id="store.max.withdraw" />
          </Button>
        </p>
      )}
      {dropped && !standing && (
        <p role="alert" className="text-xs text-danger">
          <FormattedMessage id="store.max.dropped" />
        </p>
      )}
      {!open ? (
        <Button type="button" variant="link" size="sm" className="h-auto justify-start text-xs" onClick={() => setOpen(true)}>
          <FormattedMessage id={standing ? 'store.max.raise' : 'store.max.open'} />
        </Button>
      ) : (
        <form
          noValidate
          className="grid gap-1.5"
          onSubmit={(e) => {
            e.preventDefault();
            if (check?.ok) send(max);
          }}
        >
          <div className="flex gap-2">
            <Input
              inputMode="numeric"
              value={typed}
              placeholder={intl.formatNumber(Math.max(min, standing ? standing.max + (c.minIncrement ?? 1) : min))}
              aria-label={intl.formatMessage({ id: 'store.max.label' }, { itemName: c.itemName })}
              aria-invalid={check !== null && !check.ok}
              aria-describedby={`max-hint-${key}`}
              onChange={(e) => setTyped(e.target.value)}
              className="min-w-0"
            />
            <Button type="submit" variant="outline" disabled={!check?.ok || !canSend}>
              <FormattedMessage id={sending ? 'store.sending' : 'store.max.set'} />
            </Button>
          </div>
          <p id={`max-hint-${key}`} className="text-xs text-muted-foreground" role={check && !check.ok ? 'alert' : undefined}>
            {check && !check.ok ? (
              <FormattedMessage id={check.messageId} values={check.values} />
            ) : (
              <FormattedMessage id="store.max.hint" values={{ available: availableFor(c, me) }} />
            )}
          </p>
        </form>
      )}
    </div>
  );
}

import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { FormattedMessage, FormattedNumber, useIntl } from 'react-intl';
import type { ItemRef } from '../../../../machines/board.machine';
import { Button } from '../../../components/button';
import { Input } from '../../../components/input';
import { readWhole } from '../../../lib/numbers';
import { newRequestId } from '../../../lib/request-id';
import { useChild } from '../../../app-context';
import { minimumOf } from '../../../../auction/bid-rule';
import { useBidAbility } from './use-bid-ability';

/**
 * The bid box of one live item: an amount, quick raises, and an explanation before sending. It
 * says why Bid is off: disconnected, the store closed, not a rank the item allows, too low, more
 * than the points available; and when a bid got no answer in time.
 */
export function BidBox({ item }: { item: ItemRef }) {
  const intl = useIntl();
  const board = useChild('board');
  const ability = useBidAbility(item);
  const itemId = useSelector(item, (s) => s.context.itemId);
  const unanswered = useSelector(board, (s) => s.context.unanswered[String(itemId)] ?? null);
  const itemName = useSelector(item, (s) => s.context.itemName);
  // a sealed item's card says the player's own bid itself: nobody knows who leads until the end
  const sealed = useSelector(item, (s) => s.context.format !== 'english');
  const sending = useSelector(board, (s) => Object.values(s.context.pending).some((p) => p.itemId === itemId));
  const [typed, setTyped] = useState('');
  if (!ability) return null;
  const { target, connected, storeOpen, leading } = ability;
  const min = minimumOf(target);
  // what was typed, read as its language writes numbers ("10 000" in French); empty is the minimum
  const amount = typed.trim() === '' ? min : readWhole(typed, intl.locale);
  const check = ability.check(amount);
  const step = target.minIncrement ?? 1;

  const canSend = ability.open && !sending;

  function send(value: number) {
    if (!ability?.check(value).ok || !canSend) return;
    board.send({ type: 'PLACE_BID', itemId, amount: value, requestId: newRequestId() });
    setTyped('');
  }

  return (
    <form
      className="grid gap-2"
      // checkBid is the rule (at least the minimum, any amount above it), not the browser's idea of a number
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        send(amount);
      }}
    >
      {leading && !sealed && (
        <p className="text-xs font-medium text-success">
          <FormattedMessage id="store.check.leading" values={{ amount: target.amount }} />
        </p>
      )}
      <div className="flex gap-2">
        <Input
          inputMode="numeric"
          value={typed}
          placeholder={intl.formatNumber(min)}
          aria-label={intl.formatMessage({ id: 'store.bidAmount' }, { itemName })}
          aria-invalid={!check.ok && typed !== ''}
          onChange={(e) => setTyped(e.target.value)}
          // the arrow keys step by the item's increment, as a number field's would, between the minimum and
          // what the player can bid (from an empty or unreadable field, the first step is the minimum itself)
          onKeyDown={(e) => {
            if (e.key !== 'ArrowUp' && e.key !== 'ArrowDown') return;
            e.preventDefault();
            if (typed.trim() === '' || !Number.isInteger(amount)) return setTyped(String(min));
            const top = Math.max(min, ability.available);
            setTyped(String(Math.min(top, Math.max(min, amount + (e.key === 'ArrowUp' ? step : -step)))));
          }}
          className="min-w-0"
        />
        <Button type="submit" disabled={!check.ok || !canSend}>
          <FormattedMessage id={sending ? 'store.sending' : 'store.bid'} />
        </Button>
      </div>
      <div className="flex flex-wrap gap-1.5">
        {[0, 5, 10].map((times) => {
          const value = min + times * step;
          return (
            <Button key={times} type="button" size="sm" variant="outline" onClick={() => setTyped(String(value))}>
              {times === 0 ? (
                <FormattedMessage id="store.minimum" />
              ) : (
                // "+500" reads left to right on an Arabic page too (not "500+", "500 or more")
                <bdi dir="ltr">
                  +<FormattedNumber value={times * step} />
                </bdi>
              )}
            </Button>
          );
        })}
      </div>
      <p className="text-xs text-muted-foreground" role={check.ok && storeOpen && unanswered === null ? undefined : 'alert'}>
        {!connected ? (
          <FormattedMessage id="store.disconnected" />
        ) : !storeOpen ? (
          <FormattedMessage id="store.check.closed" />
        ) : unanswered !== null && !sending ? (
          <FormattedMessage id="store.bidTimeout" values={{ amount: unanswered }} />
        ) : check.ok ? (
          <FormattedMessage id="store.check.balance" values={{ available: ability.available }} />
        ) : (
          <FormattedMessage id={check.messageId} values={check.values} />
        )}
      </p>
    </form>
  );
}

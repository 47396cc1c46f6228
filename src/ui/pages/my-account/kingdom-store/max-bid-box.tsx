import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import type { ItemRef } from '../../../../machines/board.machine';
import { minimumOf } from '../../../../auction/bid-rule';
import { useChild } from '../../../app-context';
import { Button } from '../../../components/button';
import { Input } from '../../../components/input';
import { readWhole } from '../../../lib/numbers';
import { newRequestId } from '../../../lib/request-id';
import { useBidAbility } from './use-bid-ability';

/**
 * "Bid up to…": the player's maximum bid on an English item. Kingdom bids for them the least that
 * leads, up to it; only they see it. Shows the standing max (raise it, or withdraw it), and says
 * when the server dropped one the player's points could not cover. A max is judged by the bid rule
 * as a bid of that amount would be (at least the next minimum, within the points available).
 */
export function MaxBidBox({ item }: { item: ItemRef }) {
  const intl = useIntl();
  const board = useChild('board');
  const ability = useBidAbility(item);
  const itemId = useSelector(item, (s) => s.context.itemId);
  const itemName = useSelector(item, (s) => s.context.itemName);
  const english = useSelector(item, (s) => s.context.format === 'english');
  const key = String(itemId);
  const standing = useSelector(board, (s) => s.context.maxBids[key] ?? null);
  const dropped = useSelector(board, (s) => s.context.maxDropped[key] === true);
  const sending = useSelector(board, (s) => Object.values(s.context.pendingMax).some((p) => String(p.itemId) === key));
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  if (!ability || !english) return null;
  const { target, leading } = ability;
  const min = minimumOf(target);
  const max = typed.trim() === '' ? NaN : readWhole(typed, intl.locale);
  const check = typed.trim() === '' ? null : ability.check(max);
  const canSend = ability.open && !sending;
  // a max the bid has gone past bids no more: it is shown as passed, to be raised (or left)
  const passed = standing !== null && !leading && standing.max < min;

  function send(value: number) {
    if (!canSend) return;
    board.send({ type: 'SET_MAX', itemId, max: value, requestId: newRequestId() });
    setTyped('');
    setOpen(false);
  }

  return (
    <div className="grid gap-1.5 text-sm">
      {standing && (
        <p className="flex flex-wrap items-center gap-x-2 text-xs font-medium">
          <span className={leading ? 'text-success' : 'text-warning'}>
            <FormattedMessage id={leading ? 'store.max.leading' : passed ? 'store.max.passed' : 'store.max.behind'} values={{ max: standing.max, amount: target.amount }} />
          </span>
          {!passed && (
            <Button
              type="button"
              size="sm"
              variant="link"
              className="h-8 px-0 text-xs"
              disabled={!canSend}
              aria-label={intl.formatMessage({ id: 'store.max.withdrawLabel' }, { itemName })}
              onClick={() => send(0)}
            >
              <FormattedMessage id="store.max.withdraw" />
            </Button>
          )}
        </p>
      )}
      {dropped && !standing && (
        <p role="alert" className="text-xs text-danger">
          <FormattedMessage id="store.max.dropped" />
        </p>
      )}
      {!open ? (
        <Button
          type="button"
          variant="link"
          size="sm"
          className="h-8 justify-self-start px-0 text-xs"
          aria-label={intl.formatMessage({ id: standing ? 'store.max.changeLabel' : 'store.max.openLabel' }, { itemName })}
          onClick={() => setOpen(true)}
        >
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
              placeholder={intl.formatNumber(Math.max(min, standing ? standing.max + (target.minIncrement ?? 1) : min))}
              aria-label={intl.formatMessage({ id: 'store.max.label' }, { itemName })}
              aria-invalid={check !== null && !check.ok}
              aria-describedby={`max-hint-${key}`}
              onChange={(e) => setTyped(e.target.value)}
              className="min-w-0"
            />
            <Button type="submit" variant="outline" className="shrink-0 whitespace-nowrap" disabled={!check?.ok || !canSend}>
              <FormattedMessage id={sending ? 'store.sending' : 'store.max.set'} />
            </Button>
            <Button
              type="button"
              variant="ghost"
              className="shrink-0 whitespace-nowrap px-2"
              onClick={() => {
                setTyped('');
                setOpen(false);
              }}
            >
              <FormattedMessage id="store.buyNowNo" />
            </Button>
          </div>
          <p id={`max-hint-${key}`} className="text-xs text-muted-foreground" role={check && !check.ok ? 'alert' : undefined}>
            {check && !check.ok ? <FormattedMessage id={check.messageId} values={check.values} /> : <FormattedMessage id="store.max.hint" values={{ available: ability.available }} />}
          </p>
        </form>
      )}
    </div>
  );
}

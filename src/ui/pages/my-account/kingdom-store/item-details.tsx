import { useQuery } from '@tanstack/react-query';
import type { ComponentProps, ReactNode } from 'react';
import { FormattedDate, FormattedMessage, FormattedNumber, useIntl } from 'react-intl';
import type { ItemId } from '../../../../protocol/socket';
import { createStoreApi, storeKeys } from '../../../../api/store';
import type { StoreItem } from '../../../../protocol/store';
import { Dialog, DialogContent, DialogDescription, DialogTitle, DialogTrigger } from '../../../components/dialog';
import { assetUrl } from '../../../lib/back-office';
import { cn } from '../../../lib/cn';
import { useApi } from '../../../lib/use-api';

/** What a card knows of its item; the dialog fills the rest (start time, description…) from the store. */
export interface ItemFacts {
  itemId: ItemId;
  itemName: string;
  description: string | null;
  imageUrl: string | null;
  start_price: number | null;
  minIncrement: number | null;
  startsAt?: number | null;
  endsAt: number | null;
  amount?: number;
  username?: string;
  sold?: boolean | null;
}

export type ItemPhase = 'scheduled' | 'live' | 'finished';

/** The store's own record of a board item (the board only has what the socket said). */
function useStoreRecord(itemId: ItemId, phase: ItemPhase, wanted: boolean) {
  const storeApi = useApi(createStoreApi);
  return useQuery({
    queryKey: storeKeys.details(phase, itemId),
    enabled: wanted,
    staleTime: 30_000,
    queryFn: async (): Promise<StoreItem | null> => {
      // a live item cancelled by the council finishes on the board and is "cancelled" in the store
      for (const state of phase === 'finished' ? (['finished', 'cancelled'] as const) : ([phase] as const)) {
        const found = (await storeApi.listItems(state)).find((it) => it.itemId === itemId);
        if (found) return found;
      }
      return null;
    },
  });
}

const nonEmpty = (s: string | null | undefined) => (s && s.trim() !== '' ? s : null);

function Fact({ labelId, children }: { labelId: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted-foreground">
        <FormattedMessage id={labelId} />
      </dt>
      <dd className="font-medium wrap-anywhere">
        {children}
      </dd>
    </div>
  );
}

const when = (ms: number) => <FormattedDate value={ms} year="numeric" month="short" day="numeric" hour="2-digit" minute="2-digit" />;

function DetailsBody({ facts, phase }: { facts: ItemFacts; phase: ItemPhase }) {
  const intl = useIntl();
  const needsStore = phase !== 'scheduled';
  const record = useStoreRecord(facts.itemId, phase, needsStore).data ?? null;
  // the board's live fields win; the store fills what the socket never carried
  const description = nonEmpty(facts.description) ?? nonEmpty(record?.description);
  const imageUrl = nonEmpty(facts.imageUrl) ?? nonEmpty(record?.imageUrl);
  const startsAt = facts.startsAt ?? record?.startsAt ?? null;
  const endsAt = facts.endsAt || record?.endsAt || null;
  const startPrice = facts.start_price ?? record?.start_price ?? null;
  const minIncrement = facts.minIncrement ?? record?.minIncrement ?? null;
  return (
    <>
      <DialogTitle className="text-start">
        <bdi>{facts.itemName}</bdi>
      </DialogTitle>
      {imageUrl && (
        <img
          src={assetUrl(imageUrl)}
          alt={intl.formatMessage({ id: 'store.details.image' }, { itemName: facts.itemName })}
          className="max-h-[60vh] w-full rounded-md bg-muted object-contain"
        />
      )}
      <DialogDescription asChild>
        <p dir="auto" className={cn('whitespace-pre-line text-start wrap-anywhere', description && 'text-foreground')}>
          {description ?? <FormattedMessage id="store.details.noDescription" />}
        </p>
      </DialogDescription>
      <dl className="grid grid-cols-2 gap-3 text-sm">
        <Fact labelId="store.details.startPrice">
          {startPrice === null ? '—' : <FormattedNumber value={startPrice} />}
        </Fact>
        <Fact labelId="store.details.minIncrement">
          {minIncrement === null ? '—' : <FormattedNumber value={minIncrement} />}
        </Fact>
        <Fact labelId="store.details.startsAt">
          {startsAt ? when(startsAt) : '—'}
        </Fact>
        <Fact labelId={phase === 'finished' ? 'store.details.ended' : 'store.details.endsAt'}>
          {endsAt ? when(endsAt) : '—'}
        </Fact>
        {phase === 'live' && facts.amount !== undefined && (
          <>
            <Fact labelId="store.currentBid">
              <FormattedNumber value={facts.amount} />
            </Fact>
            <Fact labelId="store.leader">
              {facts.username === 'server' ? <FormattedMessage id="store.noLeader" /> : <bdi>{facts.username}</bdi>}
            </Fact>
          </>
        )}
        {phase === 'finished' && (
          <div className="col-span-2">
            <Fact labelId="store.details.result">
              {facts.sold ? <FormattedMessage id="store.wonBy" values={{ username: <bdi>{facts.username}</bdi>, amount: facts.amount ?? 0 }} /> : <FormattedMessage id="store.noBuyer" />}
            </Fact>
          </div>
        )}
      </dl>
    </>
  );
}

/**
 * An item's details (full name, description, the image large, start price, increment, times) in
 * a dialog, opened by `trigger`: the item's name on its card or row.
 */
export function ItemDetailsDialog({ facts, phase, trigger }: { facts: ItemFacts; phase: ItemPhase; trigger: ReactNode }) {
  return (
    <Dialog>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent className="max-w-lg gap-4 overflow-y-auto p-5 sm:bottom-auto">
        <DetailsBody facts={facts} phase={phase} />
      </DialogContent>
    </Dialog>
  );
}

/** The item's name as the button that opens its details: wraps, never pushes its row wider. */
export function ItemNameButton({ name, className, ...props }: { name: string; className?: string } & ComponentProps<'button'>) {
  return (
    <button
      type="button"
      className={cn('min-w-0 cursor-pointer text-start font-semibold underline decoration-muted-foreground/40 decoration-dotted underline-offset-4 wrap-anywhere hover:decoration-solid hover:decoration-current focus-visible:outline-2 focus-visible:outline-primary', className)}
      {...props}
    >
      {/* the name keeps its own direction, but sits where the page's reading direction puts it */}
      <bdi>{name}</bdi>
    </button>
  );
}

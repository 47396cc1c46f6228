import type { NoticeKind } from '../../src/protocol/notices';
import type { Db } from '../db/open';
import type { DomainEvent, EventData, EventKind } from '../events/events';
import { watchersOf } from './watches';

/** A notice to make: its owner, kind and cause (unique per account), and what it tells. */
export interface NoticeDraft {
  userId: number;
  kind: NoticeKind;
  cause: string;
  itemId?: number;
  itemName?: string;
  amount?: number;
  data?: Record<string, unknown>;
}

/** The event kinds the notices' reaction handles. */
export const NOTICE_EVENT_KINDS = ['item.started', 'item.sold', 'item.no-buyer', 'item.cancelled', 'points.booked', 'max.exhausted', 'max.dropped'] as const satisfies readonly EventKind[];

/** The notices one event calls for, and the item it ended (its watches go once they are made). */
export async function draftsOf(db: Db, event: DomainEvent): Promise<{ drafts: NoticeDraft[]; ended?: number }> {
  switch (event.kind) {
    case 'item.started': {
      const { itemId } = event.data as EventData['item.started'];
      const item = await db.selectFrom('items').select(['name', 'start_price']).where('id', '=', itemId).executeTakeFirst();
      if (!item) return { drafts: [] };
      // (who started watching once it had started hears nothing of it)
      const watchers = await watchersOf(db, itemId, event.at);
      return { drafts: watchers.map((userId) => ({ userId, kind: 'started', cause: `started:${itemId}`, itemId, itemName: item.name, amount: item.start_price })) };
    }
    case 'item.sold': {
      const { itemId, userId, amount } = event.data as EventData['item.sold'];
      const item = await db.selectFrom('items').select('name').where('id', '=', itemId).executeTakeFirst();
      const bidders = await db.selectFrom('bids').select('user_id').distinct().where('item_id', '=', itemId).where('user_id', '!=', userId).execute();
      const itemName = item?.name;
      return {
        drafts: [
          { userId, kind: 'won', cause: `won:${itemId}`, itemId, itemName, amount },
          ...bidders.map((b) => ({ userId: Number(b.user_id), kind: 'lost' as const, cause: `lost:${itemId}`, itemId, itemName, amount })),
        ],
        ended: itemId,
      };
    }
    case 'item.no-buyer':
    case 'item.cancelled':
      return { drafts: [], ended: (event.data as { itemId: number }).itemId };
    case 'points.booked': {
      const { ledger } = event.data as EventData['points.booked'];
      // (a sale's purchase names no entries: its buyer has the `won` notice)
      if (!ledger) return { drafts: [] };
      const rows = await db
        .selectFrom('points_transactions')
        .select(['user_id', 'kind'])
        .select((eb) => eb.fn.sum<number>('delta').as('delta'))
        .where('id', '>=', ledger[0])
        .where('id', '<=', ledger[1])
        .where('kind', 'in', ['grant', 'deduct', 'automatic'])
        .groupBy(['user_id', 'kind'])
        .execute();
      const sums = new Map<string, NoticeDraft>();
      for (const row of rows) {
        const kind = row.kind === 'automatic' ? 'automatic' : 'points';
        const key = `${kind}:${row.user_id}`;
        const draft = sums.get(key) ?? { userId: Number(row.user_id), kind, cause: `${kind}:${event.id}`, amount: 0 };
        draft.amount = (draft.amount ?? 0) + Number(row.delta);
        sums.set(key, draft);
      }
      return { drafts: [...sums.values()].filter((d) => d.amount !== 0) };
    }
    case 'max.exhausted':
    case 'max.dropped': {
      const { itemId, itemName, userId, max } = event.data as EventData['max.exhausted'];
      const kind = event.kind === 'max.exhausted' ? 'max-exhausted' : 'max-dropped';
      return { drafts: [{ userId, kind, cause: `${kind}:${event.id}`, itemId, itemName, amount: max }] };
    }
    default:
      return { drafts: [] };
  }
}

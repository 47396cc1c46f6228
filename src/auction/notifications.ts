import type { ServerMsg } from '../protocol/socket';
import { isSealedBid, MSG } from '../protocol/socket';

/** A notice for the notification queue (the notifications machine's NotificationInput): locale ids and values. */
export interface NotificationInput {
  kind: 'error' | 'success' | 'info' | 'warning';
  titleId: string;
  textId?: string;
  values?: Record<string, string | number>;
  /** Notices with the same key replace each other in place. */
  key?: string;
}

/**
 * What the player is told about each auction message: titles and texts are locale ids.
 * Error types map to the catalogue; a type this client does not know gets "Unknown Error".
 */
const SYSTEM_ERRORS = new Set(['SYSTEM_ERROR', 'DATABASE_ERROR', 'WS_ERROR', 'JSON_ERROR', 'UNAUTHENTICATED', 'UNKNOWN_ITEM']);

export function errorCatalogue(errorType: string): { titleId: string; textId: string } {
  if (SYSTEM_ERRORS.has(errorType)) return { titleId: 'error.system.title', textId: 'error.system.text' };
  switch (errorType) {
    case 'OUT_OF_BALANCE':
      return { titleId: 'error.outOfBalance.title', textId: 'error.outOfBalance.text' };
    case 'BID_OPEN_ERROR':
      return { titleId: 'error.bid.title', textId: 'error.bidOpen.text' };
    case 'BID_AMOUNT_ERROR':
      return { titleId: 'error.bid.title', textId: 'error.bidAmount.text' };
    case 'SALE_ERROR':
      return { titleId: 'error.sale.title', textId: 'error.sale.text' };
    case 'BID_NOT_ALLOWED':
      return { titleId: 'error.bidNotAllowed.title', textId: 'error.bidNotAllowed.text' };
    default:
      return { titleId: 'error.unknown.title', textId: 'error.unknown.text' };
  }
}

export function notificationFor(msg: ServerMsg): NotificationInput | null {
  switch (msg.type) {
    case MSG.BID_CREATED:
      // (a masked bid on a sealed item names nobody and no amount: no toast)
      if (isSealedBid(msg.data)) return null;
      // one "New Bid!" at a time, showing the latest: a busy auction must not bury the page in toasts
      return { kind: 'info', key: 'new-bid', titleId: 'notify.newBid.title', textId: 'notify.newBid.text', values: { username: msg.data.username, amount: msg.data.amount, itemName: msg.data.itemName } };
    case MSG.OUTBID:
      return { kind: 'warning', titleId: 'notify.outbid.title', textId: 'notify.outbid.text', values: { username: msg.data.username, amount: msg.data.amount, itemName: msg.data.itemName } };
    case MSG.WINNER:
      return { kind: 'success', titleId: 'notify.won.title', textId: 'notify.won.text', values: { amount: msg.data.amount, itemName: msg.data.itemName } };
    case MSG.SALE_COMPLETED:
      return { kind: 'success', titleId: 'notify.saleCompleted.title', textId: 'notify.saleCompleted.text', values: { username: msg.data.username, amount: msg.data.amount, itemName: msg.data.itemName } };
    case MSG.NO_BUYER:
      return { kind: 'warning', titleId: 'notify.saleFailed.title', textId: 'notify.saleFailed.text', values: { itemName: msg.data.itemName } };
    case MSG.ITEM_CANCELLED:
      // not a sale that failed: the council called it off, and the leader's points are free again
      return { kind: 'warning', titleId: 'notify.itemCancelled.title', textId: 'notify.itemCancelled.text', values: { itemName: msg.data.itemName } };
    case MSG.STORE_STATE:
      return msg.data.state === 'closed'
        ? { kind: 'warning', key: 'store-state', titleId: 'store.closed.title', textId: 'store.closed.text' }
        : { kind: 'info', key: 'store-state', titleId: 'notify.storeOpen.title', textId: 'notify.storeOpen.text' };
    case MSG.BIDDING_STARTED:
      return { kind: 'info', titleId: 'notify.biddingStarted.title', textId: 'notify.biddingStarted.text', values: { itemName: msg.data.itemName } };
    case MSG.ERROR:
      return { kind: 'error', ...errorCatalogue(msg.error_type) };
    default:
      return null;
  }
}

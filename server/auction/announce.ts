import { MSG } from '../../src/protocol/socket';
import type { ItemRow } from '../db/schema';
import type { Hub } from '../sockets/hub';
import { toStoreItem } from './wire';

/** BIDDING_STARTED: the whole Item (its rules, eligibility, soft close, image), as HISTORY gives it after a reload. */
export function announceStart(hub: Hub, row: ItemRow, now: number): void {
  hub.broadcast('auction', { type: MSG.BIDDING_STARTED, data: toStoreItem({ ...row, leader_name: null }, now) });
}

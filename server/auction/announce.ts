import { MSG } from '../../src/protocol/socket';
import type { ItemRow } from '../db/schema';
import type { Announcer } from '../sockets/announcer';
import { toStoreItem } from './wire';

/** BIDDING_STARTED: the whole Item (its rules, eligibility, soft close, image), as HISTORY gives it after a reload. */
export function announceStart(to: Announcer, row: ItemRow, now: number): void {
  to.broadcast('auction', { type: MSG.BIDDING_STARTED, data: toStoreItem({ ...row, leader_name: null }, now) });
}

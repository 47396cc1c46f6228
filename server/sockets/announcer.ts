import type { Hub } from './hub';

/**
 * What the engine's parts (bids, settlement, the store's items) and the points service tell the
 * sockets after a commit: frames to everyone or to one account, and an account's new row.
 *
 * Two deployments, two announcers:
 * - alone (SQLite, one process): the hub itself, so a commit is told at once, by the job that made it;
 * - clustered (PostgreSQL, several processes): `clusterAnnouncer`, which tells nothing here. Each
 *   change publishes its event in its own transaction (server/cluster/events.ts); PostgreSQL hands
 *   the events to every process, this one too, in commit order, and each tells its own sockets from
 *   them (AuctionEngine.remote), so every process tells one sequence.
 */
export type Announcer = Pick<Hub, 'broadcast' | 'broadcastExcept' | 'sendToUser' | 'refreshUser'>;

/** Alone: the hub announces each commit as it happens. */
export function localAnnouncer(hub: Hub): Announcer {
  return hub;
}

/** Clustered: announcements travel as published events and are told when they come back (see above). */
export const clusterAnnouncer: Announcer = {
  broadcast: () => undefined,
  broadcastExcept: () => undefined,
  sendToUser: () => undefined,
  refreshUser: () => undefined,
};

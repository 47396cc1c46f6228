/** Ranks on the wire. Anything else a server may send is shown as "unknown". */
export const RANKS = ['user', 'council', 'admin'] as const;
export type Rank = (typeof RANKS)[number];
export type DisplayRank = Rank | 'unknown';

export function displayRank(value: unknown): DisplayRank {
  return (RANKS as readonly unknown[]).includes(value) ? (value as Rank) : 'unknown';
}

/** The My Kingdom group is for any rank other than user (leadership, admin, unknown). */
export function seesKingdomMenu(rank: unknown): boolean {
  return displayRank(rank) !== 'user';
}

/** Kingdom leadership: council and admin (they read every KvK season, with its marks' reasons). */
export function isLeadership(rank: unknown): boolean {
  return rank === 'council' || rank === 'admin';
}

/** The Admin group is for admins only. */
export function seesAdminMenu(rank: unknown): boolean {
  return displayRank(rank) === 'admin';
}

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

/** The Admin group is for admins only. */
export function seesAdminMenu(rank: unknown): boolean {
  return displayRank(rank) === 'admin';
}

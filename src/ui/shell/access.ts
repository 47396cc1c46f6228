import { seesAdminMenu, seesKingdomMenu } from '../../protocol/ranks';

/** My Kingdom pages every signed-in user may open: the KvK Dashboard shows them the published standings. */
const OPEN_TO_PLAYERS = ['/my-kingdom/kvk-dashboard'];

/**
 * Who may open a route: My Account pages every signed-in user, My Kingdom pages any rank
 * other than user (but OPEN_TO_PLAYERS), Admin pages admins only. The server checks every call
 * too; this spares a user forms they cannot submit.
 */
export function mayOpen(path: string, rank: unknown): boolean {
  if (path.startsWith('/admin/')) return seesAdminMenu(rank);
  if (OPEN_TO_PLAYERS.includes(path)) return true;
  if (path.startsWith('/my-kingdom/')) return seesKingdomMenu(rank);
  return true;
}

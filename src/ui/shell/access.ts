import { seesAdminMenu, seesKingdomMenu } from '../../protocol/ranks';

/**
 * Who may open a route: My Account pages every signed-in user, My Kingdom pages any rank
 * other than user, Admin pages admins only. The server checks every call too; this spares a
 * user forms they cannot submit.
 */
export function mayOpen(path: string, rank: unknown): boolean {
  if (path.startsWith('/admin/')) return seesAdminMenu(rank);
  if (path.startsWith('/my-kingdom/')) return seesKingdomMenu(rank);
  return true;
}

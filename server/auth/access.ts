/** Who may call a route. Unknown ranks count as plain users on the server. */
export type Access = 'signed-in' | 'council+admin' | 'admin';

/** Whether a rank has an access: the routes' guards and the domain code that checks a reader ask it alike. */
export function rankAllows(rank: string, access: Access): boolean {
  switch (access) {
    case 'signed-in':
      return true;
    case 'council+admin':
      return rank === 'council' || rank === 'admin';
    case 'admin':
      return rank === 'admin';
  }
}

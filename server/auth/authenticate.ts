import { noteSeen } from '../admin/accounts';
import type { Db } from '../db/open';
import type { UserRow } from '../db/schema';
import { findActiveSession } from './sessions';
import { verifyAccessToken } from './tokens';

export interface AuthContext {
  user: UserRow;
  sessionId: string;
  sessionExpiresAt: number;
}

export type Authenticate = (authorization: string | undefined | null) => Promise<AuthContext | null>;

/** The token of a `Bearer <token>` string (scheme case-insensitive), or null. */
export function bearerToken(authorization: string | undefined | null): string | null {
  if (typeof authorization !== 'string') return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization.trim());
  return match ? match[1] : null;
}

/**
 * Who is asking, from a `Bearer <token>` string: the REST Authorization header and the sockets'
 * AUTHENTICATION frame both come here. A token counts only while its session row exists, is not
 * revoked and has not expired, and its account is not disabled. Each one notes the account as seen
 * (at most one write a minute).
 */
export function createAuthenticator(db: Db, secret: Uint8Array): Authenticate {
  return async (authorization) => {
    const token = bearerToken(authorization);
    if (!token) return null;
    const claims = await verifyAccessToken(secret, token);
    if (!claims) return null;
    const session = await findActiveSession(db, claims.sessionId, claims.userId);
    if (!session) return null;
    const user = await db.selectFrom('users').selectAll().where('id', '=', claims.userId).executeTakeFirst();
    // a disabled account's sessions are revoked with it; this also covers a sign-in racing the disable
    if (!user || user.disabled_at !== null) return null;
    noteSeen(db, user, Date.now());
    return { user, sessionId: session.id, sessionExpiresAt: session.expires_at };
  };
}

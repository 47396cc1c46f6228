import { SignJWT, jwtVerify } from 'jose';

export const TOKEN_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
const ALG = 'HS256';

export interface TokenClaims {
  userId: number;
  sessionId: string;
}

/** HS256 JWT: sub = user id, jti = session id, exp = the session's end. */
export async function signAccessToken(secret: Uint8Array, claims: TokenClaims, expiresAt: number): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: ALG, typ: 'JWT' })
    .setSubject(String(claims.userId))
    .setJti(claims.sessionId)
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt / 1000))
    .sign(secret);
}

/** The claims of a well-signed, unexpired token; null for anything else. */
export async function verifyAccessToken(secret: Uint8Array, token: string): Promise<TokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, secret, { algorithms: [ALG] });
    const userId = Number(payload.sub);
    if (!Number.isSafeInteger(userId) || userId <= 0 || typeof payload.jti !== 'string' || !payload.jti) return null;
    return { userId, sessionId: payload.jti };
  } catch {
    return null;
  }
}

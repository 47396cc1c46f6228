import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const JWT_SECRET_FILE = 'jwt-secret';

/**
 * JWT_SECRET when set; otherwise a random secret made once and kept in DATA_DIR/jwt-secret (mode 600),
 * so tokens survive restarts.
 */
export function loadJwtSecret(dataDir: string, configured: string | null): Uint8Array {
  if (configured) return new TextEncoder().encode(configured);
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, JWT_SECRET_FILE);
  try {
    fs.writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const secret = fs.readFileSync(file, 'utf8').trim();
  if (secret.length < 32) throw new Error(`${file} holds a secret shorter than 32 characters; delete it to have a new one made.`);
  return new TextEncoder().encode(secret);
}

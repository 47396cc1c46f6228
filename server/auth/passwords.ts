import { randomBytes } from 'node:crypto';
import argon2 from 'argon2';
import type { PasswordHashCost } from '../config';

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
  /** Spends the time of a verification without a real hash, so an unknown email answers as slowly as a wrong password. */
  verifyNothing(password: string): Promise<void>;
}

/** argon2id; `cost` is null in production (argon2's defaults) and cheaper only in tests. */
export function createPasswordHasher(cost: PasswordHashCost | null): PasswordHasher {
  const options = { type: argon2.argon2id, ...(cost ?? {}) } as const;
  let dummy: Promise<string> | null = null;
  const hash = (password: string) => argon2.hash(password, options);
  const verify = async (stored: string, password: string) => {
    try {
      return await argon2.verify(stored, password);
    } catch {
      return false;
    }
  };
  return {
    hash,
    verify,
    async verifyNothing(password) {
      dummy ??= hash(randomBytes(16).toString('hex'));
      await verify(await dummy, password);
    },
  };
}

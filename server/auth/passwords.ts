import { randomBytes } from 'node:crypto';
import argon2 from 'argon2';
import type { PasswordHashCost, PasswordHashing } from '../config';

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
  /** Spends the time of a verification without a real hash, so an unknown email answers as slowly as a wrong password. */
  verifyNothing(password: string): Promise<void>;
}

/**
 * Too many hashes are running and waiting: the sign-up, sign-in or password change is refused at
 * once (the HTTP layer answers 503) rather than queued behind a flood.
 */
export class PasswordsBusyError extends Error {
  constructor() {
    super('password hashing is saturated');
    this.name = 'PasswordsBusyError';
  }
}

/**
 * At most `concurrency` jobs at once, at most `queue` more waiting in order; any further job is
 * refused with PasswordsBusyError without starting. argon2 runs in libuv's thread pool (4 threads
 * by default), which jose's token checks and file reads share: a flood of sign-ups must leave them
 * threads, and must not build a queue that makes every sign-in wait for minutes.
 */
export function boundedQueue(limits: PasswordHashing) {
  let running = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    running -= 1;
    const next = waiting.shift();
    if (next) {
      running += 1;
      next();
    }
  };
  return {
    run<T>(job: () => Promise<T>): Promise<T> {
      if (running < limits.concurrency) {
        running += 1;
      } else if (waiting.length < limits.queue) {
        return new Promise<void>((resolve) => waiting.push(resolve)).then(() => job().finally(release));
      } else {
        return Promise.reject(new PasswordsBusyError());
      }
      return job().finally(release);
    },
  };
}

/**
 * Production's argon2id: argon2's default memory (64 MiB) and passes (3), on one lane. argon2's
 * default of four lanes fills both cores of a small server with one hash, so a flood of sign-ups
 * slowed every request (bench:abuse, attack f); one lane keeps a core free for everything else,
 * and 64 MiB × 3 passes is still well above OWASP's minimum for argon2id (19 MiB × 2, one lane).
 * Hashes made before keep their own parameters (stored in the hash) and verify as they are.
 */
export const PRODUCTION_HASH_COST: PasswordHashCost = { memoryCost: 65_536, timeCost: 3, parallelism: 1 };

/** argon2id; `cost` is null in production (PRODUCTION_HASH_COST) and cheaper only in tests. */
export function createPasswordHasher(cost: PasswordHashCost | null, limits: PasswordHashing): PasswordHasher {
  const options = { type: argon2.argon2id, ...(cost ?? PRODUCTION_HASH_COST) } as const;
  const queue = boundedQueue(limits);
  let dummy: Promise<string> | null = null;
  const hash = (password: string) => queue.run(() => argon2.hash(password, options));
  const verify = (stored: string, password: string) =>
    queue.run(async () => {
      try {
        return await argon2.verify(stored, password);
      } catch {
        return false;
      }
    });
  return {
    hash,
    verify,
    async verifyNothing(password) {
      // made outside the queue's budget once (a failed first attempt is tried again next time)
      dummy ??= argon2.hash(randomBytes(16).toString('hex'), options).catch((error: unknown) => {
        dummy = null;
        throw error;
      });
      await verify(await dummy, password);
    },
  };
}

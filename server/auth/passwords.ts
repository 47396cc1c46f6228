import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import argon2 from 'argon2';
import type { PasswordHashCost, PasswordHashing } from '../config';

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
  /** Spends the time of a verification without a real hash, so an unknown email answers as slowly as a wrong password. */
  verifyNothing(password: string): Promise<void>;
  /** Stops the hashing process, if there is one. */
  close(): void;
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

/** Where argon2 runs: this process (libuv's thread pool), or a low-priority process of its own. */
interface Argon2 {
  hash(password: string): Promise<string>;
  verify(stored: string, password: string): Promise<boolean>;
  close(): void;
}

function inProcess(cost: PasswordHashCost): Argon2 {
  const options = { type: argon2.argon2id, ...cost } as const;
  return {
    hash: (password) => argon2.hash(password, options),
    verify: (stored, password) => argon2.verify(stored, password).catch(() => false),
    close: () => undefined,
  };
}

const HASH_CHILD = fileURLToPath(new URL('./hash-child.mjs', import.meta.url));
/** The hashing process's nice value: it gets the CPU when nothing at the default priority wants it. */
const HASH_NICE = 10;

/**
 * argon2 in a child process (hash-child.mjs) at nice HASH_NICE (on a busy 2-core
 * machine the 60 hashes an address may ask for an hour, 200 ms of one core each, were what still
 * slowed every other player; at a low priority they wait for idle CPU instead). Started at the
 * first hash; if it dies, its jobs fail (the caller answers 500 as for any failed hash) and the
 * next job starts a new one; if it cannot start at all, argon2 runs here.
 */
function lowPriorityProcess(cost: PasswordHashCost): Argon2 {
  const here = inProcess(cost);
  let child: { process: ChildProcess; jobs: Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }> } | null = null;
  let failed = false;
  let nextId = 0;
  const start = () => {
    const process = fork(HASH_CHILD, [], { execArgv: [], serialization: 'json', stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    const jobs = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
    const current = { process, jobs };
    const stopped = (why: string) => {
      if (child === current) child = null;
      for (const job of jobs.values()) job.reject(new Error(why));
      jobs.clear();
    };
    process.on('message', (message: { id: number; value?: unknown; error?: string }) => {
      const job = jobs.get(message.id);
      if (!job) return;
      jobs.delete(message.id);
      if (jobs.size === 0) process.channel?.unref();
      if (message.error !== undefined) job.reject(new Error(message.error));
      else job.resolve(message.value);
    });
    process.once('exit', () => stopped('the hashing process stopped'));
    process.once('error', (error) => {
      if (process.pid === undefined) failed = true;
      stopped(error.message);
    });
    if (process.pid !== undefined) {
      try {
        os.setPriority(process.pid, HASH_NICE);
      } catch {
        // not allowed here: it still runs apart from the server's thread pool
      }
    }
    // neither keeps the server's process alive: a pending job refs the channel (below)
    process.unref();
    process.channel?.unref();
    return current;
  };
  const ask = <T>(message: Record<string, unknown>, fallback: () => Promise<T>): Promise<T> => {
    if (failed) return fallback();
    child ??= start();
    const { process, jobs } = child;
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      jobs.set(id, { resolve: resolve as (v: unknown) => void, reject });
      process.channel?.ref();
      process.send({ ...message, id }, (error) => {
        if (!error) return;
        jobs.delete(id);
        reject(error);
      });
    });
  };
  return {
    hash: (password) => ask({ op: 'hash', password, cost }, () => here.hash(password)),
    verify: (stored, password) => ask({ op: 'verify', hash: stored, password }, () => here.verify(stored, password)),
    close: () => {
      child?.process.kill();
      child = null;
    },
  };
}

/**
 * argon2id; `cost` is null in production (PRODUCTION_HASH_COST) and cheaper only in tests. With
 * `limits.lowPriorityProcess` it runs in a child process at a low CPU priority (production), else
 * in libuv's thread pool.
 */
export function createPasswordHasher(cost: PasswordHashCost | null, limits: PasswordHashing): PasswordHasher {
  const argon = (limits.lowPriorityProcess ? lowPriorityProcess : inProcess)(cost ?? PRODUCTION_HASH_COST);
  const queue = boundedQueue(limits);
  let dummy: Promise<string> | null = null;
  const hash = (password: string) => queue.run(() => argon.hash(password));
  const verify = (stored: string, password: string) => queue.run(() => argon.verify(stored, password).catch(() => false));
  return {
    hash,
    verify,
    async verifyNothing(password) {
      // made outside the queue's budget once (a failed first attempt is tried again next time)
      dummy ??= argon.hash(randomBytes(16).toString('hex')).catch((error: unknown) => {
        dummy = null;
        throw error;
      });
      await verify(await dummy, password);
    },
    close: () => argon.close(),
  };
}

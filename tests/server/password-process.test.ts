import fs from 'node:fs';
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { createPasswordHasher, type PasswordHasher } from '../../server/auth/passwords';

/** The hashing processes this process started (Linux: /proc), by pid. */
function hashingChildren(): number[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return ppid === process.pid && fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('hash-child.mjs');
      } catch {
        return false;
      }
    })
    .map(Number);
}

const COST = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

describe('password hashing in a low-priority process', () => {
  let hasher: PasswordHasher | null = null;
  afterEach(() => hasher?.close());

  it('hashes and verifies in a child process at nice 10, not in this one', async () => {
    hasher = createPasswordHasher(COST, { concurrency: 1, queue: 4, lowPriorityProcess: true });
    const before = hashingChildren();
    const hash = await hasher.hash('Right!pass1');
    expect(hash).toMatch(/^\$argon2id\$/);
    expect(await hasher.verify(hash, 'Right!pass1')).toBe(true);
    expect(await hasher.verify(hash, 'Wrong!pass1')).toBe(false);
    expect(await hasher.verify('not a hash', 'Right!pass1')).toBe(false);
    const started = hashingChildren().filter((pid) => !before.includes(pid));
    expect(started).toHaveLength(1);
    expect(os.getPriority(started[0])).toBe(10);
  });

  it('fails the jobs of a hashing process that dies, and starts a new one for the next', async () => {
    hasher = createPasswordHasher(COST, { concurrency: 2, queue: 4, lowPriorityProcess: true });
    const before = hashingChildren();
    await hasher.hash('first');
    const [child] = hashingChildren().filter((pid) => !before.includes(pid));
    // a hash at a cost that takes a while, then the process is killed under it
    const slow = createPasswordHasher({ memoryCost: 65_536, timeCost: 50, parallelism: 1 }, { concurrency: 1, queue: 1, lowPriorityProcess: true });
    try {
      const pending = slow.hash('slow');
      const [slowChild] = hashingChildren().filter((pid) => !before.includes(pid) && pid !== child);
      process.kill(slowChild, 'SIGKILL');
      await expect(pending).rejects.toThrow();
      const again = await slow.verify(await hasher.hash('second'), 'second');
      expect(again).toBe(true);
    } finally {
      slow.close();
    }
  });
});

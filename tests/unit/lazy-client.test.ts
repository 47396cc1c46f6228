import { describe, expect, it, vi } from 'vitest';
import { lazyClient } from '../../src/api/lazy';

describe('lazyClient', () => {
  it('loads the client once, on the first call, and forwards every call with its arguments', async () => {
    const add = vi.fn(async (a: number, b: number) => a + b);
    const load = vi.fn(async () => ({ add, twice: async (x: number) => x * 2 }));
    const client = lazyClient(load);
    expect(load).not.toHaveBeenCalled();
    expect(await client.add(2, 3)).toBe(5);
    expect(await client.twice(4)).toBe(8);
    expect(load).toHaveBeenCalledTimes(1);
    expect(add).toHaveBeenCalledWith(2, 3);
  });

  it('passes a failing call on as a rejection', async () => {
    const client = lazyClient(async () => ({ fail: async () => Promise.reject(new Error('400 Bad Request')) }));
    await expect(client.fail()).rejects.toThrow('400 Bad Request');
  });
});

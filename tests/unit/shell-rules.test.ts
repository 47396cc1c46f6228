import { describe, expect, it } from 'vitest';
import { isUnreachable } from '../../src/ui/lib/unreachable';
import { PROTECTED_ROUTES } from '../../src/ui/routes';
import { mayOpen } from '../../src/ui/shell/access';

describe('mayOpen (who may open a route)', () => {
  it('My Account pages and the KvK Dashboard (published standings): every rank; the rest of My Kingdom: any rank but user; Admin: admins only', () => {
    const table = PROTECTED_ROUTES.map(({ path }) => [path, ['user', 'council', 'admin', 'warlord', undefined].map((rank) => mayOpen(path, rank))]);
    for (const [path, allowed] of table) {
      if (String(path).startsWith('/my-account/') || path === '/my-kingdom/kvk-dashboard') expect(allowed, String(path)).toEqual([true, true, true, true, true]);
      else if (String(path).startsWith('/my-kingdom/')) expect(allowed, String(path)).toEqual([false, true, true, true, true]);
      else expect(allowed, String(path)).toEqual([false, false, true, false, false]);
    }
    expect(table.some(([path]) => String(path).startsWith('/admin/'))).toBe(true);
  });
});

describe('isUnreachable (Disconnected rather than the 500 text)', () => {
  it.each([
    new TypeError('Failed to fetch'),
    new TypeError('Failed to fetch dynamically imported module: http://x/assets/page.js'),
    new TypeError('NetworkError when attempting to fetch resource.'),
    new TypeError('Load failed'),
    new TypeError('Importing a module script failed.'),
    new Error('Unable to preload CSS for /assets/page.css'),
    Object.assign(new Error('Request timed out: GET http://x/kingdom/settings'), { name: 'TimeoutError' }),
  ])('%s: the server is out of reach', (error) => {
    expect(isUnreachable(error)).toBe(true);
  });

  it.each([
    new TypeError("Cannot read properties of undefined (reading 'map')"),
    new Error('You are not allowed to do this.'),
    'Failed to fetch',
    null,
  ])('%s: not a reachability problem', (error) => {
    expect(isUnreachable(error)).toBe(false);
  });
});

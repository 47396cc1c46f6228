import { describe, expect, it } from 'vitest';
import { passwordScore } from '../../src/ui/lib/password-score';
import { isSubmenu, menuFor } from '../../src/ui/shell/menu';
import { HOME_PATH, PROTECTED_ROUTES, landingPath } from '../../src/ui/routes';

describe('landingPath (after sign-in)', () => {
  it('goes to the profile when nothing, /, empty or /signin was requested', () => {
    for (const p of [null, '', '/', '/signin', '/signin?x=1', '/signup']) expect(landingPath(p)).toBe(HOME_PATH);
  });
  it('goes to the requested address, with its query', () => {
    expect(landingPath('/my-kingdom/metrics?range=30')).toBe('/my-kingdom/metrics?range=30');
    expect(landingPath('/admin/users')).toBe('/admin/users');
  });
  it('never leaves the site', () => {
    expect(landingPath('//evil.example/x')).toBe(HOME_PATH);
    expect(landingPath('https://evil.example/')).toBe(HOME_PATH);
  });
});

const paths = (rank: unknown) =>
  menuFor(rank).flatMap((g) => g.entries.flatMap((e) => (isSubmenu(e) ? e.children.map((c) => c.path) : [e.path])));

describe('menuFor (menu visibility by rank)', () => {
  it('user: My Account only', () => {
    expect(menuFor('user').map((g) => g.id)).toEqual(['account']);
    expect(paths('user')).toEqual(['/my-account/profile', '/my-account/kingdom-store', '/my-account/notices']);
  });
  it('council and unknown ranks: My Account and My Kingdom', () => {
    expect(menuFor('council').map((g) => g.id)).toEqual(['account', 'kingdom']);
    expect(menuFor('emperor').map((g) => g.id)).toEqual(['account', 'kingdom']);
    expect(menuFor(undefined).map((g) => g.id)).toEqual(['account', 'kingdom']);
  });
  it('admin: all three groups', () => {
    expect(menuFor('admin').map((g) => g.id)).toEqual(['account', 'kingdom', 'admin']);
  });
  it('every menu link is a protected route, and every route with a menu link is in a menu', () => {
    const routes = new Set(PROTECTED_ROUTES.map((r) => r.path));
    const linked = paths('admin');
    for (const p of linked) expect(routes.has(p)).toBe(true);
    const notInMenu = ['/my-account/account-settings', '/my-account/groups', '/admin/bot/console', '/my-kingdom/governors/:governorId'];
    for (const r of routes) if (!notInMenu.includes(r)) expect(linked).toContain(r);
    expect(routes.size).toBe(25);
  });
});

describe('passwordScore', () => {
  it('rises with classes and length', () => {
    expect(passwordScore('')).toBe(0);
    expect(passwordScore('abcdefgh')).toBe(0);
    expect(passwordScore('Ab1!')).toBe(1); // all classes but too short
    expect(passwordScore('Abcdefgh')).toBe(1);
    expect(passwordScore('Abcdefg1')).toBe(2);
    expect(passwordScore('Abcdefg1!')).toBe(3);
    expect(passwordScore('Abcdefgh1!xyz')).toBe(4);
  });
});

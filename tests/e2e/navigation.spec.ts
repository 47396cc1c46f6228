import { expect, test } from '@playwright/test';
import { acceptCookies, accountWithRank, connection, register, signIn } from './support';

test.beforeEach(async ({ page }) => acceptCookies(page));

test('/ sends an anonymous visitor to /signin', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/signin$/);
});

test('a protected path sends an anonymous visitor to /signin, and sign-in returns to it', async ({ page }) => {
  const account = await register();
  await page.goto('/my-kingdom/metrics?range=30');
  await expect(page).toHaveURL(/\/signin$/);
  await page.getByLabel('Email', { exact: true }).fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/my-kingdom\/metrics\?range=30$/);
});

test('a signed-in user: / goes to the profile, /signin and /signup go to /', async ({ page }) => {
  const account = await register();
  await signIn(page, account);
  await expect(page).toHaveURL(/\/my-account\/profile$/);
  await page.goto('/');
  await expect(page).toHaveURL(/\/my-account\/profile$/);
  await page.goto('/signin');
  await expect(page).toHaveURL(/\/my-account\/profile$/);
  await page.goto('/signup');
  await expect(page).toHaveURL(/\/my-account\/profile$/);
});

test('an unknown path shows the 404 page with Go to Home', async ({ page }) => {
  await signIn(page, await register());
  await expect(page).toHaveURL(/\/my-account\/profile$/);
  await page.goto('/no/such/page');
  await expect(page.getByText('Oops, an error has occurred. Page not found!')).toBeVisible();
  await page.getByRole('link', { name: 'Go to Home' }).click();
  await expect(page).toHaveURL(/\/my-account\/profile$/);
});

const KINGDOM = ['Dashboard', 'KvK Dashboard', 'Metrics', 'Kingdom Points', 'Migrant Dashboard', 'Kingdom Settings'];
const ADMIN = ['Admin Dashboard', 'KvK Management', 'Kingdom Management', 'Player IDs', 'Alliances', 'Servers', 'Scans', 'Users'];

const RANK_MENUS: ['user' | 'council' | 'admin', string, string[]][] = [
  ['user', 'User', ['account']],
  ['council', 'Council', ['account', 'kingdom']],
  ['admin', 'Admin', ['account', 'kingdom', 'admin']],
];
for (const [rank, tag, groups] of RANK_MENUS) {
  test(`menus for a ${rank}: ${groups.join(', ')}; name, rank tag and balance in the sidebar`, async ({ page }) => {
    const account = await accountWithRank(rank);
    await signIn(page, account);
    const sidebar = page.getByRole('complementary', { name: 'Sidebar', exact: true });
    await expect(sidebar.getByText(account.username, { exact: true })).toBeVisible();
    await expect(sidebar.locator('[data-rank]')).toHaveText(tag, { ignoreCase: true });
    await expect(sidebar.getByText(/ kingdom points$/)).toHaveText('0 kingdom points');
    await expect(sidebar.locator('[data-menu-group]')).toHaveCount(groups.length);
    await expect(sidebar.getByRole('link', { name: 'Profile' })).toBeVisible();
    await expect(sidebar.getByRole('link', { name: 'Kingdom Store' })).toBeVisible();
    for (const label of KINGDOM) await expect(sidebar.getByText(label, { exact: true })).toHaveCount(groups.includes('kingdom') ? 1 : 0);
    for (const label of ADMIN) await expect(sidebar.getByText(label, { exact: true })).toHaveCount(groups.includes('admin') ? 1 : 0);
  });
}

test('submenus open and lead to their pages, every one of them built', async ({ page }) => {
  await signIn(page, await accountWithRank('admin'));
  const sidebar = page.getByRole('complementary', { name: 'Sidebar', exact: true });
  await sidebar.getByText('Kingdom Settings', { exact: true }).click();
  await sidebar.getByRole('link', { name: 'Automatic Points' }).click();
  await expect(page).toHaveURL(/\/my-kingdom\/kingdom-points\/automatic-points$/);
  await expect(page.getByRole('heading', { name: 'Automatic Points' })).toBeVisible();
  await expect(page.getByText('This page is not built yet.')).toHaveCount(0);
  await sidebar.getByText('Servers', { exact: true }).click();
  await sidebar.getByRole('link', { name: 'Monitor' }).click();
  await expect(page).toHaveURL(/\/admin\/bot\/monitor$/);
});

test('the top bar shows Connected once both sockets are authenticated', async ({ page }) => {
  await signIn(page, await register());
  await expect(connection(page)).toHaveText('Connected');
});

test('below 992 px the sidebar is a drawer that closes on navigation', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await signIn(page, await register());
  await expect(page.getByRole('complementary', { name: 'Sidebar', exact: true })).toBeHidden();
  await page.getByRole('button', { name: 'Open menu', exact: true }).click();
  const drawer = page.getByRole('dialog', { name: 'Kingdom', exact: true });
  await expect(drawer).toBeVisible();
  await drawer.getByRole('link', { name: 'Kingdom Store' }).click();
  await expect(page).toHaveURL(/\/my-account\/kingdom-store$/);
  await expect(drawer).toBeHidden();
});

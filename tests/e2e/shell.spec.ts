import { expect, test, type Page, type Route } from '@playwright/test';
import { ADMIN, BASE_URL, acceptCookies, accountWithRank, api, connection, dataRows, exactly, sidebar, signIn, tokenOf, uniqueTag } from './support';

test.beforeEach(async ({ page }) => acceptCookies(page));

/** Holds the requests matching `url` until release() is called: the page stays in its loading state meanwhile. */
async function hold(page: Page, url: string | RegExp | ((url: URL) => boolean)) {
  const held: Route[] = [];
  let arrived!: () => void;
  const first = new Promise<void>((resolve) => (arrived = resolve));
  let released = false;
  await page.route(url, (route) => {
    if (released) return route.continue();
    held.push(route);
    arrived();
  });
  return {
    arrived: first,
    release: async () => {
      released = true;
      await Promise.all(held.splice(0).map((route) => route.continue()));
    },
  };
}

test.describe('the server out of reach keeps the shell', () => {
  test('a page whose code cannot load shows Disconnected and a Retry in the content area, and Retry loads it', async ({ page }) => {
    await signIn(page, ADMIN);
    await expect(sidebar(page).getByText(ADMIN.username, { exact: true })).toBeVisible();
    // the server goes away: no code, no data
    await page.route(`${BASE_URL}/assets/**`, (route) => route.abort('connectionrefused'));
    await sidebar(page).getByRole('link', { name: 'Kingdom Store' }).click();

    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { name: 'Disconnected' })).toBeVisible();
    await expect(main.getByText('The server cannot be reached. Check your connection, then try again.')).toBeVisible();
    // the shell stays: sidebar, connection indicator, user
    await expect(sidebar(page)).toBeVisible();
    await expect(connection(page)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Sorry, server goes wrong' })).toHaveCount(0);

    // back: Retry loads the page's code again
    await page.unroute(`${BASE_URL}/assets/**`);
    await main.getByRole('button', { name: 'Retry' }).click();
    await expect(main.getByRole('heading', { name: 'Kingdom Store', level: 1 })).toBeVisible();
    await expect(main.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  });

  test('a list that cannot be fetched shows Disconnected and a Retry where its data would be', async ({ page }) => {
    const account = await accountWithRank('user');
    await signIn(page, account);
    await page.route(`${BASE_URL}/account/groups`, (route) => route.abort('connectionrefused'));
    await page.goto('/my-account/groups');

    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { name: 'Disconnected' })).toBeVisible();
    await expect(sidebar(page)).toBeVisible();

    await page.unroute(`${BASE_URL}/account/groups`);
    await main.getByRole('button', { name: 'Retry' }).click();
    await expect(main.getByRole('heading', { name: 'Groups', level: 1 })).toBeVisible();
    await expect(main.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  });
});

test.describe('routes above the rank', () => {
  test('a plain user gets an access-denied page, not the back office’s forms', async ({ page }) => {
    const account = await accountWithRank('user');
    await signIn(page, account);
    for (const path of ['/my-kingdom/kingdom-points/store-management', '/my-kingdom/settings', '/admin/users']) {
      await page.goto(path);
      const main = page.getByRole('main');
      await expect(main.getByRole('heading', { name: 'Access denied' })).toBeVisible();
      await expect(main.getByText('Your rank does not give access to this page.')).toBeVisible();
      await expect(main.getByRole('textbox')).toHaveCount(0);
      await expect(sidebar(page)).toBeVisible();
    }
    // their own pages open as before
    await page.goto('/my-account/kingdom-store');
    await expect(page.getByRole('main').getByRole('heading', { name: 'Kingdom Store', level: 1 })).toBeVisible();
  });

  test('council opens My Kingdom pages but not Admin ones; the page speaks the user’s language', async ({ page }) => {
    const account = await accountWithRank('council');
    await signIn(page, account);
    await page.goto('/my-kingdom/settings');
    await expect(page.getByRole('main').getByLabel('Kingdom name', { exact: true })).toBeVisible();
    await page.goto('/admin/scans');
    await expect(page.getByRole('main').getByRole('heading', { name: 'Access denied' })).toBeVisible();

    await page.getByRole('combobox', { name: 'Language' }).selectOption('ar');
    await expect(page.getByRole('main').getByRole('heading', { name: 'تم رفض الوصول' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  });
});

test('the kingdom’s name saved in Settings shows in the brand and the tab title', async ({ page }) => {
  const admin = await tokenOf(ADMIN);
  const before = (await api<{ settings: { kingdomName: string } }>('kingdom/settings', undefined, admin, 'GET')).settings.kingdomName;
  const name = `Ember Vale ${uniqueTag()}`;
  try {
    await signIn(page, ADMIN);
    await page.goto('/my-kingdom/settings');
    await page.getByLabel('Kingdom name').fill(name);
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'The settings were saved.' })).toBeVisible();
    await expect(sidebar(page).getByRole('link', { name: exactly(`${name} Kingdom`) })).toContainText(name);
    await expect(page).toHaveTitle(`${name} · Kingdom`);

    // every signed-in user sees it, after a reload too
    const player = await accountWithRank('user');
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(/\/signin$/);
    // the sign-in and sign-up pages show it too (read without signing in), "Kingdom" under it in the reader's language
    await expect(page.getByTestId('brand')).toHaveText(`${name}Kingdom`);
    await page.getByRole('link', { name: 'Sign Up' }).click();
    await expect(page.getByTestId('brand')).toHaveText(`${name}Kingdom`);
    await page.getByRole('combobox', { name: 'Language', exact: true }).selectOption('ar');
    await expect(page.getByTestId('brand')).toHaveText(`${name}المملكة`);
    await page.getByRole('combobox', { name: 'اللغة', exact: true }).selectOption('en');
    await signIn(page, player);
    await expect(sidebar(page).getByRole('link', { name: exactly(`${name} Kingdom`) })).toContainText(name);
    await expect(page).toHaveTitle(`${name} · Kingdom`);
  } finally {
    await api('kingdom/settings', { kingdomName: before }, admin);
  }
});

test.describe('loading', () => {
  test('a table that is loading shows skeleton rows under its headers, then its rows', async ({ page }) => {
    await signIn(page, ADMIN);
    const list = await hold(page, (url) => url.pathname === '/points/transactions');
    await page.goto('/my-kingdom/kingdom-points/point-management');
    await list.arrived;
    const table = page.getByRole('table', { name: 'Transactions', exact: true });
    await expect(table.getByRole('columnheader').first()).toBeVisible();
    await expect(table.getByRole('rowgroup', { name: 'Loading…', exact: true }).getByRole('row')).toHaveCount(5);
    await expect(table).toHaveAttribute('aria-busy', 'true');
    await list.release();
    await expect(dataRows(table).or(page.getByText('There is no transaction yet.', { exact: true })).first()).toBeVisible();
    await expect(page.getByRole('rowgroup', { name: 'Loading…', exact: true })).toHaveCount(0);
  });

  test('one loader from sign-in to the first page', async ({ page }) => {
    // every loader the page ever shows, in order
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { loadersSeen: string[] }).loadersSeen = seen;
      new MutationObserver(() => {
        for (const id of ['full-page-loader', 'page-loading']) {
          const shown = !!document.querySelector(`[data-testid="${id}"]`);
          if (shown && seen.at(-1) !== id) seen.push(id);
        }
      }).observe(document, { childList: true, subtree: true });
    });
    const account = await accountWithRank('user');
    await page.goto('/signin');
    await page.getByLabel('Email', { exact: true }).fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    const me = await hold(page, `${BASE_URL}/auth/me`);
    await page.getByRole('button', { name: 'Login' }).click();
    await me.arrived;
    await expect(page.getByRole('status').filter({ hasText: 'Loading…' })).toBeVisible();
    await me.release();
    await expect(sidebar(page).getByText(account.username, { exact: true })).toBeVisible();
    await expect(page.getByRole('main').getByRole('heading', { level: 1 }).first()).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Loading…' })).toHaveCount(0);
    const seen = await page.evaluate(() => (window as unknown as { loadersSeen: string[] }).loadersSeen);
    expect(seen.filter((id) => id === 'page-loading')).toEqual([]);
    expect(seen).toContain('full-page-loader');
  });
});

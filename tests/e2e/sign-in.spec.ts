import { expect, test, type Route } from '@playwright/test';
import { ADMIN, BASE_URL, acceptCookies, api, newAccount, register, sidebar, signIn, tokenOf } from './support';

test.describe('with the cookie banner accepted', () => {
  test.beforeEach(async ({ page }) => acceptCookies(page));

  test('without "remember me", a second tab of the same browser is signed in too, and signing out signs out both', async ({ context, page }) => {
    const account = await register();
    await signIn(page, account, { remember: false });
    await expect(sidebar(page).getByText(account.username, { exact: true })).toBeVisible();
    // "remember me" off still means nothing is kept past the browser's session
    expect(await page.evaluate(() => localStorage.getItem('kingdom.token'))).toBeNull();
    const session = (await context.cookies(BASE_URL)).find((c) => c.name === 'kingdom_session');
    expect(session?.expires).toBe(-1);

    const second = await context.newPage();
    await second.goto('/my-account/kingdom-store');
    await expect(sidebar(second).getByText(account.username, { exact: true })).toBeVisible();
    await expect(second).toHaveURL(/\/my-account\/kingdom-store$/);

    await second.getByRole('button', { name: 'Account menu' }).click();
    await second.getByRole('button', { name: 'Logout' }).click();
    await second.waitForURL(/\/signin$/);
    await page.waitForURL(/\/signin$/);
    await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
    // a sign-out, not an ended session, in the other tab too (whether its socket or the other tab told it first)
    await expect(page.getByTestId('session-ended')).toHaveCount(0);
  });

  test('a session an administrator ends sends the open page to Sign In, which says why; signing in again, then out, says nothing', async ({ page }) => {
    const account = await register();
    await signIn(page, account);
    await expect(sidebar(page).getByText(account.username, { exact: true })).toBeVisible();
    const ended = page.getByRole('status').filter({ hasText: 'Your session has ended: it expired, or it was closed on another device or by an administrator. Sign in again to continue.' });
    await expect(ended).toHaveCount(0);

    await api(`accounts/${encodeURIComponent(account.username)}/revoke-sessions`, {}, await tokenOf(ADMIN));
    await page.waitForURL((url) => url.pathname.startsWith('/signin'));
    await expect(ended).toBeVisible();

    await page.getByLabel('Email', { exact: true }).fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/signin'));
    await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
    await expect(ended).toHaveCount(0);
  });

  test('the Login button is busy while signing in: a spinner and "Signing in…"', async ({ page }) => {
    const account = await register();
    const held: Route[] = [];
    let arrived!: () => void;
    const loginSent = new Promise<void>((resolve) => (arrived = resolve));
    await page.route(`${BASE_URL}/auth/login`, (route) => {
      held.push(route);
      arrived();
    });
    await page.goto('/signin');
    await page.getByLabel('Email', { exact: true }).fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await loginSent;
    const busy = page.getByRole('button', { name: 'Signing in…' });
    await expect(busy).toBeVisible();
    await expect(busy).toBeDisabled();
    await expect(busy).toHaveAttribute('aria-busy', 'true');
    await Promise.all(held.map((route) => route.continue()));
    await page.waitForURL(/\/my-account\/profile$/);
  });

  test('a successful sign-up offers Sign In as the next step', async ({ page }) => {
    const account = newAccount('next');
    await page.goto('/signup');
    await page.getByLabel('Username', { exact: true }).fill(account.username);
    await page.getByLabel('Governor ID', { exact: true }).fill(account.playerid);
    await page.getByLabel('Email', { exact: true }).fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByLabel('Confirm Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    const success = page.getByRole('status').filter({ hasText: 'Your account has been created' });
    await expect(success).toContainText('Your account has been created');
    await expect(success).toContainText('You can now sign in.');
    await success.getByRole('link', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/signin$/);
    await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
  });

  test('the strength meter gives no verdict on an empty password', async ({ page }) => {
    await page.goto('/signup');
    const meter = page.getByRole('meter', { name: 'Password strength', exact: true });
    await expect(meter).toBeVisible();
    await expect(meter).not.toContainText('Too weak');
    await page.getByLabel('Password', { exact: true }).fill('a');
    await expect(meter).toContainText('Too weak');
    await page.getByLabel('Password', { exact: true }).fill('');
    await expect(meter).not.toContainText('Too weak');
  });
});

test.describe('the cookie banner covers no link of the public pages', () => {
  for (const { path, link } of [
    { path: '/signup', link: 'Sign In' },
    { path: '/signin', link: 'Sign Up' },
  ]) {
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 375, height: 667 },
    ]) {
      test(`${path} at ${viewport.width}×${viewport.height}: the ${link} link can be seen and clicked above the banner`, async ({ page }) => {
        await page.setViewportSize(viewport);
        await page.goto(path);
        const banner = page.getByRole('region', { name: 'Cookies', exact: true });
        await expect(banner).toBeVisible();
        const target = page.getByRole('link', { name: link, exact: true });
        await expect(target).toBeVisible();
        // as far down as the page goes: the link must sit above the banner, not under it
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        const [linkBox, bannerBox] = [await target.boundingBox(), await banner.boundingBox()];
        expect(linkBox!.y + linkBox!.height).toBeLessThanOrEqual(bannerBox!.y);
        expect(linkBox!.y).toBeGreaterThanOrEqual(0);
        // what a click there reaches is the link itself
        const hit = await target.evaluate((a) => {
          const r = a.getBoundingClientRect();
          return a.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
        });
        expect(hit).toBe(true);
      });
    }
  }
});

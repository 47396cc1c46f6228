import { expect, test } from '@playwright/test';
import { BASE_URL, acceptCookies, register, sidebar, signIn, valueOf } from './support';

test('Arabic sets dir=rtl and mirrors the layout; the choice is saved to the account', async ({ page }) => {
  await acceptCookies(page);
  const account = await register();
  await signIn(page, account);
  await expect(page).toHaveURL(/\/my-account\/profile$/);
  await page.getByRole('combobox', { name: 'Language', exact: true }).selectOption('ar');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
  // the sidebar sits on the right in right-to-left
  const box = await sidebar(page, 'الشريط الجانبي').boundingBox();
  const viewport = page.viewportSize()!;
  expect(box!.x + box!.width).toBeGreaterThan(viewport.width - 2);
  // English texts are gone from the menu
  await expect(sidebar(page, 'الشريط الجانبي').getByRole('link', { name: 'Profile' })).toHaveCount(0);

  // a new session of the same account, on a device set to English, comes back in Arabic
  await page.evaluate(() => localStorage.clear());
  await page.goto('/signin');
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  await signIn(page, account);
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(sidebar(page, 'الشريط الجانبي').getByText(/نقاط المملكة/)).toBeVisible();
});

test('theme, nav-style and layout-type query parameters change the display and are remembered', async ({ page }) => {
  await acceptCookies(page);
  await page.goto('/signin');
  await expect(page.locator('html')).toHaveClass(/dark/); // default dark
  await page.goto('/signin?theme=light');
  await expect(page.locator('html')).not.toHaveClass(/dark/);
  await page.goto('/signin');
  await expect(page.locator('html')).not.toHaveClass(/dark/);
  await signIn(page, await register());
  await page.goto('/my-account/profile?nav-style=static&layout-type=boxed&theme=nonsense');
  const shell = page.locator('[data-layout]');
  await expect(shell).toHaveAttribute('data-layout', 'boxed');
  await expect(shell).toHaveAttribute('data-nav-style', 'static');
  await expect(page.locator('html')).not.toHaveClass(/dark/);
});

test('the cookie banner: bottom, I understand!, remembered for 150 days', async ({ page, context }) => {
  await page.goto('/signin');
  const banner = page.getByRole('region', { name: 'Cookies', exact: true });
  await expect(banner).toContainText('This website uses cookies to enhance the user experience.');
  await banner.getByRole('button', { name: 'I understand!' }).click();
  await expect(banner).toBeHidden();
  const cookie = (await context.cookies(BASE_URL)).find((c) => c.name === 'kingdom_cookie_consent');
  const days = (cookie!.expires - Date.now() / 1000) / 86400;
  expect(days).toBeGreaterThan(149);
  expect(days).toBeLessThan(151);
  await page.reload();
  await expect(banner).toBeHidden();
});

test('account settings: see the account, change the password with the old one', async ({ page }) => {
  await acceptCookies(page);
  const account = await register();
  await signIn(page, account);
  await page.getByRole('button', { name: 'Account menu', exact: true }).click();
  await page.getByRole('link', { name: 'Account Settings' }).click();
  await expect(page).toHaveURL(/\/my-account\/account-settings$/);
  await expect(valueOf(page, 'Email')).toContainText(account.email);
  await expect(valueOf(page, 'Governor ID')).toContainText(account.playerid);

  const form = page.getByRole('form', { name: 'Change password', exact: true });
  await form.getByLabel('Current password', { exact: true }).fill('Wrong!pass9');
  await form.getByLabel('New password', { exact: true }).fill('weak');
  await form.getByLabel('Confirm new password', { exact: true }).fill('weak');
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(form.getByText('Password must contain minimum eight characters', { exact: false })).toBeVisible();

  await form.getByLabel('New password', { exact: true }).fill('N3w!password');
  await form.getByLabel('Confirm new password', { exact: true }).fill('N3w!password');
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(form.getByRole('alert')).toContainText('The current password is incorrect.');

  await form.getByLabel('Current password', { exact: true }).fill(account.password);
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(form.getByText('Your password has been changed.', { exact: false })).toBeVisible();
  const login = await page.request.post('/auth/login', { data: { email: account.email, password: 'N3w!password' } });
  expect((await login.json()).result).toBe(true);
});

import { expect, test, type Page } from '@playwright/test';
import { BASE_URL, acceptCookies, accountWithRank, signIn } from './support';

/** Every Content-Security-Policy refusal the page reports on its console. */
function cspViolations(page: Page): string[] {
  const found: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to (load|execute|apply|connect|frame)/i.test(message.text())) found.push(message.text());
  });
  return found;
}

// a 1×1 transparent PNG
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

test('the app works under its Content-Security-Policy: sockets connect, pages, menus and uploads, and nothing is refused', async ({ page }) => {
  const violations = cspViolations(page);
  const admin = await accountWithRank('admin');
  await acceptCookies(page);
  const response = await page.goto('/signin');
  expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  await signIn(page, admin);
  await expect(page.getByText('Connected')).toBeVisible(); // both sockets, on their own ports
  await page.goto('/my-account/kingdom-store');
  await expect(page.getByRole('article').or(page.getByText('No auction is running right now.', { exact: true })).first()).toBeVisible();
  await page.goto('/my-kingdom/kingdom-points/store-management');
  await page.getByRole('button', { name: 'New item' }).click();
  await expect(page.getByRole('dialog', { name: 'New item' })).toBeVisible();
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('dialog', { name: 'New item' }).getByRole('button', { name: 'Upload', exact: true }).click();
  await (await chooser).setFiles({ name: 'relic.png', mimeType: 'image/png', buffer: PNG });
  const preview = page.getByRole('img', { name: 'Image preview', exact: true });
  await expect(preview).toBeVisible();
  expect(await preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.getByRole('combobox', { name: 'Language' }).selectOption('ar');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await page.getByRole('combobox', { name: 'اللغة', exact: true }).selectOption('en');
  expect(violations).toEqual([]);
});

test('another site cannot frame the app', async ({ page }) => {
  await page.goto('about:blank');
  await page.setContent(`<iframe id="app" src="${BASE_URL}/signin" width="600" height="400"></iframe>`);
  // the browser refuses to show it (frame-ancestors 'none'): the frame holds its error page, not the app
  const frame = () => page.frames().find((f) => f !== page.mainFrame());
  await expect.poll(() => frame()?.url()).toMatch(/^chrome-error:/);
  expect(await frame()!.locator('#root').count()).toBe(0);
  expect(await frame()!.getByRole('button', { name: 'Login' }).count()).toBe(0);
});

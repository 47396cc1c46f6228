import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { acceptCookies, accountWithRank, newAccount, register } from './support';

/** The server's texts and the page's own texts in a language, as shipped. */
const serverTexts = (locale: string) => JSON.parse(readFileSync(`src/locales/server/${locale}.json`, 'utf8')) as Record<string, string>;
const pageTexts = (locale: string) => JSON.parse(readFileSync(`src/locales/${locale}.json`, 'utf8')) as Record<string, string>;

test.beforeEach(async ({ page }) => acceptCookies(page));

async function signInIn(page: Page, locale: string, account: { email: string; password: string }) {
  await page.goto('/signin');
  await page.getByRole('combobox', { name: 'Language', exact: true }).selectOption(locale);
  await page.locator('input[type=email]').fill(account.email);
  await page.locator('input[type=password]').fill(account.password);
  await page.locator('button[type=submit]').click();
}

test('a refused sign-in is said in the language picked, and follows a change of language', async ({ page }) => {
  const account = await register(newAccount('srvtx'));
  await signInIn(page, 'fr', { email: account.email, password: 'Wrong-password1!' });
  const notices = (locale: string) => page.getByRole('region', { name: pageTexts(locale)['notify.region'], exact: true }).getByRole('listitem');
  await expect(notices('fr')).toContainText(serverTexts('fr')['AUTH_ERRORS.wrongCredentials']);
  // the notice holds the server's text, not a copy in French: it is said again in the new language
  await page.getByRole('combobox', { name: pageTexts('fr')['app.language'], exact: true }).selectOption('ar');
  await expect(notices('ar')).toContainText(serverTexts('ar')['AUTH_ERRORS.wrongCredentials']);
  await page.getByRole('combobox', { name: pageTexts('ar')['app.language'], exact: true }).selectOption('en');
  await expect(notices('en')).toContainText('The email or password is incorrect.');
});

test('a council member reading French sees the form’s and the ledger’s refusals in French', async ({ page }) => {
  const council = await accountWithRank('council');
  const player = await register(newAccount('srvpl'));
  await signInIn(page, 'fr', council);
  await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
  await page.goto('/my-kingdom/kingdom-points/point-management');
  const fr = pageTexts('fr');
  // the form checks with the protocol's schema first: its field errors are said in French too
  await page.getByRole('button', { name: fr['points.deduct'], exact: true }).click();
  await expect(page.getByText(serverTexts('fr')['POINTS_ERRORS.usernameRequired'], { exact: true })).toBeVisible();
  await page.getByLabel(fr['points.player'], { exact: true }).fill(player.username);
  await page.getByLabel(fr['points.amount'], { exact: true }).fill('50');
  await page.getByLabel(fr['points.reason'], { exact: true }).fill('Amende');
  await page.getByRole('button', { name: fr['points.deduct'], exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: serverTexts('fr')['POINTS_ERRORS.moreThanBalance'] })).toBeVisible();
});

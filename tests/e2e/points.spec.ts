import { expect, test } from '@playwright/test';
import { ADMIN, acceptCookies, api, register, signIn, tokenOf } from './support';

test('a grant reaches the player’s open page at once, with the locale’s thousands separators', async ({ page }) => {
  await acceptCookies(page);
  const player = await register();
  await signIn(page, player);
  const balance = page.getByTestId('sidebar').getByTestId('user-balance');
  await expect(balance).toHaveText('0 kingdom points');
  await expect(page.getByTestId('connection')).toHaveText('Connected');

  const admin = await tokenOf(ADMIN);
  const answer = await api<{ result: boolean; balance: number }>('points/transactions', { username: player.username, delta: 1_234_567, reason: 'KvK reward' }, admin);
  expect(answer).toMatchObject({ result: true, balance: 1_234_567 });
  await expect(balance).toHaveText('1,234,567 kingdom points'); // no reload

  // French groups digits with a narrow no-break space
  await page.getByTestId('language-picker').selectOption('fr');
  await expect(balance).toContainText('1\u202f234\u202f567');
});

import { expect, test, type Page } from '@playwright/test';
import { ADMIN, acceptCookies, api, register, signIn, tokenOf } from './support';

async function openStore(page: Page, account: { email: string; password: string }) {
  await acceptCookies(page);
  await signIn(page, account);
  await page.goto('/my-account/kingdom-store');
  await expect(page.getByTestId('connection')).toHaveText('Connected');
}

test('two players hold a whole auction: bids seen live, outbid notice, the win and the balances', async ({ browser }) => {
  test.setTimeout(60_000);
  const admin = await tokenOf(ADMIN);
  const alice = await register();
  const bob = await register();
  for (const p of [alice, bob]) {
    await api('points/transactions', { username: p.username, delta: 10_000, reason: 'Auction test' }, admin);
  }
  const itemName = `Relic ${Date.now().toString(36)}`;
  const created = await api<{ result: boolean; item: { itemId: number } }>(
    'store/items',
    { itemName, start_price: 100, minIncrement: 10, duration: 14, extendWindow: 0, maxExtensions: 0 },
    admin,
  );
  expect(created.result).toBe(true);

  const a = await (await browser.newContext()).newPage();
  const b = await (await browser.newContext()).newPage();
  await openStore(a, alice);
  await openStore(b, bob);
  const cardA = a.getByTestId('live-item').filter({ hasText: itemName });
  const cardB = b.getByTestId('live-item').filter({ hasText: itemName });
  await expect(cardA).toBeVisible();
  await expect(cardB).toBeVisible();

  // a bid above the balance is explained before anything is sent
  await cardA.getByTestId('bid-amount').fill('20000');
  await expect(cardA.getByTestId('bid-hint')).toHaveText('Not enough points: you have 10,000 kingdom points available.');
  await expect(cardA.getByTestId('bid-submit')).toBeDisabled();

  // Alice bids the minimum; Bob sees it
  await cardA.getByTestId('bid-amount').fill('');
  await cardA.getByTestId('raise-0').click();
  await cardA.getByTestId('bid-submit').click();
  await expect(cardB.getByTestId('item-leader')).toHaveText(alice.username);
  await expect(cardB.getByTestId('item-amount')).toHaveText('100');
  await expect(b.getByTestId('latest-bid').first()).toContainText(alice.username);
  await expect(b.getByTestId('notification').filter({ hasText: 'New Bid!' }).first()).toContainText(`${alice.username} has bid 100 for ${itemName}`);
  await expect(a.getByTestId('sidebar').getByTestId('user-reserved')).toHaveText('100 reserved');

  // Bob outbids her; Alice is told, and sees his lead
  await cardB.getByTestId('bid-amount').fill('150');
  await cardB.getByTestId('bid-submit').click();
  await expect(a.getByTestId('notification').filter({ hasText: 'Outbid!' })).toContainText(`${bob.username} outbid you on ${itemName} with 150 kingdom points`);
  await expect(cardA.getByTestId('item-leader')).toHaveText(bob.username);
  await expect(cardB.getByTestId('item-leader')).toHaveText('you');
  await expect(a.getByTestId('sidebar').getByTestId('user-reserved')).toHaveCount(0);

  // the end: Bob wins, both see the sale, Bob's points are spent
  await expect(b.getByTestId('notification').filter({ hasText: 'You won the bid!' })).toContainText(`${itemName} is yours for 150 kingdom points`, { timeout: 20_000 });
  await expect(a.getByTestId('notification').filter({ hasText: 'Sale Completed!' })).toContainText(`${itemName} was sold to ${bob.username} for 150`);
  await expect(a.getByTestId('notification').filter({ hasText: 'You won the bid!' })).toHaveCount(0);
  await expect(b.getByTestId('finished-item').filter({ hasText: itemName })).toContainText(`Won by ${bob.username} for 150`);
  await expect(b.getByTestId('sidebar').getByTestId('user-balance')).toHaveText('9,850 kingdom points');
  await expect(a.getByTestId('sidebar').getByTestId('user-balance')).toHaveText('10,000 kingdom points');
});

test('a bid the item’s ranks exclude is explained before sending', async ({ page }) => {
  const admin = await tokenOf(ADMIN);
  const player = await register();
  await api('points/transactions', { username: player.username, delta: 1_000, reason: 'Auction test' }, admin);
  const itemName = `Council relic ${Date.now().toString(36)}`;
  await api('store/items', { itemName, start_price: 10, minIncrement: 5, duration: 600, extendWindow: 0, maxExtensions: 0, eligibility: { ranks: ['council'] } }, admin);
  await openStore(page, player);
  const card = page.getByTestId('live-item').filter({ hasText: itemName });
  // explained before sending
  await expect(card.getByTestId('bid-hint')).toHaveText('Only some ranks may bid on this item.');
  await expect(card.getByTestId('bid-submit')).toBeDisabled();
});

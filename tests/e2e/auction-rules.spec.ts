import { expect, test, type Page } from '@playwright/test';
import { ADMIN, accountWithRank, acceptCookies, api, register, signIn, tokenOf } from './support';

/**
 * The auction's rules as a person sees them (issue 9 #1, #4, #5, #7, #26; issue 10 §2): an item
 * that starts while the page is open has the card a reload would give, the closed store is seen
 * live with its reason, and a cancellation is its own notice.
 */
async function openStore(page: Page, account: { email: string; password: string }) {
  await acceptCookies(page);
  await signIn(page, account);
  await page.goto('/my-account/kingdom-store');
  await expect(page.getByTestId('connection')).toHaveText('Connected');
}

async function funded(points: number) {
  const admin = await tokenOf(ADMIN);
  const player = await register();
  await api('points/transactions', { username: player.username, delta: points, reason: 'Auction rules test' }, admin);
  return player;
}

test('an item that starts while the page is open has the right next minimum, its soft close and its eligibility, without a reload', async ({ page }) => {
  const admin = await tokenOf(ADMIN);
  const player = await funded(10_000);
  await openStore(page, player);

  const itemName = `Crown ${Date.now().toString(36)}`;
  const sealName = `Seal ${Date.now().toString(36)}`;
  await api('store/items', { itemName, start_price: 300, minIncrement: 100, duration: 600, extendWindow: 30, maxExtensions: 2 }, admin);
  await api('store/items', { itemName: sealName, start_price: 10, minIncrement: 5, duration: 600, extendWindow: 0, maxExtensions: 0, eligibility: { ranks: ['council'] } }, admin);
  const card = page.getByTestId('live-item').filter({ hasText: itemName });
  await expect(card.getByTestId('next-minimum')).toHaveText('Next minimum: 300');
  await expect(card.getByTestId('soft-close')).toHaveText('A bid in the last 30 s extends the end (2 times at most).');

  await card.getByTestId('raise-0').click();
  await expect(card.getByTestId('bid-amount')).toHaveValue('300');
  await card.getByTestId('bid-submit').click();
  await expect(card.getByTestId('item-leader')).toHaveText('you');
  await expect(card.getByTestId('next-minimum')).toHaveText('Next minimum: 400');
  await card.getByTestId('raise-0').click();
  await expect(card.getByTestId('bid-amount')).toHaveValue('400');

  // typing more than the points available says why Bid is off
  await card.getByTestId('bid-amount').fill('20000');
  await expect(card.getByTestId('bid-hint')).toHaveText('Not enough points: you have 10,000 kingdom points available.');
  await expect(card.getByTestId('bid-submit')).toBeDisabled();

  // an item limited to ranks is explained at once, not after a reload
  const seal = page.getByTestId('live-item').filter({ hasText: sealName });
  await expect(seal.getByTestId('bid-hint')).toHaveText('Only some ranks may bid on this item.');
  await expect(seal.getByTestId('bid-submit')).toBeDisabled();

  // soft close, seen: a bid inside the window moves the end, and the card says how many extensions are left
  const bannerName = `Banner ${Date.now().toString(36)}`;
  await api('store/items', { itemName: bannerName, start_price: 20, minIncrement: 5, duration: 600, extendWindow: 3600, maxExtensions: 2 }, admin);
  const banner = page.getByTestId('live-item').filter({ hasText: bannerName });
  await expect(banner.getByTestId('soft-close')).toHaveText('A bid in the last 3,600 s extends the end (2 times at most).');
  await banner.getByTestId('raise-0').click();
  await banner.getByTestId('bid-submit').click();
  await expect(banner.getByTestId('soft-close')).toHaveText('Extended: 1 extension left');

  // and a reload gives the same cards
  await page.reload();
  await expect(page.getByTestId('connection')).toHaveText('Connected');
  await expect(card.getByTestId('next-minimum')).toHaveText('Next minimum: 400');
  await expect(seal.getByTestId('bid-hint')).toHaveText('Only some ranks may bid on this item.');
  await expect(banner.getByTestId('soft-close')).toHaveText('Extended: 1 extension left');
});

test('closing the store reaches an open page at once: the bid box says why, the clock stands still; reopening is seen too', async ({ page }) => {
  const admin = await tokenOf(ADMIN);
  const player = await funded(1_000);
  const itemName = `Lamp ${Date.now().toString(36)}`;
  await api('store/items', { itemName, start_price: 50, minIncrement: 5, duration: 600, extendWindow: 0, maxExtensions: 0 }, admin);
  await openStore(page, player);
  const card = page.getByTestId('live-item').filter({ hasText: itemName });
  await expect(card.getByTestId('bid-submit')).toBeEnabled();

  try {
    const closed = await api<{ result: boolean }>('kingdom/settings', { storeOpen: false }, admin);
    expect(closed.result).toBe(true);
    await expect(card.getByTestId('bid-hint')).toHaveText('The store is closed: bids are accepted again when the council opens it.');
    await expect(card.getByTestId('bid-submit')).toBeDisabled();
    await expect(card.getByTestId('item-paused')).toContainText('Paused');
    await expect(page.getByTestId('store-closed')).toContainText('The store is closed');
  } finally {
    await api('kingdom/settings', { storeOpen: true }, admin);
  }
  await expect(page.getByTestId('store-closed')).toHaveCount(0);
  await expect(card.getByTestId('item-paused')).toHaveCount(0);
  await expect(card.getByTestId('bid-hint')).toHaveText('You have 1,000 kingdom points available for this bid.');
  await expect(card.getByTestId('bid-submit')).toBeEnabled();
});

test('cancelling an item the player leads: “Auction Cancelled” for everyone, not “Sale Failed!”, the points released, and the council’s toast says so', async ({ browser }) => {
  const admin = await tokenOf(ADMIN);
  const player = await funded(1_000);
  const council = await accountWithRank('council');
  const itemName = `Ring ${Date.now().toString(36)}`;
  await api('store/items', { itemName, start_price: 200, minIncrement: 10, duration: 600, extendWindow: 0, maxExtensions: 0 }, admin);

  const p = await (await browser.newContext()).newPage();
  await openStore(p, player);
  const card = p.getByTestId('live-item').filter({ hasText: itemName });
  await card.getByTestId('raise-0').click();
  await card.getByTestId('bid-submit').click();
  await expect(card.getByTestId('item-leader')).toHaveText('you');
  await expect(p.getByTestId('sidebar').getByTestId('user-reserved')).toHaveText('200 reserved');

  const c = await (await browser.newContext()).newPage();
  await acceptCookies(c);
  await signIn(c, council);
  await c.goto('/my-kingdom/kingdom-points/store-management');
  const row = c.getByTestId('item-row').filter({ hasText: itemName });
  await row.getByTestId('cancel-item').click();
  await row.getByTestId('cancel-item').click();
  await expect(c.getByTestId('notification').filter({ hasText: 'Item cancelled' })).toContainText(`${itemName} was cancelled`);

  await expect(p.getByTestId('notification').filter({ hasText: 'Auction Cancelled' })).toContainText(
    `${itemName} was cancelled by the council: nobody buys it, and points held by its bids are free again.`,
  );
  await expect(p.getByTestId('notification').filter({ hasText: 'Sale Failed!' })).toHaveCount(0);
  await expect(card).toHaveCount(0);
  await expect(p.getByTestId('sidebar').getByTestId('user-reserved')).toHaveCount(0);
  await expect(p.getByTestId('sidebar').getByTestId('user-balance')).toHaveText('1,000 kingdom points');
});

import { expect, test, type Page } from '@playwright/test';
import { ADMIN, acceptCookies, accountWithRank, api, balance, connection, register, reserved, signIn, toasts, tokenOf, uniqueTag, valueOf } from './support';

/**
 * The auction's rules as a person sees them: an item
 * that starts while the page is open has the card a reload would give, the closed store is seen
 * live with its reason, and a cancellation is its own notice.
 */
async function openStore(page: Page, account: { email: string; password: string }) {
  await acceptCookies(page);
  await signIn(page, account);
  await page.goto('/my-account/kingdom-store');
  await expect(connection(page)).toHaveText('Connected');
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

  const itemName = `Crown ${uniqueTag()}`;
  const sealName = `Seal ${uniqueTag()}`;
  await api('store/items', { itemName, start_price: 300, minIncrement: 100, duration: 600, extendWindow: 30, maxExtensions: 2 }, admin);
  await api('store/items', { itemName: sealName, start_price: 10, minIncrement: 5, duration: 600, extendWindow: 0, maxExtensions: 0, eligibility: { ranks: ['council'] } }, admin);
  const card = page.getByRole('article', { name: itemName, exact: true });
  await expect(card.getByText(/^Next minimum: /)).toHaveText('Next minimum: 300');
  await expect(card.getByText(/^(A bid in the last |Extended: )/)).toHaveText('A bid in the last 30 s extends the end (2 times at most).');

  await card.getByRole('button', { name: 'Min', exact: true }).click();
  await expect(card.getByRole('textbox', { name: /^Bid amount for / })).toHaveValue('300');
  await card.getByRole('button', { name: 'Bid', exact: true }).click();
  await expect(valueOf(card, 'Leader')).toHaveText('you');
  await expect(card.getByText(/^Next minimum: /)).toHaveText('Next minimum: 400');
  await card.getByRole('button', { name: 'Min', exact: true }).click();
  await expect(card.getByRole('textbox', { name: /^Bid amount for / })).toHaveValue('400');

  // typing more than the points available says why Bid is off
  await card.getByRole('textbox', { name: /^Bid amount for / }).fill('20000');
  await expect(card.getByText('Not enough points: you have 10,000 kingdom points available.', { exact: true })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Bid', exact: true })).toBeDisabled();

  // an item limited to ranks is explained at once, not after a reload
  const seal = page.getByRole('article', { name: sealName, exact: true });
  await expect(seal.getByText('Only some ranks may bid on this item.', { exact: true })).toBeVisible();
  await expect(seal.getByRole('button', { name: 'Bid', exact: true })).toBeDisabled();

  // soft close, seen: a bid inside the window moves the end, and the card says how many extensions are left
  const bannerName = `Banner ${uniqueTag()}`;
  await api('store/items', { itemName: bannerName, start_price: 20, minIncrement: 5, duration: 600, extendWindow: 3600, maxExtensions: 2 }, admin);
  const banner = page.getByRole('article', { name: bannerName, exact: true });
  await expect(banner.getByText(/^(A bid in the last |Extended: )/)).toHaveText('A bid in the last 3,600 s extends the end (2 times at most).');
  await banner.getByRole('button', { name: 'Min', exact: true }).click();
  await banner.getByRole('button', { name: 'Bid', exact: true }).click();
  await expect(banner.getByText(/^(A bid in the last |Extended: )/)).toHaveText('Extended: 1 extension left');

  // and a reload gives the same cards
  await page.reload();
  await expect(connection(page)).toHaveText('Connected');
  await expect(card.getByText(/^Next minimum: /)).toHaveText('Next minimum: 400');
  await expect(seal.getByText('Only some ranks may bid on this item.', { exact: true })).toBeVisible();
  await expect(banner.getByText(/^(A bid in the last |Extended: )/)).toHaveText('Extended: 1 extension left');
});

test('closing the store reaches an open page at once: the bid box says why, the clock stands still; reopening is seen too', async ({ page }) => {
  const admin = await tokenOf(ADMIN);
  const player = await funded(1_000);
  const itemName = `Lamp ${uniqueTag()}`;
  await api('store/items', { itemName, start_price: 50, minIncrement: 5, duration: 600, extendWindow: 0, maxExtensions: 0 }, admin);
  await openStore(page, player);
  const card = page.getByRole('article', { name: itemName, exact: true });
  await expect(card.getByRole('button', { name: 'Bid', exact: true })).toBeEnabled();

  try {
    const closed = await api<{ result: boolean }>('kingdom/settings', { storeOpen: false }, admin);
    expect(closed.result).toBe(true);
    await expect(card.getByText('The store is closed: bids are accepted again when the council opens it.', { exact: true })).toBeVisible();
    await expect(card.getByRole('button', { name: 'Bid', exact: true })).toBeDisabled();
    await expect(card.getByText(/^Paused, /)).toContainText('Paused');
    await expect(page.getByRole('alert').filter({ hasText: 'Bids are not accepted until the council opens the store again.' })).toContainText('The store is closed');
  } finally {
    await api('kingdom/settings', { storeOpen: true }, admin);
  }
  await expect(page.getByRole('alert').filter({ hasText: 'Bids are not accepted until the council opens the store again.' })).toHaveCount(0);
  await expect(card.getByText(/^Paused, /)).toHaveCount(0);
  await expect(card.getByText('You have 1,000 kingdom points available for this bid.', { exact: true })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Bid', exact: true })).toBeEnabled();
});

test('cancelling an item the player leads: “Auction Cancelled” for everyone, not “Sale Failed!”, the points released, and the council’s toast says so', async ({ browser }) => {
  const admin = await tokenOf(ADMIN);
  const player = await funded(1_000);
  const council = await accountWithRank('council');
  const itemName = `Ring ${uniqueTag()}`;
  await api('store/items', { itemName, start_price: 200, minIncrement: 10, duration: 600, extendWindow: 0, maxExtensions: 0 }, admin);

  const p = await (await browser.newContext()).newPage();
  await openStore(p, player);
  const card = p.getByRole('article', { name: itemName, exact: true });
  await card.getByRole('button', { name: 'Min', exact: true }).click();
  await card.getByRole('button', { name: 'Bid', exact: true }).click();
  await expect(valueOf(card, 'Leader')).toHaveText('you');
  await expect(reserved(p)).toHaveText('200 reserved');

  const c = await (await browser.newContext()).newPage();
  await acceptCookies(c);
  await signIn(c, council);
  await c.goto('/my-kingdom/kingdom-points/store-management');
  const row = c.getByRole('row').filter({ hasText: itemName });
  await row.getByRole('button', { name: 'Cancel', exact: true }).click();
  await row.getByRole('button', { name: 'Confirm: cancel it', exact: true }).click();
  await expect(toasts(c).filter({ hasText: 'Item cancelled' })).toContainText(`${itemName} was cancelled`);

  await expect(toasts(p).filter({ hasText: 'Auction Cancelled' })).toContainText(
    `${itemName} was cancelled by the council: nobody buys it, and points held by its bids are free again.`,
  );
  await expect(toasts(p).filter({ hasText: 'Sale Failed!' })).toHaveCount(0);
  await expect(card).toHaveCount(0);
  await expect(reserved(p)).toHaveCount(0);
  await expect(balance(p)).toHaveText('1,000 kingdom points');
});

import { expect, test, type Browser, type Page } from '@playwright/test';
import { ADMIN, acceptCookies, accountWithRank, api, connection, createItem as createStoreItem, liveCard, register, signIn, tokenOf, uniqueTag } from './support';

/** A player with `points`, signed in on the store page in a browser of their own. */
async function player(browser: Browser, points: number) {
  const account = await register();
  const admin = await tokenOf(ADMIN);
  const granted = await api<{ result: boolean; error?: string }>('points/transactions', { username: account.username, delta: points, reason: 'auction formats' }, admin);
  expect(granted.result, granted.error).toBe(true);
  const context = await browser.newContext();
  const page = await context.newPage();
  await acceptCookies(page);
  await signIn(page, account);
  await page.goto('/my-account/kingdom-store');
  await expect(connection(page)).toHaveText('Connected');
  return { account, page, close: () => context.close() };
}

async function createItem(body: Record<string, unknown>) {
  return createStoreItem(await tokenOf(ADMIN), body);
}

async function bid(page: Page, itemName: string, amount: number) {
  const card = await liveCard(page, itemName);
  await card.getByRole('textbox', { name: `Bid amount for ${itemName}` }).fill(String(amount));
  await card.getByRole('button', { name: 'Bid', exact: true }).click();
  return card;
}

test('council: the form explains each format, refuses a reserve below the start price on its field, and creates a sealed item', async ({ page }) => {
  const council = await accountWithRank('council');
  await acceptCookies(page);
  await signIn(page, council);
  await page.goto('/my-kingdom/kingdom-points/store-management');
  await page.getByRole('button', { name: 'New item' }).click();
  const dialog = page.getByRole('dialog', { name: 'New item' });
  const itemName = `Sealed relic ${uniqueTag()}`;
  await dialog.getByLabel('Item name').fill(itemName);
  await dialog.getByLabel('Start price').fill('500');
  const format = dialog.getByLabel('Format');
  await expect(format).toHaveAccessibleDescription('Everyone sees every bid; the highest bid wins and pays what it bid.');
  await expect(dialog.getByLabel('Buy-now price (optional)')).toBeVisible();
  await format.selectOption({ label: 'Sealed, second price' });
  await expect(format).toHaveAccessibleDescription(/pays the second-highest bid plus the increment/);
  // a sealed item has no buy-now price and no soft close
  await expect(dialog.getByLabel('Buy-now price (optional)')).toHaveCount(0);
  await expect(dialog.getByLabel('Extend window (seconds)')).toHaveCount(0);
  await dialog.getByLabel('Reserve price (optional)').fill('400');
  await dialog.getByRole('button', { name: 'Create item' }).click();
  await expect(dialog.getByLabel('Reserve price (optional)')).toHaveAccessibleDescription(/The reserve price is below the start price/);
  await dialog.getByLabel('Reserve price (optional)').fill('800');
  await dialog.getByRole('button', { name: 'Create item' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // the items list says how it is sold, the reserve's number included (council reads it)
  await expect(page.getByRole('row').filter({ hasText: itemName })).toContainText('Sealed, second price · Reserve 800');

  const admin = await tokenOf(ADMIN);
  const live = await api<{ items: { itemId: number; itemName: string; format?: string; reservePrice?: number }[] }>('store/items?state=live', undefined, admin, 'GET');
  const created = live.items.find((it) => it.itemName === itemName);
  expect(created).toMatchObject({ format: 'sealed-second', reservePrice: 800 });
  // off the board again: the store's grid is shared by every test of the run
  await api(`store/items/${created!.itemId}/cancel`, undefined, admin);
});

test('sealed: each player sees how many have bid and their own bid, never another’s amount or name', async ({ browser }) => {
  const itemName = `Sealed chest ${uniqueTag()}`;
  const itemId = await createItem({ itemName, format: 'sealed-first' });
  const aria = await player(browser, 5_000);
  const boris = await player(browser, 5_000);
  try {
    const ariaCard = await bid(aria.page, itemName, 700);
    await expect(ariaCard.getByText('Your sealed bid: 700')).toBeVisible();
    const borisCard = await liveCard(boris.page, itemName);
    await expect(borisCard.getByText('1 sealed bid', { exact: true })).toBeVisible();
    await expect(borisCard).not.toContainText('700');
    await expect(borisCard).not.toContainText(aria.account.username);
    await bid(boris.page, itemName, 300);
    await expect(borisCard.getByText('Your sealed bid: 300')).toBeVisible();
    await expect(ariaCard.getByText('2 sealed bids', { exact: true })).toBeVisible();
    await expect(ariaCard.getByText('Your sealed bid: 700')).toBeVisible();
    await expect(ariaCard).not.toContainText(boris.account.username);
  } finally {
    await aria.close();
    await boris.close();
    await api(`store/items/${itemId}/cancel`, undefined, await tokenOf(ADMIN));
  }
});

test('buy now: asked once more, then the item is sold at its buy-now price at once', async ({ browser }) => {
  const itemName = `Instant banner ${uniqueTag()}`;
  await createItem({ itemName, buyNowPrice: 900, reservePrice: 600 });
  const buyer = await player(browser, 5_000);
  try {
    const card = await liveCard(buyer.page, itemName);
    await expect(card.getByText('Reserve not met', { exact: true })).toBeVisible();
    await card.getByRole('button', { name: 'Buy now for 900' }).click();
    await expect(card.getByText(/now for 900 kingdom points\? The auction ends at once\./)).toBeVisible();
    await card.getByRole('button', { name: 'Yes, buy now' }).click();
    await expect(buyer.page.getByRole('article', { name: itemName, exact: true })).toHaveCount(0);
    const admin = await tokenOf(ADMIN);
    const sales = await api<{ sales: { itemName: string; username: string; amount: number }[] }>('store/history', undefined, admin, 'GET');
    expect(sales.sales.find((s) => s.itemName === itemName)).toMatchObject({ username: buyer.account.username, amount: 900 });
  } finally {
    await buyer.close();
  }
});

test('a maximum bid: set from the bid box, seen only by its owner, answered automatically when outbid', async ({ browser }) => {
  const itemName = `Proxy shield ${uniqueTag()}`;
  const itemId = await createItem({ itemName });
  const aria = await player(browser, 5_000);
  const boris = await player(browser, 5_000);
  try {
    const ariaCard = await liveCard(aria.page, itemName);
    await ariaCard.getByRole('button', { name: `Set a maximum bid on ${itemName}` }).click();
    await ariaCard.getByRole('textbox', { name: `Your maximum bid on ${itemName}` }).fill('1200');
    await ariaCard.getByRole('button', { name: 'Set maximum' }).click();
    await expect(ariaCard.getByText(/^Your max: 1,200 — /)).toBeVisible();

    const borisCard = await bid(boris.page, itemName, 450);
    // her max answers at once with the least that leads; Boris never learns the max
    await expect(borisCard.getByText('460', { exact: true })).toBeVisible();
    await expect(boris.page.getByText('1,200')).toHaveCount(0);
    await expect(ariaCard.getByText('Your max: 1,200 — leading at 460')).toBeVisible();
    await expect(aria.page.getByRole('list', { name: 'Latest bids' }).getByText('auto').first()).toBeVisible();

    await ariaCard.getByRole('button', { name: `Withdraw your maximum bid on ${itemName}` }).click();
    await expect(ariaCard.getByText(/Your max:/)).toHaveCount(0);

    // a max the bids go past is shown as passed, with nothing left to withdraw
    await ariaCard.getByRole('button', { name: `Set a maximum bid on ${itemName}` }).click();
    await ariaCard.getByRole('textbox', { name: `Your maximum bid on ${itemName}` }).fill('600');
    await ariaCard.getByRole('button', { name: 'Set maximum' }).click();
    await expect(ariaCard.getByText('Your max: 600 — leading at 460')).toBeVisible();
    await bid(boris.page, itemName, 700);
    await expect(ariaCard.getByText('Your max of 600 was passed — the bid stands at 700')).toBeVisible();
    await expect(ariaCard.getByRole('button', { name: `Withdraw your maximum bid on ${itemName}` })).toHaveCount(0);
  } finally {
    await api(`store/items/${itemId}/cancel`, undefined, await tokenOf(ADMIN));
    await aria.close();
    await boris.close();
  }
});

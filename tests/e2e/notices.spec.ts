import { expect, test, type Page } from '@playwright/test';
import { ADMIN, acceptCookies, api, connection, liveCard, register, signIn, tokenOf, uniqueTag } from './support';

/** The top bar's bell: its name says the unread count ("Notices, 2 unread"; "Notices" at 0). */
const bell = (page: Page) => page.getByRole('banner').getByRole('button', { name: /^Notices/ });

test('a player stars a live item, is outbid: the bell counts it live, the notices page says it, Mark all read clears it, the star stays', async ({ browser }) => {
  test.setTimeout(60_000);
  const admin = await tokenOf(ADMIN);
  const alice = await register();
  const bob = await register();
  for (const p of [alice, bob]) await api('points/transactions', { username: p.username, delta: 5_000, reason: 'Notices test' }, admin);
  const itemName = `Gold Dragon ${uniqueTag()}`;
  const created = await api<{ result: boolean; item: { itemId: number } }>('store/items', { itemName, start_price: 100, minIncrement: 10, duration: 3600, extendWindow: 0, maxExtensions: 0 }, admin);
  expect(created.result).toBe(true);

  const a = await (await browser.newContext()).newPage();
  const b = await (await browser.newContext()).newPage();
  for (const [page, account] of [[a, alice], [b, bob]] as const) {
    await acceptCookies(page);
    await signIn(page, account);
    await page.goto('/my-account/kingdom-store');
    await expect(connection(page)).toHaveText('Connected');
  }
  // the grant is Alice's first notice
  await expect(bell(a)).toHaveAccessibleName('Notices, 1 unread');

  // Alice stars the item and bids
  const cardA = await liveCard(a, itemName);
  const star = cardA.getByRole('button', { name: `Watch ${itemName}`, exact: true });
  await expect(star).toHaveAttribute('aria-pressed', 'false');
  await star.click();
  const watching = cardA.getByRole('button', { name: `Stop watching ${itemName}`, exact: true });
  await expect(watching).toHaveAttribute('aria-pressed', 'true');
  await cardA.getByRole('button', { name: 'Min', exact: true }).click();
  await cardA.getByRole('button', { name: 'Bid', exact: true }).click();

  // Bob outbids her: her bell's count rises without a reload
  const cardB = await liveCard(b, itemName);
  await expect(cardB.getByText(alice.username, { exact: true })).toBeVisible();
  await cardB.getByRole('textbox', { name: /^Bid amount for / }).fill('150');
  await cardB.getByRole('button', { name: 'Bid', exact: true }).click();
  await expect(bell(a)).toHaveAccessibleName('Notices, 2 unread');

  // the bell lists it, and leads to the notices page
  await bell(a).click();
  await expect(a.getByRole('dialog').getByRole('link', { name: `You were outbid on ${itemName}: 150` })).toBeVisible();
  await a.getByRole('dialog').getByRole('link', { name: 'See all notices' }).click();
  await expect(a.getByRole('heading', { level: 1, name: 'Notices' })).toBeVisible();
  const all = a.getByRole('list', { name: 'All notices', exact: true });
  await expect(all.getByRole('listitem').first()).toContainText(`You were outbid on ${itemName}: 150`);
  // the watchlist holds the starred item
  await expect(a.getByRole('list', { name: 'Watched items', exact: true })).toContainText(itemName);

  await a.getByRole('button', { name: 'Mark all read', exact: true }).click();
  await expect(bell(a)).toHaveAccessibleName('Notices');
  await expect(all.getByText('Unread:')).toHaveCount(0);

  // after a reload: still read, still watched
  await a.goto('/my-account/kingdom-store');
  await expect(connection(a)).toHaveText('Connected');
  await expect(bell(a)).toHaveAccessibleName('Notices');
  await expect((await liveCard(a, itemName)).getByRole('button', { name: `Stop watching ${itemName}`, exact: true })).toHaveAttribute('aria-pressed', 'true');

  await api(`store/items/${created.item.itemId}/cancel`, undefined, admin);
});

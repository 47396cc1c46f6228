import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { ADMIN, acceptCookies, accountWithRank, api, balance, connection, liveCard, register, reserved, signIn, toasts, tokenOf, uniqueTag, valueOf } from './support';

async function openStore(page: Page, account: { email: string; password: string }) {
  await acceptCookies(page);
  await signIn(page, account);
  await page.goto('/my-account/kingdom-store');
  await expect(connection(page)).toHaveText('Connected');
}

test('two players hold a whole auction: bids seen live, outbid notice, the win and the balances', async ({ browser }) => {
  test.setTimeout(60_000);
  const admin = await tokenOf(ADMIN);
  const alice = await register();
  const bob = await register();
  for (const p of [alice, bob]) {
    await api('points/transactions', { username: p.username, delta: 10_000, reason: 'Auction test' }, admin);
  }
  const itemName = `Relic ${uniqueTag()}`;
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
  const cardA = a.getByRole('article', { name: itemName, exact: true });
  const cardB = b.getByRole('article', { name: itemName, exact: true });
  await expect(cardA).toBeVisible();
  await expect(cardB).toBeVisible();

  // a bid above the balance is explained before anything is sent
  await cardA.getByRole('textbox', { name: /^Bid amount for / }).fill('20000');
  await expect(cardA.getByText('Not enough points: you have 10,000 kingdom points available.', { exact: true })).toBeVisible();
  await expect(cardA.getByRole('button', { name: 'Bid', exact: true })).toBeDisabled();

  // Alice bids the minimum; Bob sees it
  await cardA.getByRole('textbox', { name: /^Bid amount for / }).fill('');
  await cardA.getByRole('button', { name: 'Min', exact: true }).click();
  await cardA.getByRole('button', { name: 'Bid', exact: true }).click();
  await expect(valueOf(cardB, 'Leader')).toHaveText(alice.username);
  await expect(valueOf(cardB, 'Current bid')).toHaveText('100');
  await expect(b.getByRole('list', { name: 'Latest bids', exact: true }).getByRole('listitem').first()).toContainText(alice.username);
  await expect(toasts(b).filter({ hasText: 'New Bid!' }).first()).toContainText(`${alice.username} has bid 100 for ${itemName}`);
  await expect(reserved(a)).toHaveText('100 reserved');

  // Bob outbids her; Alice is told, and sees his lead
  await cardB.getByRole('textbox', { name: /^Bid amount for / }).fill('150');
  await cardB.getByRole('button', { name: 'Bid', exact: true }).click();
  await expect(toasts(a).filter({ hasText: 'Outbid!' })).toContainText(`${bob.username} outbid you on ${itemName} with 150 kingdom points`);
  await expect(valueOf(cardA, 'Leader')).toHaveText(bob.username);
  await expect(valueOf(cardB, 'Leader')).toHaveText('you');
  await expect(reserved(a)).toHaveCount(0);

  // the end: Bob wins, both see the sale, Bob's points are spent
  await expect(toasts(b).filter({ hasText: 'You won the bid!' })).toContainText(`${itemName} is yours for 150 kingdom points`, { timeout: 20_000 });
  await expect(toasts(a).filter({ hasText: 'Sale Completed!' })).toContainText(`${itemName} was sold to ${bob.username} for 150`);
  await expect(toasts(a).filter({ hasText: 'You won the bid!' })).toHaveCount(0);
  await expect(b.getByRole('list', { name: 'Finished', exact: true }).getByRole('listitem').filter({ hasText: itemName })).toContainText(`Won by ${bob.username} for 150`);
  await expect(balance(b)).toHaveText('9,850 kingdom points');
  await expect(balance(a)).toHaveText('10,000 kingdom points');
});

test('a bid the item’s ranks exclude is explained before sending', async ({ page }) => {
  const admin = await tokenOf(ADMIN);
  const player = await register();
  await api('points/transactions', { username: player.username, delta: 1_000, reason: 'Auction test' }, admin);
  const itemName = `Council relic ${uniqueTag()}`;
  await api('store/items', { itemName, start_price: 10, minIncrement: 5, duration: 600, extendWindow: 0, maxExtensions: 0, eligibility: { ranks: ['council'] } }, admin);
  await openStore(page, player);
  const card = page.getByRole('article', { name: itemName, exact: true });
  // explained before sending
  await expect(card.getByText('Only some ranks may bid on this item.', { exact: true })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Bid', exact: true })).toBeDisabled();
});

test('an item that starts while the store is open plays the chime: the page’s own security policy lets it load', async ({ page }) => {
  // every media load the page's policy blocks, and how each play() ended
  await page.addInitScript(() => {
    const seen = { blocked: [] as string[], plays: [] as string[] };
    (window as unknown as { chime: typeof seen }).chime = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.blocked.push(`${e.effectiveDirective} ${e.blockedURI}`));
    const play = HTMLMediaElement.prototype.play;
    HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
      const started = play.call(this);
      started.then(
        () => seen.plays.push('played'),
        (error: Error) => seen.plays.push(error.name),
      );
      return started;
    };
  });
  const player = await register();
  await openStore(page, player);
  const itemName = `Chime ${uniqueTag()}`;
  await api('store/items', { itemName, start_price: 10, minIncrement: 1, duration: 600, extendWindow: 0, maxExtensions: 0 }, await tokenOf(ADMIN));
  await expect(page.getByRole('article', { name: itemName, exact: true })).toBeVisible();
  const chime = () => page.evaluate(() => (window as unknown as { chime: { blocked: string[]; plays: string[] } }).chime);
  await expect.poll(async () => (await chime()).plays.length).toBeGreaterThan(0);
  // the sign-in's click lets the page play sound; a blocked blob: source would end NotSupportedError
  expect(await chime()).toEqual({ blocked: [], plays: ['played'] });
});

test('any amount from the minimum up can be bid, not only the increment’s steps (213 on an item of +10)', async ({ page }) => {
  const admin = await tokenOf(ADMIN);
  const player = await register();
  await api('points/transactions', { username: player.username, delta: 1_000, reason: 'Auction test' }, admin);
  const itemName = `Off-step relic ${uniqueTag()}`;
  await api('store/items', { itemName, start_price: 100, minIncrement: 10, duration: 600, extendWindow: 0, maxExtensions: 0 }, admin);
  await openStore(page, player);
  const card = await liveCard(page, itemName);
  await card.getByRole('textbox', { name: /^Bid amount for / }).fill('213');
  await card.getByRole('button', { name: 'Bid', exact: true }).click();
  await expect(valueOf(card, 'Current bid')).toHaveText('213');
  await expect(reserved(page)).toHaveText('213 reserved');
});

const pageTexts = (locale: string) => JSON.parse(readFileSync(`src/locales/${locale}.json`, 'utf8')) as Record<string, string>;

test('amounts are read as the reader’s language writes them: a French grant of "10 000", an Italian bid of "1.200"; arrow keys step by the increment', async ({ page, browser }) => {
  const admin = await tokenOf(ADMIN);
  const council = await accountWithRank('council');
  const player = await register();
  await api('account/locale', { locale: 'fr' }, await tokenOf(council));
  await api('account/locale', { locale: 'it' }, await tokenOf(player));

  // French: a space between the thousands (the browser's number field read "10 000" as empty)
  const fr = pageTexts('fr');
  await acceptCookies(page);
  await signIn(page, council);
  await page.goto('/my-kingdom/kingdom-points/point-management');
  await page.getByLabel(fr['points.player'], { exact: true }).fill(player.username);
  await page.getByLabel(fr['points.amount'], { exact: true }).fill('10 000');
  await page.getByLabel(fr['points.reason'], { exact: true }).fill('Récompense KvK');
  await page.getByRole('button', { name: fr['points.grant'], exact: true }).click();
  await expect(page.getByTestId('change-done')).toContainText('10\u202f000');
  const players = await api<{ players: { username: string; balance: number }[] }>(`points/players?q=${player.username}`, undefined, admin, 'GET');
  expect(players.players.find((p) => p.username === player.username)?.balance).toBe(10_000);

  // Italian: a point between the thousands
  const it = pageTexts('it');
  const itemName = `Reliquia ${uniqueTag()}`;
  await api('store/items', { itemName, start_price: 100, minIncrement: 10, duration: 600, extendWindow: 0, maxExtensions: 0 }, admin);
  const playerPage = await (await browser.newContext()).newPage();
  await acceptCookies(playerPage);
  await signIn(playerPage, player);
  await playerPage.goto('/my-account/kingdom-store');
  const card = await liveCard(playerPage, itemName);
  const box = card.getByRole('textbox', { name: it['store.bidAmount'].replace('{itemName}', itemName), exact: true });
  await box.fill('1.200');
  await card.getByRole('button', { name: it['store.bid'], exact: true }).click();
  // (Italian writes four digits without a separator: 1200)
  await expect(valueOf(card, it['store.currentBid'])).toHaveText('1200');
  // the arrow keys: from empty, the minimum (1.210); then one increment at a time
  await box.press('ArrowUp');
  await expect(box).toHaveValue('1210');
  await box.press('ArrowUp');
  await expect(box).toHaveValue('1220');
  await box.press('ArrowDown');
  await box.press('ArrowDown');
  await expect(box).toHaveValue('1210');
  // no higher than the player can bid (10 000, the 1 200 they lead with included); text that is no number starts again at the minimum
  await box.fill('999999999');
  await box.press('ArrowUp');
  await expect(box).toHaveValue('10000');
  await box.fill('abc');
  await box.press('ArrowUp');
  await expect(box).toHaveValue('1210');
});

import { expect, test, type Page } from '@playwright/test';
import { ADMIN, acceptCookies, api, balance, chooseFile, connection, dataRows, liveCard, register, sidebar, signIn, tokenOf, uniqueTag } from './support';

test('a grant reaches the player’s open page at once, with the locale’s thousands separators', async ({ page }) => {
  await acceptCookies(page);
  const player = await register();
  await signIn(page, player);
  const points = balance(page);
  await expect(points).toHaveText('0 kingdom points');
  await expect(connection(page)).toHaveText('Connected');

  const admin = await tokenOf(ADMIN);
  const answer = await api<{ result: boolean; balance: number }>('points/transactions', { username: player.username, delta: 1_234_567, reason: 'KvK reward' }, admin);
  expect(answer).toMatchObject({ result: true, balance: 1_234_567 });
  await expect(points).toHaveText('1,234,567 kingdom points'); // no reload

  // French groups digits with a narrow no-break space
  await page.getByRole('combobox', { name: 'Language' }).selectOption('fr');
  await expect(sidebar(page, 'Barre latérale').getByText(/^Points du royaume/)).toContainText('1\u202f234\u202f567');
});

async function openAs(page: Page, account: { email: string; password: string }, path: string) {
  await acceptCookies(page);
  await signIn(page, account);
  await page.goto(path);
}

test('deducting more than a balance says so; deducting into points held by a leading bid says that', async ({ page }) => {
  const admin = await tokenOf(ADMIN);
  const player = await register();
  await openAs(page, ADMIN, '/my-kingdom/kingdom-points/point-management');
  const change = page.getByRole('form', { name: 'Grant or deduct points', exact: true });
  await change.getByLabel('Player (username)').fill(player.username);
  await change.getByLabel('Reason (kept in the ledger)').fill('Fine');
  // a sign in the field would turn the button around ("-25" and Deduct granted 25): refused, nothing booked
  for (const button of ['Deduct', 'Grant']) {
    await change.getByLabel('Points', { exact: true }).fill('-25');
    await change.getByRole('button', { name: button, exact: true }).click();
    await expect(change.getByText('Enter the points without a sign: Grant adds them, Deduct takes them away.')).toBeVisible();
  }
  const players = await api<{ players: { username: string; balance: number }[] }>(`points/players?q=${player.username}`, undefined, admin, 'GET');
  expect(players.players[0]?.balance).toBe(0);
  await change.getByLabel('Points', { exact: true }).fill('50');
  await change.getByRole('button', { name: 'Deduct' }).click();
  await expect(change.getByRole('alert')).toHaveText('This would deduct more than the balance.');

  // 300 points, 200 of them held by a leading bid: taking 150 is not more than the balance, but into the held points
  await api('points/transactions', { username: player.username, delta: 300, reason: 'Start' }, admin);
  const itemName = `Held ${uniqueTag()}`;
  await api('store/items', { itemName, start_price: 200, minIncrement: 1, duration: 600, extendWindow: 0, maxExtensions: 0 }, admin);
  const bidder = await (await page.context().browser()!.newContext()).newPage();
  await openAs(bidder, player, '/my-account/kingdom-store');
  const card = await liveCard(bidder, itemName);
  await card.getByRole('textbox', { name: /^Bid amount for / }).fill('200');
  await card.getByRole('button', { name: 'Bid', exact: true }).click();
  await expect(sidebar(bidder)).toContainText('200');
  await expect.poll(async () => (await api<{ players: { username: string; reserved: number }[] }>(`points/players?q=${player.username}`, undefined, admin, 'GET')).players[0]?.reserved).toBe(200);

  await change.getByLabel('Points', { exact: true }).fill('150');
  await change.getByRole('button', { name: 'Deduct' }).click();
  await expect(change.getByRole('alert')).toHaveText('This would take the balance below the points reserved by leading bids.');
});

test('transactions: a From date after To is said at once, the old rows go and nothing is asked of the server', async ({ page }) => {
  const admin = await tokenOf(ADMIN);
  const player = await register();
  await api('points/transactions', { username: player.username, delta: 10, reason: 'Dated' }, admin);
  await page.clock.install();
  const asked: URL[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname === '/points/transactions') asked.push(url);
  });
  await openAs(page, ADMIN, '/my-kingdom/kingdom-points/point-management');
  const list = page.getByRole('region', { name: 'Transactions', exact: true });
  await list.getByLabel('Player').fill(player.username);
  await page.clock.runFor(1_000);
  await expect(dataRows(list.getByRole('table'))).toHaveCount(1);

  await list.getByLabel('To').fill('2026-03-01');
  await list.getByLabel('From').fill('2026-03-10');
  await page.clock.runFor(1_000); // well past the filters' pause
  await expect(list.getByRole('alert')).toHaveText('The From date is after the To date: choose a From date on or before the To date.');
  await expect(dataRows(list.getByRole('table'))).toHaveCount(0);
  await expect(list.getByText(/^(There is no transaction yet\.|No transaction matches these filters\.)$/)).toHaveCount(0);
  await expect(list.getByRole('button', { name: 'Export CSV' })).toBeDisabled();

  // corrected, the list asks again (and was never asked with From after To)
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/points/transactions' && new URL(r.url()).searchParams.has('from'));
  await list.getByLabel('From').fill('2026-02-01');
  await page.clock.runFor(1_000);
  await answered;
  await expect(list.getByRole('alert')).toHaveCount(0);
  await expect(list.getByText(/^(There is no transaction yet\.|No transaction matches these filters\.)$/)).toHaveText('No transaction matches these filters.');
  const backwards = asked.filter((u) => u.searchParams.has('from') && u.searchParams.has('to') && Number(u.searchParams.get('from')) > Number(u.searchParams.get('to')));
  expect(backwards).toEqual([]);
});

test('bulk award: a "governor id" column may hold usernames, a "player" column is accepted, and each row says how it matched', async ({ page }) => {
  const a = await register();
  const b = await register();
  await openAs(page, ADMIN, '/my-kingdom/kingdom-points/point-management');
  const bulk = page.getByRole('region', { name: 'Bulk award from a file', exact: true });
  const rows = dataRows(bulk.getByRole('table'));
  const choose = (file: { name: string; mimeType: string; buffer: Buffer }) => chooseFile(bulk.getByRole('button', { name: 'Choose a file…', exact: true }), file);

  const underId = ['Governor ID,Amount,Reason', `${a.playerid},5,By id`, `${b.username},7,By name`].join('\n');
  await choose({ name: 'awards.csv', mimeType: 'text/csv', buffer: Buffer.from(underId) });
  await expect(bulk.getByText(/ valid, .* errors?\.$/)).toHaveText('2 rows are valid, 0 rows have errors.');
  await expect(rows.nth(0).getByText(/^by (governor id|username)$/)).toHaveText('by governor id');
  await expect(rows.nth(1).getByText(/^by (governor id|username)$/)).toHaveText('by username');
  await expect(rows.nth(1)).toContainText(b.username);

  const underPlayer = ['Player;Points;Reason', `${b.playerid};3;Scout`, `${a.username};4;Rally`].join('\n');
  await choose({ name: 'players.csv', mimeType: 'text/csv', buffer: Buffer.from(underPlayer) });
  await expect(bulk.getByText(/ valid, .* errors?\.$/)).toHaveText('2 rows are valid, 0 rows have errors.');
  await expect(rows.nth(0).getByText(/^by (governor id|username)$/)).toHaveText('by governor id');
  await expect(rows.nth(1).getByText(/^by (governor id|username)$/)).toHaveText('by username');
  await expect(bulk.getByText(/^This file was already applied/)).toHaveCount(0);
  // a double-click applies once and says so (its second click came before the button was disabled)
  await bulk.getByRole('button', { name: 'Apply 2 changes' }).dblclick();
  await expect(bulk.getByRole('status').filter({ hasText: /^Applied / })).toHaveText('Applied 2 changes.');
  await expect(bulk.getByRole('alert')).toHaveCount(0);

  // the same file once more (another name): the preview says it was applied, by whom, before anything is paid again
  await choose({ name: 'players (1).csv', mimeType: 'text/csv', buffer: Buffer.from(underPlayer) });
  await expect(bulk.getByText(/^This file was already applied/)).toContainText(`This file was already applied once, last on`);
  await expect(bulk.getByText(/^This file was already applied/)).toContainText(`by ${ADMIN.username} (7 points in all). Applying it again pays every row again.`);
});

test('store history: with no filter the empty text says nothing has finished yet; with a filter, that nothing matches; From after To is said', async ({ page }) => {
  // an empty history (the test server's history holds other tests' items), answered by the page's own request
  await page.route(
    (url) => url.pathname === '/store/history',
    (route) => route.fulfill({ json: { result: true, entries: [], sales: [], page: 1, pageSize: 50, total: 0 } }),
  );
  await openAs(page, ADMIN, '/my-kingdom/kingdom-points/store-history');
  await expect(page.getByText(/^(No item has finished yet\.|No finished item matches these filters\.)$/)).toHaveText('No item has finished yet.');
  await page.getByLabel('Buyer').fill('someone');
  await expect(page.getByText(/^(No item has finished yet\.|No finished item matches these filters\.)$/)).toHaveText('No finished item matches these filters.');
  await page.getByLabel('To').fill('2026-03-01');
  await page.getByLabel('From').fill('2026-03-10');
  await expect(page.getByRole('alert')).toHaveText('The From date is after the To date: choose a From date on or before the To date.');
  await expect(page.getByText(/^(No item has finished yet\.|No finished item matches these filters\.)$/)).toHaveCount(0);
});

test('tabs: no focus ring after a mouse click, a ring for the keyboard', async ({ page }) => {
  const player = await register();
  await openAs(page, player, '/my-account/profile');
  const outline = (name: string) => page.getByRole('tab', { name }).evaluate((el) => (el === document.activeElement ? getComputedStyle(el).outlineStyle : 'not focused'));
  await page.getByRole('tab', { name: 'Kills distribution' }).click();
  expect(await outline('Kills distribution')).toBe('none');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'My Bidding History' })).toBeFocused();
  expect(await outline('My Bidding History')).toBe('solid');
});

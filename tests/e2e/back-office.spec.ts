import { expect, test, type Page } from '@playwright/test';
import { ADMIN, acceptCookies, accountWithRank, api, balance, cell, chooseFile, connection, dataRows, liveCard, register, signIn, toasts, tokenOf, uniqueTag } from './support';

async function open(page: Page, account: { email: string; password: string }, path: string) {
  await acceptCookies(page);
  await signIn(page, account);
  await page.goto(path);
}

test('a council member grants points on Point Management and the player’s open page shows them at once', async ({ browser }) => {
  const player = await register();
  const council = await accountWithRank('council');
  const p = await (await browser.newContext()).newPage();
  const c = await (await browser.newContext()).newPage();
  await open(p, player, '/my-account/profile');
  await expect(connection(p)).toHaveText('Connected');
  const points = balance(p);
  await expect(points).toHaveText('0 kingdom points');

  await open(c, council, '/my-kingdom/kingdom-points/point-management');
  await expect(c.getByRole('heading', { name: 'Point Management' })).toBeVisible();
  await c.getByRole('searchbox', { name: 'Find a player' }).fill(player.playerid);
  const row = c.getByRole('row').filter({ hasText: player.username });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: 'Select', exact: true }).click();
  await expect(c.getByLabel('Player (username)', { exact: true })).toHaveValue(player.username);

  // the reason is required: nothing is sent without it
  await c.getByLabel('Points', { exact: true }).fill('1250');
  await c.getByRole('button', { name: 'Grant', exact: true }).click();
  await expect(c.getByRole('form', { name: 'Grant or deduct points', exact: true }).getByRole('alert')).toHaveText('Please give a reason: every change of points is kept with its reason.');
  await expect(points).toHaveText('0 kingdom points');

  await c.getByLabel('Reason (kept in the ledger)', { exact: true }).fill('Fort defence');
  await c.getByRole('button', { name: 'Grant', exact: true }).click();
  await expect(c.getByRole('status').filter({ hasText: /^(Granted|Deducted) / })).toHaveText(`Granted 1,250 kingdom points to ${player.username}. Balance now: 1,250.`);
  await expect(points).toHaveText('1,250 kingdom points'); // live, no reload

  await c.getByLabel('Points', { exact: true }).fill('250');
  await c.getByLabel('Reason (kept in the ledger)', { exact: true }).fill('Missed rally');
  await c.getByRole('button', { name: 'Deduct', exact: true }).click();
  await expect(c.getByRole('status').filter({ hasText: /^(Granted|Deducted) / })).toHaveText(`Deducted 250 kingdom points from ${player.username}. Balance now: 1,000.`);
  await expect(points).toHaveText('1,000 kingdom points');
  await expect(await cell(row, 'Balance')).toHaveText('1,000');

  // both are in the transaction list, newest first, with who did them
  await c.getByLabel('Player', { exact: true }).fill(player.username);
  const transactions = c.getByRole('region', { name: 'Transactions', exact: true });
  const tx = dataRows(transactions.getByRole('table'));
  await expect(tx).toHaveCount(2);
  await expect(tx.first()).toContainText('Missed rally');
  await expect(await cell(tx.first(), 'Points')).toHaveText('-250');
  await expect(tx.first()).toContainText(council.username);
  await c.getByLabel('Kind', { exact: true }).selectOption('grant');
  await expect(tx).toHaveCount(1);
  await expect(tx.first()).toContainText('Fort defence');

  // the export carries the same filters
  const download = c.waitForEvent('download');
  await transactions.getByRole('button', { name: 'Export CSV', exact: true }).click();
  const file = await download;
  const csv = await (await file.createReadStream()).toArray();
  const text = Buffer.concat(csv).toString('utf8');
  expect(text).toContain('Fort defence');
  expect(text).not.toContain('Missed rally');
});

test('bulk award: a file with bad rows shows an error on each and cannot be applied; a good file applies', async ({ page }) => {
  const admin = await tokenOf(ADMIN);
  const a = await register();
  const b = await register();
  await open(page, ADMIN, '/my-kingdom/kingdom-points/point-management');
  const bulk = page.getByRole('region', { name: 'Bulk award from a file', exact: true });

  const bad = ['username,amount,reason', `${a.username},100,Rally leader`, 'nobody-by-this-name,50,Ghost', `${b.username},ten,Typo`, `${b.username},20,`].join('\n');
  await chooseFile(bulk.getByRole('button', { name: 'Choose a file…', exact: true }), { name: 'awards.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) });
  const rows = dataRows(bulk.getByRole('table'));
  await expect(rows).toHaveCount(4);
  await expect(bulk.getByText(/ valid, .* errors?\.$/)).toHaveText('1 row is valid, 3 rows have errors.');
  await expect(rows.nth(0)).toHaveAttribute('data-valid', 'true');
  for (const i of [1, 2, 3]) {
    await expect(rows.nth(i)).toHaveAttribute('data-valid', 'false');
    const check = await cell(rows.nth(i), 'Check');
    await expect(check).not.toBeEmpty();
    await expect(check).not.toHaveText('OK');
  }
  await expect(bulk.getByRole('button', { name: /^Apply \d+ changes?$/ })).toBeDisabled();

  const ok = ['username,amount,reason', `${a.username},100,Rally leader`, `${b.username},250,"Scout, top of the week"`].join('\n');
  await chooseFile(bulk.getByRole('button', { name: 'Choose a file…', exact: true }), { name: 'awards-fixed.csv', mimeType: 'text/csv', buffer: Buffer.from(ok) });
  await expect(bulk.getByText(/ valid, .* errors?\.$/)).toHaveText('2 rows are valid, 0 rows have errors.');
  await expect(rows.nth(1)).toContainText('Scout, top of the week');
  await expect(bulk.getByRole('button', { name: /^Apply \d+ changes?$/ })).toBeEnabled();
  await bulk.getByRole('button', { name: /^Apply \d+ changes?$/ }).click();
  await expect(bulk.getByRole('status').filter({ hasText: /^Applied / })).toHaveText('Applied 2 changes.');
  await expect(rows).toHaveCount(0);

  const players = await api<{ players: { username: string; balance: number }[] }>(`points/players?q=${a.username}`, undefined, admin, 'GET');
  expect(players.players.find((p) => p.username === a.username)?.balance).toBe(100);
  const others = await api<{ players: { username: string; balance: number }[] }>(`points/players?q=${b.username}`, undefined, admin, 'GET');
  expect(others.players.find((p) => p.username === b.username)?.balance).toBe(250);
});

test('My Bidding History: empty at first, then the item the player won with its price', async ({ page }) => {
  test.setTimeout(60_000);
  const admin = await tokenOf(ADMIN);
  const player = await register();
  await open(page, player, '/my-account/profile');
  await page.getByRole('tab', { name: 'My Bidding History' }).click();
  await expect(page.getByRole('tabpanel', { name: 'My Bidding History', exact: true }).getByText('You do not have any winning bids!', { exact: true })).toBeVisible();
  // the kills tab says plainly that no scan has seen this player's governor yet
  await page.getByRole('tab', { name: 'Kills distribution' }).click();
  await expect(page.getByRole('tabpanel', { name: 'Kills distribution', exact: true }).getByText(`No scan has seen your governor (${player.playerid}) yet.`, { exact: false })).toBeVisible();

  await api('points/transactions', { username: player.username, delta: 5_000, reason: 'History test' }, admin);
  const itemName = `Banner ${uniqueTag()}`;
  const created = await api<{ result: boolean }>('store/items', { itemName, start_price: 1_200, minIncrement: 10, duration: 10, extendWindow: 0, maxExtensions: 0 }, admin);
  expect(created.result).toBe(true);
  await page.goto('/my-account/kingdom-store');
  await expect(connection(page)).toHaveText('Connected');
  // (the live grid renders the rows near the screen: other tests' live items may put this one below)
  const card = await liveCard(page, itemName);
  await card.getByRole('textbox', { name: /^Bid amount for / }).fill('1200');
  await card.getByRole('button', { name: 'Bid', exact: true }).click();
  await expect(toasts(page).filter({ hasText: 'You won the bid!' })).toBeVisible({ timeout: 20_000 });

  await page.goto('/my-account/profile');
  await page.getByRole('tab', { name: 'My Bidding History' }).click();
  const won = dataRows(page.getByRole('tabpanel', { name: 'My Bidding History', exact: true }).getByRole('table'));
  await expect(won).toHaveCount(1);
  await expect(won.first()).toContainText(itemName);
  await expect(await cell(won.first(), 'Price')).toHaveText('1,200');
});

test('kingdom settings: closing the store shows players a notice; groups the council manages appear on the player’s Groups page', async ({ browser }) => {
  const admin = await tokenOf(ADMIN);
  const player = await register();
  const council = await accountWithRank('council');
  const c = await (await browser.newContext()).newPage();
  const p = await (await browser.newContext()).newPage();
  await open(p, player, '/my-account/groups');
  await expect(p.getByRole('main').getByText('You are not in any group.', { exact: true })).toBeVisible();

  await open(c, council, '/my-kingdom/settings');
  const groupName = `Scouts ${uniqueTag()}`;
  await c.getByRole('textbox', { name: 'Group name', exact: true }).fill(groupName);
  await c.getByRole('button', { name: 'Create group', exact: true }).click();
  const group = c.getByRole('listitem').filter({ has: c.getByRole('heading', { name: new RegExp(`^${groupName} \\(\\d+\\)$`) }) });
  await group.getByPlaceholder('Username').fill(player.username);
  await group.getByRole('button', { name: 'Add' }).click();
  await expect(group.getByRole('list').getByRole('listitem').getByText(player.username, { exact: true })).toBeVisible();
  await p.reload();
  await expect(p.getByRole('main').getByRole('listitem')).toHaveText(groupName);

  try {
    await c.getByRole('checkbox', { name: /^The store is open/ }).click();
    await c.getByRole('button', { name: 'Save settings' }).click();
    await expect(c.getByRole('status').filter({ hasText: 'The settings were saved.' })).toHaveText('The settings were saved.');
    await p.goto('/my-account/kingdom-store');
    await expect(p.getByRole('alert').filter({ hasText: 'Bids are not accepted until the council opens the store again.' })).toContainText('The store is closed');
  } finally {
    await api('kingdom/settings', { storeOpen: true }, admin);
  }
  await p.reload();
  await expect(p.getByRole('article').or(p.getByText('No auction is running right now.', { exact: true })).first()).toBeVisible();
  await expect(p.getByRole('alert').filter({ hasText: 'Bids are not accepted until the council opens the store again.' })).toHaveCount(0);
});

// a 1×1 transparent PNG
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

test('store management: create in a dialog, upload an image, edit a scheduled item, duplicate one under its own name', async ({ page }) => {
  const council = await accountWithRank('council');
  await open(page, council, '/my-kingdom/kingdom-points/store-management');
  // the page opens on the items; creation waits behind a button
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.getByRole('button', { name: 'New item' }).click();
  const dialog = page.getByRole('dialog', { name: 'New item' });
  const form = dialog;
  await expect(form.getByLabel('Duration (minutes)')).not.toHaveValue('');

  // a file that is not an image is refused before upload
  const upload = dialog.getByRole('button', { name: 'Upload', exact: true });
  await chooseFile(upload, { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expect(dialog.getByRole('alert')).toHaveText('Choose a PNG, JPEG, WebP or GIF image.');
  await chooseFile(upload, { name: 'relic.png', mimeType: 'image/png', buffer: PNG });
  await expect(form.getByLabel('Image address (https://…)', { exact: true })).toHaveValue(/^\/uploads\/.+\.png$/);
  const preview = dialog.getByRole('img', { name: 'Image preview', exact: true });
  await expect(preview).toBeVisible();
  expect(await preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);

  const itemName = `Relic ${uniqueTag()}`;
  await form.getByLabel('Item name').fill(itemName);
  const p2 = (n: number) => String(n).padStart(2, '0');
  // a start in the past is said in the form's words, and nothing is sent
  await form.getByLabel('Start', { exact: true }).fill('2020-01-01T10:00');
  await dialog.getByRole('button', { name: 'Create item' }).click();
  await expect(dialog.getByText('The start must be a date and time from now until the end of 2100.', { exact: true })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: itemName })).toHaveCount(0);
  const later = new Date(Date.now() + 3 * 3600_000);
  const laterInput = `${later.getFullYear()}-${p2(later.getMonth() + 1)}-${p2(later.getDate())}T${p2(later.getHours())}:${p2(later.getMinutes())}`;
  await form.getByLabel('Start', { exact: true }).fill(laterInput);
  await dialog.getByRole('button', { name: 'Create item' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  const row = page.getByRole('row').filter({ hasText: itemName });
  await expect(row).toHaveAttribute('data-state', 'scheduled');

  await row.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: `Edit ${itemName}` });
  await expect(edit.getByLabel('Item name')).toHaveValue(itemName);
  await edit.getByLabel('Item name').fill(`${itemName} II`);
  await edit.getByLabel('Start price').fill('777');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  const edited = page.getByRole('row').filter({ hasText: `${itemName} II` });
  await expect(await cell(edited, 'Amount')).toHaveText('777', { useInnerText: true });

  // Duplicate fills a new item's form from it, under a name of its own; nothing exists until it is saved
  await edited.getByRole('button', { name: 'Duplicate' }).click();
  const copyDialog = page.getByRole('dialog', { name: `New item from ${itemName} II` });
  await expect(copyDialog.getByLabel('Item name')).toHaveValue(`${itemName} II (copy)`);
  await expect(copyDialog.getByLabel('Start price')).toHaveValue('777');
  // a scheduled item's copy is scheduled alike (it would otherwise start as soon as it is saved)
  await expect(copyDialog.getByLabel('Start', { exact: true })).toHaveValue(laterInput);
  await copyDialog.getByRole('button', { name: 'Close' }).first().click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('row').filter({ hasText: `${itemName} II (copy)` })).toHaveCount(0);
  await edited.getByRole('button', { name: 'Duplicate' }).click();
  await copyDialog.getByRole('button', { name: 'Create item' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('row').filter({ hasText: `${itemName} II (copy)` })).toHaveCount(1);
  await expect(page.getByRole('row').filter({ hasText: `${itemName} II` })).toHaveCount(2);
});

test('store management: the who-may-bid hint follows the ticks; errors use the field’s unit and the locale’s numbers, here and in Kingdom Settings', async ({ page }) => {
  const council = await accountWithRank('council');
  await open(page, council, '/my-kingdom/kingdom-points/store-management');
  await page.getByRole('button', { name: 'New item' }).click();
  const dialog = page.getByRole('dialog', { name: 'New item' });
  const hint = dialog.getByText(/may bid\.$/);
  await expect(hint).toHaveText('No rank ticked: every rank may bid.');
  await dialog.getByRole('checkbox', { name: 'Council' }).click();
  await expect(hint).toHaveText('Only Council may bid.');
  await dialog.getByRole('checkbox', { name: 'Admin' }).click();
  await expect(hint).toHaveText('Only Council or Admin may bid.');
  await dialog.getByLabel('Groups (comma separated, optional)').fill('Vanguard, Scouts');
  await expect(hint).toHaveText('Only Council or Admin, or members of Vanguard or Scouts, may bid.');
  await dialog.getByRole('checkbox', { name: 'Council' }).click();
  await dialog.getByRole('checkbox', { name: 'Admin' }).click();
  await expect(hint).toHaveText('Only members of Vanguard or Scouts may bid.');

  // 31 days in a field of minutes: the limit in minutes, with thousands separators
  await dialog.getByLabel('Item name').fill('Too long an auction');
  await dialog.getByLabel('Duration (minutes)').fill('44640');
  await dialog.getByLabel('Extend window (seconds)').fill('7200');
  await dialog.getByRole('button', { name: 'Create item' }).click();
  await expect(dialog.getByText('The duration must be from 0.17 to 43,200 minutes.')).toBeVisible();
  await expect(dialog.getByText('The extend window must be a whole number of seconds from 0 to 3,600.')).toBeVisible();
  await expect(dialog).not.toContainText('2592000');
  await expect(dialog).toBeVisible(); // nothing was created

  // in French: French words and French digit groups
  await page.keyboard.press('Escape');
  await page.getByRole('combobox', { name: 'Language' }).selectOption('fr');
  await page.getByRole('button', { name: 'Nouvel objet' }).click();
  const fr = page.getByRole('dialog', { name: 'Nouvel objet' });
  await fr.getByLabel('Durée (minutes)').fill('44640');
  await fr.getByRole('button', { name: 'Créer l’objet' }).click();
  await expect(fr.getByText('La durée doit être de 0,17 à 43\u202f200 minutes.')).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByRole('combobox', { name: 'Langue', exact: true }).selectOption('en');

  // Kingdom Settings says the same for its default duration, and saves nothing
  await page.goto('/my-kingdom/settings');
  const duration = page.getByRole('main').getByLabel('Duration (minutes)');
  await expect(duration).not.toHaveValue('');
  await duration.fill('44640');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('main').getByRole('alert')).toHaveText('The duration must be from 0.17 to 43,200 minutes.');
  await expect(page.getByRole('status').filter({ hasText: 'The settings were saved.' })).toHaveCount(0);
});

test('store management on a phone: every row’s actions are on screen, Confirm fits its button, a broken image address shows a placeholder', async ({ browser }) => {
  const admin = await tokenOf(ADMIN);
  const council = await accountWithRank('council');
  const itemName = `Golden Banner of the Northern Marches, legendary edition ${uniqueTag()}`;
  const created = await api<{ result: boolean }>('store/items', { itemName, start_price: 10, minIncrement: 1, startsAt: Date.now() + 3_600_000, duration: 600, extendWindow: 0, maxExtensions: 0 }, admin);
  expect(created.result).toBe(true);
  const page = await (await browser.newContext({ viewport: { width: 375, height: 800 } })).newPage();
  await open(page, council, '/my-kingdom/kingdom-points/store-management');
  const row = page.getByRole('row').filter({ hasText: itemName });
  for (const name of ['Edit', 'Duplicate', 'Cancel']) {
    const button = row.getByRole('button', { name, exact: true });
    await button.scrollIntoViewIfNeeded();
    await expect(button).toBeInViewport({ ratio: 1 });
  }
  await row.getByRole('button', { name: 'Cancel', exact: true }).click();
  const confirm = row.getByRole('button', { name: 'Confirm: cancel it' });
  await expect(confirm).toBeInViewport({ ratio: 1 });
  // one line of text, inside its button
  expect(
    await confirm.evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return { lines: range.getBoundingClientRect().height < 24, inside: el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight };
    }),
  ).toEqual({ lines: true, inside: true });
  // leaving it unconfirmed takes nothing back
  await page.getByRole('heading', { name: 'Store Management' }).click();
  await expect(row.getByRole('button', { name: 'Cancel', exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'New item' }).click();
  const dialog = page.getByRole('dialog', { name: 'New item' });
  await dialog.getByLabel('Image address (https://…)').fill('https://127.0.0.1:1/no-such-image-with-a-rather-long-name.png');
  const placeholder = dialog.getByRole('img', { name: 'No image could be loaded from this address.' });
  await expect(placeholder).toBeVisible();
  expect(await placeholder.boundingBox()).toMatchObject({ width: 40, height: 40 });
  await expect(dialog.getByRole('alert')).toHaveText('No image could be loaded from this address.');
  await expect(page.getByRole('img', { name: 'Image preview', exact: true })).toHaveCount(0);
  // the dialog fits the phone's width
  const box = await dialog.boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(375);
});

test('focus goes back to the button that opened a dialog or the menu, when it closes (the next Tab goes on from there)', async ({ page }) => {
  const council = await accountWithRank('council');
  await open(page, council, '/my-kingdom/kingdom-points/store-management');
  const newItem = page.getByRole('button', { name: 'New item' });
  await newItem.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'New item' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(newItem).toBeFocused();

  await page.setViewportSize({ width: 375, height: 800 });
  const menu = page.getByRole('button', { name: 'Open menu', exact: true });
  await menu.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(menu).toBeFocused();
});

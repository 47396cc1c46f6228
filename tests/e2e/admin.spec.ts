import { readSheet } from 'read-excel-file/node';
import { expect, test } from '@playwright/test';
import { ADMIN, acceptCookies, api, dataRows, newAccount, register, sidebar, signIn, toasts, tokenOf, valueOf } from './support';

// some tests here read the pages in Arabic, and the language is the account's: the admin is English
// again after every test, even one that failed halfway (the next tests read English labels)
test.afterEach(async () => {
  await api('account/locale', { locale: 'en' }, await tokenOf(ADMIN));
});

test.use({ locale: 'en-US' });

test('users page: search by name and governor id, change a rank, disable (the player is signed out at once), enable', async ({ page, browser }) => {
  const player = await register(newAccount('usr'));
  // the player has the store open in their own browser
  const theirs = await browser.newContext();
  const playerPage = await theirs.newPage();
  await acceptCookies(playerPage);
  await signIn(playerPage, player);
  await playerPage.goto('/my-account/kingdom-store');
  await expect(playerPage.getByText('Connected', { exact: true })).toBeVisible();

  await acceptCookies(page);
  await signIn(page, ADMIN);
  await page.goto('/admin/users');
  await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();

  const search = page.getByLabel('Search by name, email or governor ID');
  await search.fill(player.playerid);
  const row = dataRows(page.getByRole('main').getByRole('table'));
  await expect(row).toHaveCount(1);
  await expect(row).toHaveAttribute('data-username', player.username);
  await search.fill(player.username);
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(player.email);
  await expect(valueOf(row, 'Last seen')).not.toHaveText('Never');

  // change the rank: the server has it
  await page.getByLabel(`Rank of ${player.username}`).selectOption('council');
  await expect(page.getByText(`${player.username} is now Council.`)).toBeVisible();
  const admin = await tokenOf(ADMIN);
  const listed = await api<{ users: { rank: string; disabled: boolean }[] }>(`accounts?q=${encodeURIComponent(player.username)}`, undefined, admin, 'GET');
  expect(listed.users[0].rank).toBe('council');

  // disable, after a confirmation: the player's open page is signed out without them doing anything
  await row.getByRole('button', { name: 'Disable' }).click();
  const dialog = page.getByRole('dialog', { name: 'Disable this account?' });
  await expect(dialog).toContainText(player.username);
  await dialog.getByRole('button', { name: 'Disable' }).click();
  await expect(page.getByText(`${player.username} is disabled and was signed out everywhere.`)).toBeVisible();
  await expect(row).toContainText('Disabled');
  await playerPage.waitForURL(/\/signin/);
  // and cannot sign in again
  await playerPage.getByLabel('Email', { exact: true }).fill(player.email);
  await playerPage.getByLabel('Password', { exact: true }).fill(player.password);
  await playerPage.getByRole('button', { name: 'Login' }).click();
  await expect(toasts(playerPage)).toContainText('This account is disabled. Please contact an administrator.');

  // enabled: they sign in again
  await row.getByRole('button', { name: 'Enable' }).click();
  await expect(page.getByText(`${player.username} can sign in again.`)).toBeVisible();
  await expect(row).not.toContainText('Disabled');
  await playerPage.getByRole('button', { name: 'Login' }).click();
  await playerPage.waitForURL((url) => !url.pathname.startsWith('/signin'));
  await theirs.close();
});

test('admin dashboard: health at a glance and the audit log, filtered and exported as CSV and XLSX', async ({ page }) => {
  const admin = await tokenOf(ADMIN);
  const target = await register(newAccount('aud'));
  await api(`accounts/${encodeURIComponent(target.username)}/disable`, undefined, admin);
  await api(`accounts/${encodeURIComponent(target.username)}/enable`, undefined, admin);

  await acceptCookies(page);
  await signIn(page, ADMIN);
  await page.goto('/admin/admin-dashboard');
  await expect(page.getByRole('heading', { name: 'Admin Dashboard', level: 1 })).toBeVisible();
  const stat = (name: string) => page.getByRole('region', { name, exact: true });
  await expect(stat('Accounts by rank')).toContainText('Admin');
  await expect(stat('Connected now')).toContainText('auction');
  await expect(stat('Bots online')).toContainText('0');
  await expect(stat('Version')).toContainText('0.1.0');
  for (const name of ['Bids in the last hour', 'Live items', 'Last scan', 'Database size']) await expect(stat(name)).toBeVisible();

  const log = page.getByRole('table', { name: 'Audit log' });
  // actions and areas are named in words, the detail as its fields
  await page.getByLabel('Action').selectOption({ label: 'Accounts (all)' });
  const entries = dataRows(log).filter({ hasText: target.username });
  await expect(entries).toHaveCount(2);
  await expect(entries.first()).toContainText('Account enabled');
  await expect(entries.last()).toContainText('Account disabled');
  await expect(entries.last().getByRole('term')).toHaveText('Sessions ended');
  await expect(entries.last().getByRole('definition')).toHaveText(/^\d+$/);
  await expect(entries.first()).toContainText(ADMIN.username);
  await page.getByLabel('Action').selectOption('points.bulk');
  await expect(dataRows(log).filter({ hasText: target.username })).toHaveCount(0);
  await page.getByLabel('Action').selectOption('account.disable');
  await page.getByLabel('Who').fill(ADMIN.username.toLowerCase());
  await expect(dataRows(log).filter({ hasText: target.username })).toHaveCount(1);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  const text = await (await file.createReadStream()).toArray();
  const csv = Buffer.concat(text).toString('utf8');
  // titled as the log's columns on the page
  expect(csv).toContain('When,Who,Action,On what,Detail');
  expect(csv).toContain(`${ADMIN.username},account.disable,${target.username}`);
  expect(csv).not.toContain('account.enable');

  // the same entries as a workbook, beside the CSV
  const workbook = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export XLSX' }).click();
  const xlsx = await workbook;
  expect(xlsx.suggestedFilename()).toBe('audit.xlsx');
  const sheet = await readSheet(Buffer.concat(await (await xlsx.createReadStream()).toArray()));
  expect(sheet[0]).toEqual(['When', 'Who', 'Action', 'On what', 'Detail']);
  expect(sheet.slice(1).map((r) => r.slice(1, 4))).toContainEqual([ADMIN.username, 'account.disable', target.username]);
});

test('audit log in Arabic: details named in words, durations in the unit Settings asks for, stored names kept inside translated words', async ({ page }) => {
  const admin = await tokenOf(ADMIN);
  const player = await register(newAccount('aua'));
  await api('points/transactions', { username: player.username, delta: 250, reason: 'Farm help' }, admin);
  const botName = `Scanner ${player.username}`;
  await api('bots', { name: botName }, admin);
  const { settings } = await api<{ settings: { defaults: { duration: number } } }>('kingdom/settings', undefined, admin, 'GET');
  await api('kingdom/settings', { defaults: { duration: settings.defaults.duration } }, admin);
  const ruleName = `Kills of ${player.username}`;
  const rule = await api<{ rule: { id: number } }>('points/rules', { name: ruleName, stat: 'killpoints', per: 1_000_000, points: 5 }, admin);
  await api(`points/rules/${rule.rule.id}`, undefined, admin, 'DELETE');

  await acceptCookies(page);
  await signIn(page, ADMIN);
  await page.goto('/admin/admin-dashboard');
  await page.getByLabel('Language').selectOption('ar');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  const log = page.getByRole('table', { name: 'سجل التدقيق' });
  const action = page.getByLabel('الإجراء', { exact: true });

  // a grant: its amount, reason and the balance after it, each named in Arabic
  await action.selectOption('points.grant');
  const grant = dataRows(log).filter({ hasText: player.username });
  await expect(grant).toHaveCount(1);
  await expect(grant.getByRole('term')).toHaveText(['المبلغ', 'السبب', 'الرصيد بعدها']);
  await expect(grant.getByRole('definition').nth(1)).toHaveText('Farm help');

  // a bot's registration names the bot in a word, not botId
  await action.selectOption('bot.register');
  const bot = dataRows(log).filter({ hasText: botName });
  await expect(bot.getByRole('term')).toHaveText(['الروبوت']);

  // the auction's duration in minutes, as Settings asks for it
  await action.selectOption('settings.change');
  const change = dataRows(log).first();
  await expect(change.getByRole('term').first()).toHaveText('إعدادات المزاد الافتراضية');
  await expect(change.getByRole('definition').filter({ hasText: /دقيق|دقائق/ }).last()).toBeVisible();
  await expect(change).not.toContainText(String(settings.defaults.duration));

  // a rule's target: "rule" said in Arabic, its name as it was stored
  await action.selectOption('rule.delete');
  const deleted = dataRows(log).filter({ hasText: ruleName });
  await expect(deleted).toContainText(`القاعدة #${rule.rule.id}`);
  await expect(deleted).not.toContainText('rule #');
  await expect(deleted.getByRole('term')).toHaveText(['الإحصائية', 'لكل', 'النقاط']);
  await expect(deleted.getByRole('definition').first()).toHaveText('نقاط القتل');
  // the language is the account's: back to English for the other tests
  await page.getByLabel('اللغة').selectOption('en');
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
});

test('a council member is refused the admin pages by the server too', async ({ page }) => {
  const council = await register(newAccount('cnl'));
  const admin = await tokenOf(ADMIN);
  await api(`admin/users/${encodeURIComponent(council.username)}/rank`, { rank: 'council' }, admin);
  const token = await tokenOf(council);
  const refused = await api<{ result: boolean; error: string }>('accounts', undefined, token, 'GET');
  expect(refused).toEqual({ result: false, error: 'You do not have the rank needed for this.' });
  await acceptCookies(page);
  await signIn(page, council);
  await page.goto('/admin/users');
  await expect(dataRows(page.getByRole('main').getByRole('table'))).toHaveCount(0);
});

test('a rank change reaches the open page at once: promoted, the leadership menu appears; demoted, it goes (no reload)', async ({ page, browser }) => {
  const player = await register(newAccount('rnk'));
  const theirs = await browser.newContext();
  const playerPage = await theirs.newPage();
  await acceptCookies(playerPage);
  await signIn(playerPage, player);
  await playerPage.goto('/my-account/profile');
  await expect(playerPage.getByText('Connected', { exact: true })).toBeVisible();
  const leadership = sidebar(playerPage).getByRole('link', { name: 'Metrics', exact: true });
  await expect(leadership).toHaveCount(0);
  // a mark on the window survives only if the page is never reloaded
  await playerPage.evaluate(() => Object.assign(window, { notReloaded: true }));

  await acceptCookies(page);
  await signIn(page, ADMIN);
  await page.goto('/admin/users');
  await page.getByLabel('Search by name, email or governor ID').fill(player.username);
  await expect(dataRows(page.getByRole('main').getByRole('table'))).toHaveCount(1);
  await page.getByLabel(`Rank of ${player.username}`).selectOption('council');
  await expect(page.getByText(`${player.username} is now Council.`)).toBeVisible();

  await expect(leadership).toBeVisible();
  await leadership.click();
  await expect(playerPage.getByRole('heading', { name: 'Metrics', level: 1 })).toBeVisible();

  await page.getByLabel(`Rank of ${player.username}`).selectOption('user');
  await expect(page.getByText(`${player.username} is now User.`)).toBeVisible();
  await expect(leadership).toHaveCount(0);
  await expect(playerPage.getByRole('heading', { name: 'Metrics', level: 1 })).toHaveCount(0);
  expect(await playerPage.evaluate(() => (window as { notReloaded?: boolean }).notReloaded)).toBe(true);
  await theirs.close();
});

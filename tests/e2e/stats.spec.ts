import { expect, test, type Page } from '@playwright/test';
import { ADMIN, BASE_URL, acceptCookies, api, chooseFile, dataRows, figure, newAccount, random, register, signIn, tokenOf, uniqueTag, valueOf } from './support';

// the file's date is midnight UTC: read it in UTC so the preview shows 29 December everywhere
test.use({ timezoneId: 'UTC', locale: 'en-US' });

const HEADER = 'ID,Name,Power,Killpoints,Acclaim,Highest Acclaim,Deads,T1 Kills,T2 Kills,T3 Kills,T4 Kills,T5 Kills,Total Kills,T45 Kills,Ranged,Rss Gathered,Rss Assistance,Helps,Alliance';
const killpoints = (t: number[]) => Math.floor(t[0] * 0.2) + t[1] * 2 + t[2] * 4 + t[3] * 10 + t[4] * 20;

/** A RokTracker v6 file of three governors (one with a long Arabic name) with ids unique to this run. */
function scanFile() {
  const base = 60_000_000 + Math.floor(random() * 9_000_000);
  const governors = [
    { id: base, name: 'Aurelia the Unbroken Shieldmaiden of K3328', alliance: 'K1', power: 123_456_789, deads: 250_000, tiers: [1000, 500, 2000, 300_000, 40_000], helps: 5_000, assist: 900_000_000 },
    { id: base + 1, name: 'Borin', alliance: 'K2', power: 98_765_432, deads: 120_000, tiers: [10, 20, 30, 40_000, 5_000], helps: 700, assist: 12_000_000 },
    { id: base + 2, name: 'جمال الدين', alliance: 'K1', power: 45_000_000, deads: 9_000, tiers: [0, 0, 0, 1_000, 100], helps: 90, assist: 1_500 },
  ];
  const lines = governors.map((g) =>
    [g.id, g.name, g.power, killpoints(g.tiers), 10, 20, g.deads, ...g.tiers, g.tiers.reduce((a, b) => a + b, 0), g.tiers[3] + g.tiers[4], 7, 2_000_000, g.assist, g.helps, g.alliance].join(','),
  );
  return { governors, csv: [HEADER, ...lines].join('\n') + '\n' };
}

async function uploadScan(page: Page, name: string, csv: string) {
  await page.goto('/admin/scans');
  await chooseFile(page.getByRole('button', { name: 'Choose a file', exact: true }), { name, mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(page.getByLabel('Scan date', { exact: true })).toBeVisible();
}

test('upload → preview → apply → the dashboard shows the numbers the file holds; a player sees their own profile stats', async ({ page, browser }) => {
  await acceptCookies(page);
  await signIn(page, ADMIN);
  const { governors, csv } = scanFile();
  const fileName = `TOP300-2025-12-29-3328-[e2e${governors[0].id}].csv`;

  // the preview: the date from the file name (editable), the counts, every governor new
  await uploadScan(page, fileName, csv);
  await expect(page.getByLabel('Scan date')).toHaveValue('2025-12-29T00:00');
  await expect(page.getByText('Found in the file name; change it if it is wrong.')).toBeVisible();
  await expect(valueOf(page, 'Rows')).toHaveText('3');
  await expect(valueOf(page, 'Usable')).toHaveText('3');
  await expect(valueOf(page, 'Cannot be used')).toHaveText('0');
  await expect(page.getByRole('group').filter({ hasText: /^New governors \(/ })).toContainText('New governors (3)');
  await expect(page.getByRole('group').filter({ hasText: /^New governors \(/ })).toContainText('Borin');
  await page.getByRole('button', { name: 'Apply (3 governors)' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Scan #\d+ of / })).toContainText('3 governors');
  const row = page.getByRole('row').filter({ hasText: fileName });
  await expect(row).toContainText('Dec 29, 2025');
  await expect(row).toContainText(ADMIN.username);

  // the same file twice is refused, naming its scan
  await uploadScan(page, fileName, csv).catch(() => undefined);
  await expect(page.getByRole('alert')).toContainText('This file was already imported: it is scan #');

  // the dashboard: totals of the file, readable (1.2B) with the exact value on hover
  await page.goto('/my-kingdom/dashboard');
  const power = governors.reduce((s, g) => s + g.power, 0);
  await expect(figure(page, 'Governors')).toHaveText('3');
  await expect(figure(page, 'Power')).toHaveAttribute('data-value', String(power));
  await expect(figure(page, 'Power')).toHaveText('267.2M');
  await expect(figure(page, 'Power')).toHaveAttribute('title', '267,222,221');
  const t4 = governors.reduce((s, g) => s + g.tiers[3], 0);
  await expect(figure(page, 'T4 kills')).toHaveAttribute('data-value', String(t4));
  await expect(page.getByRole('region', { name: 'Top power', exact: true }).getByRole('listitem').first()).toContainText('Aurelia');

  // the governors table: every governor, sorted by power; filter by name, sort by another column
  const table = page.getByRole('table', { name: 'Governors', exact: true });
  const governorRows = dataRows(table);
  await expect(governorRows).toHaveCount(3);
  await expect(governorRows.first()).toHaveAttribute('data-governor-id', String(governors[0].id));
  await table.getByRole('button', { name: 'Deaths' }).click();
  await expect(table.getByRole('columnheader', { name: 'Deaths' })).toHaveAttribute('aria-sort', 'descending');
  await table.getByRole('button', { name: 'Deaths' }).click();
  await expect(governorRows.first()).toHaveAttribute('data-governor-id', String(governors[2].id));
  await page.getByRole('searchbox', { name: 'Search governors', exact: true }).fill('bor');
  await expect(governorRows).toHaveCount(1);
  const borin = governorRows.first();
  await expect(borin).toContainText('Borin');
  await expect(borin).toContainText('98.8M');

  // the governor's page, from the table
  await borin.getByRole('link', { name: 'Borin' }).click();
  await expect(page).toHaveURL(`/my-kingdom/governors/${governors[1].id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Borin');
  await expect(figure(page, 'Power')).toHaveAttribute('data-value', String(governors[1].power));
  await expect(page.getByRole('list', { name: 'Alliances seen', exact: true })).toContainText('K2');

  // a player whose player id is the first governor sees that governor on their profile
  const player = await register({ ...newAccount('stats'), playerid: String(governors[0].id) });
  const context = await browser.newContext({ timezoneId: 'UTC', locale: 'en-US' });
  const mine = await context.newPage();
  await acceptCookies(mine);
  await signIn(mine, player);
  await mine.goto('/my-account/profile');
  const overview = mine.getByRole('tabpanel', { name: 'Overview', exact: true });
  await expect(overview.getByText(governors[0].name, { exact: true })).toBeVisible();
  await expect(figure(overview, 'Power')).toHaveAttribute('data-value', String(governors[0].power));
  await expect(figure(overview, 'Power')).toHaveText('123.5M');
  await expect(figure(overview, 'T5 kills')).toHaveText('40,000');
  await mine.getByRole('tab', { name: 'Kills distribution' }).click();
  await expect(mine.getByRole('tabpanel', { name: 'Kills distribution', exact: true }).getByRole('listitem').filter({ hasText: 'T4 kills' })).toContainText('300,000');

  // an admin links the second governor to the player (a farm): the profile lets them pick it
  await api(`player-ids/${governors[1].id}`, { username: player.username, verified: true }, await tokenOf(ADMIN), 'PUT');
  await mine.reload();
  const picker = mine.getByRole('combobox', { name: 'Governor', exact: true });
  await expect(picker.getByRole('option')).toHaveText([`${governors[0].name} · ${governors[0].id} · Main (sign-up)`, `Borin · ${governors[1].id}`]);
  await picker.selectOption({ label: `Borin · ${governors[1].id}` });
  await expect(figure(mine.getByRole('tabpanel', { name: 'Overview', exact: true }), 'Power')).toHaveAttribute('data-value', String(governors[1].power));
  await context.close();
});

test('a player whose governor was never scanned is told so, and what to do', async ({ page }) => {
  await acceptCookies(page);
  const player = await register({ ...newAccount('never'), playerid: String(90_000_000 + Math.floor(random() * 9_000_000)) });
  await signIn(page, player);
  await page.goto('/my-account/profile');
  await expect(page.getByRole('tabpanel', { name: 'Overview', exact: true }).getByText(/^No scan has seen your governor/)).toContainText(`No scan has seen your governor (${player.playerid}) yet.`);
  await page.getByRole('tab', { name: 'Kills distribution' }).click();
  await expect(page.getByRole('tabpanel', { name: 'Kills distribution', exact: true }).getByText(/^No scan has seen your governor/)).toBeVisible();
});

test('rows that cannot be used: applied without them on request; a scan is deleted only after confirming', async ({ page }) => {
  await acceptCookies(page);
  await signIn(page, ADMIN);
  const id = 70_000_000 + Math.floor(random() * 9_000_000);
  const fileName = `TOP300-2024-01-15-3328-[skip${id}].csv`;
  const csv = [HEADER, `${id},Keeper,1000,0,,,,0,0,0,0,0,,,,,,,K1`, `0,Nobody,5,0,,,,0,0,0,0,0,,,,,,,K1`].join('\n') + '\n';
  await uploadScan(page, fileName, csv);
  await expect(valueOf(page, 'Cannot be used')).toHaveText('1');
  await expect(page.getByRole('group').filter({ hasText: /^Rows that cannot be used \(/ })).toContainText('Row 3');
  await expect(page.getByRole('group').filter({ hasText: /^Rows that cannot be used \(/ })).toContainText('The governor id must be a whole number from 1.');
  await expect(page.getByRole('button', { name: /^Apply \(/ })).toHaveCount(0);
  await page.getByRole('button', { name: 'Apply without the rows that cannot be used' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Scan #\d+ of / })).toContainText('1 governor');

  const row = page.getByRole('row').filter({ hasText: fileName });
  await row.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete this scan?' });
  await expect(dialog).toContainText('1 governor row');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: 'Delete' }).click();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toHaveCount(0);
});

test("Player IDs: a sign-up's claim is listed, verified, a farm linked and unlinked; Alliances: named and marked as the kingdom's", async ({ page }) => {
  await acceptCookies(page);
  const { governors, csv } = scanFile();
  const tag = `T${governors[0].id % 100_000}`;
  const admin = await tokenOf(ADMIN);
  const form = new FormData();
  form.append('file', new Blob([csv.replaceAll(',K1\n', `,${tag}\n`)], { type: 'text/csv' }), `links-${governors[0].id}.csv`);
  const previewed = (await (await fetch(`${BASE_URL}/scans/preview`, { method: 'POST', body: form, headers: { authorization: `Bearer ${admin}` } })).json()) as { preview: { token: string } };
  expect((await api<{ result: boolean }>('scans/apply', { token: previewed.preview.token }, admin)).result).toBe(true);
  const player = await register({ ...newAccount('linked'), playerid: String(governors[0].id) });

  await signIn(page, ADMIN);
  await page.goto('/admin/player-ids');
  await page.getByLabel('Username or governor id').fill(player.username);
  const main = page.getByRole('row').filter({ hasText: String(governors[0].id) });
  await expect(main).toContainText('Main (sign-up)');
  await expect(main).toContainText('Not yet');
  await expect(main.getByRole('link', { name: governors[0].name })).toBeVisible();
  await main.getByRole('button', { name: 'Verify' }).click();
  await expect(main).toContainText('Yes');

  await page.getByLabel('Governor id', { exact: true }).fill(String(governors[1].id));
  await page.getByLabel('Username', { exact: true }).fill(player.username);
  await page.getByRole('button', { name: 'Link', exact: true }).click();
  await expect(page.getByText(`Governor ${governors[1].id} is now linked to ${player.username}.`)).toBeVisible();
  const farm = page.getByRole('row').filter({ hasText: String(governors[1].id) });
  await expect(farm).toContainText('Farm');
  // a governor the scans hold: no warning
  await expect(page.getByText(/^No scan has seen governor/)).toHaveCount(0);

  // linking it to another account moves it: said and confirmed first; Cancel changes nothing
  const other = await register(newAccount('mover'));
  await page.getByLabel('Governor id', { exact: true }).fill(String(governors[1].id));
  await page.getByLabel('Username', { exact: true }).fill(other.username);
  await page.getByRole('button', { name: 'Link', exact: true }).click();
  const move = page.getByRole('dialog', { name: 'Move this governor to another account?' });
  await expect(move).toContainText(`Governor ${governors[1].id} is linked to ${player.username}. Linked to ${other.username} instead,`);
  await move.getByRole('button', { name: 'Cancel' }).click();
  await expect(move).toBeHidden();
  await page.getByLabel('Username or governor id').fill(String(governors[1].id));
  await expect(farm).toContainText(player.username);
  await page.getByRole('button', { name: 'Link', exact: true }).click();
  await move.getByRole('button', { name: 'Move' }).click();
  await expect(page.getByText(`Governor ${governors[1].id} is now linked to ${other.username}.`)).toBeVisible();
  await expect(farm).toContainText(other.username);
  await page.getByLabel('Username or governor id').fill(player.username);
  await page.getByLabel('Governor id', { exact: true }).fill(String(governors[1].id));
  await page.getByLabel('Username', { exact: true }).fill(player.username);
  await page.getByRole('button', { name: 'Link', exact: true }).click();
  await move.getByRole('button', { name: 'Move' }).click();
  await expect(farm).toContainText(player.username);
  await farm.getByRole('button', { name: 'Unlink' }).click();
  await page.getByRole('dialog', { name: 'Unlink this governor?' }).getByRole('button', { name: 'Unlink' }).click();
  await expect(farm).toHaveCount(0);

  // an id no scan has ever held (a typing slip): linked, with a warning to check it
  const unseen = String(900_000_000 + (governors[0].id % 1_000_000));
  await page.getByLabel('Governor id', { exact: true }).fill(unseen);
  await page.getByLabel('Username', { exact: true }).fill(player.username);
  await page.getByRole('button', { name: 'Link', exact: true }).click();
  await expect(page.getByText(`Governor ${unseen} is now linked to ${player.username}.`)).toBeVisible();
  await expect(page.getByText(`No scan has seen governor ${unseen} yet: check the id.`, { exact: false })).toBeVisible();
  await expect(main).toBeVisible();

  await page.goto('/admin/alliances');
  const row = page.getByRole('row').filter({ hasText: tag });
  await expect(row).toContainText('2');
  await row.getByLabel(`Name of ${tag}`).fill('The Vanguard');
  await row.getByRole('button', { name: 'Save' }).click();
  await expect(row.getByRole('button', { name: 'Save' })).toBeDisabled();
  await row.getByRole('checkbox', { name: `${tag} belongs to the kingdom` }).click();
  await expect(row.getByRole('checkbox', { name: `${tag} belongs to the kingdom` })).toBeChecked();
  await page.reload();
  await expect(page.getByRole('row').filter({ hasText: tag }).getByLabel(`Name of ${tag}`)).toHaveValue('The Vanguard');
  await expect(page.getByRole('row').filter({ hasText: tag }).getByRole('checkbox')).toBeChecked();
});

test('metrics: governors found by name, several on one chart with a legend, the choice kept in the address', async ({ page }) => {
  await acceptCookies(page);
  await signIn(page, ADMIN);
  const tag = uniqueTag();
  const base = 70_000_000 + Math.floor(random() * 9_000_000);
  const names = [`Aurora ${tag}`, `Brennus ${tag}`, `Cassia ${tag}`];
  const lines = names.map((name, i) => [base + i, name, 50_000_000 - i * 1_000_000, 1000, 10, 20, 500, 0, 0, 0, 100, 10, 110, 110, 0, 0, 0, 0, 'K9'].join(','));
  // no date in the name: the scan is dated when it is uploaded, so it is the latest one the search reads
  await uploadScan(page, `metrics-${tag}.csv`, [HEADER, ...lines].join('\n') + '\n');
  await page.getByRole('button', { name: 'Apply (3 governors)' }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Scan #\d+ of / })).toBeVisible();

  await page.goto('/my-kingdom/metrics');
  await page.getByLabel('Series of').selectOption({ label: 'Governors' });
  await expect(page.getByText('Search governors by name or id and add up to five to compare them.')).toBeVisible();
  const search = page.getByRole('searchbox', { name: 'Search governors', exact: true });
  await search.fill(`aurora ${tag}`);
  await page.getByRole('button', { name: `Add ${names[0]} to the chart` }).click();
  await search.fill(`Brennus ${tag}`);
  await page.getByRole('button', { name: `Add ${names[1]} to the chart` }).click();

  const chosen = page.getByRole('list', { name: 'On the chart' });
  await expect(chosen.getByRole('listitem')).toHaveText([new RegExp(`${names[0]} \\(${base}\\)`), new RegExp(`${names[1]} \\(${base + 1}\\)`)]);
  await expect(page).toHaveURL(new RegExp(`scope=governor&key=${base}&key=${base + 1}`));
  // one chart per stat, a line per governor named in its legend
  const power = page.getByRole('img', { name: 'Power', exact: true });
  await expect(power).toBeVisible();
  await expect(page.getByRole('main').locator('.u-legend').first()).toContainText(names[0]);
  await expect(page.getByRole('main').locator('.u-legend').first()).toContainText(names[1]);
  await page.getByRole('tab', { name: 'Table' }).click();
  await expect(page.getByRole('table', { name: `${names[1]} (${base + 1})` })).toBeVisible();

  // the address keeps the choice: a reload shows the same governors; one is taken off
  await page.reload();
  await expect(chosen.getByRole('listitem')).toHaveCount(2);
  await page.getByRole('button', { name: `Remove ${names[0]} (${base}) from the chart` }).click();
  await expect(chosen.getByRole('listitem')).toHaveText([new RegExp(names[1])]);
  await expect(page).toHaveURL(new RegExp(`scope=governor&key=${base + 1}$`));
});

import { readSheet } from 'read-excel-file/node';
import { expect, test } from '@playwright/test';
import { ADMIN, BASE_URL, acceptCookies, accountWithRank, api, balance, cell, dataRows, figure, newAccount, random, register, signIn, tokenOf, valueOf } from './support';

test.use({ timezoneId: 'UTC', locale: 'en-US' });

const HEADER = 'ID,Name,Alliance,Kingdom,Power,Killpoints';
type Row = { id: number; name: string; alliance: string; kingdom: number; power: number; killpoints: number };

/** A scan imported through the API (preview, then apply) at a given time; answers its id. */
async function importScan(rows: Row[], takenAt: number): Promise<number> {
  const admin = await tokenOf(ADMIN);
  const csv = [HEADER, ...rows.map((r) => [r.id, r.name, r.alliance, r.kingdom, r.power, r.killpoints].join(','))].join('\n') + '\n';
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), `e2e-${rows[0].id}-${takenAt}.csv`);
  const previewed = (await (await fetch(`${BASE_URL}/scans/preview`, { method: 'POST', body: form, headers: { authorization: `Bearer ${admin}` } })).json()) as { preview: { token: string } };
  const applied = await api<{ result: boolean; scan: { id: number } }>('scans/apply', { token: previewed.preview.token, takenAt }, admin);
  expect(applied.result).toBe(true);
  return applied.scan.id;
}

/**
 * Two scans a week apart, ids unique to this run. Taken in 2017–2019, before any other test's scans:
 * the other browser tests expect their own scan to be the latest; these pages are told which scans.
 */
function pair() {
  const base = 80_000_000 + Math.floor(random() * 9_000_000);
  const first = Date.UTC(2017, 1, 1) + Math.floor(random() * 900) * 86_400_000;
  return { base, first, second: first + 7 * 86_400_000 };
}

test('the migrant dashboard: who arrived, who left and why, counts, power in and out, and the chart over every scan', async ({ page }) => {
  const { base, first, second } = pair();
  const gov = (n: number, over: Partial<Row> = {}): Row => ({ id: base + n, name: `Gov ${n}`, alliance: 'K1', kingdom: 3328, power: 50_000_000, killpoints: 1, ...over });
  const from = await importScan([gov(1), gov(2, { name: 'Stays Long Name Governor' }), gov(3, { name: 'Wanderer', power: 70_000_000 }), gov(4, { name: 'Tiny', power: 1_000 }), gov(5, { name: 'Vanished', alliance: 'ZZ', power: 60_000_000 })], first);
  const to = await importScan([gov(1), gov(2), gov(3, { name: 'Wanderer', kingdom: 1999, power: 70_000_000 }), gov(6, { name: 'Newcomer', alliance: 'NEW', power: 33_000_000 }), gov(7, { power: 2_000_000 })], second);

  const council = await accountWithRank('council');
  await acceptCookies(page);
  await signIn(page, council);
  await page.goto('/my-kingdom/migrant-dashboard');
  await expect(page.getByRole('heading', { name: 'Migrant Dashboard' })).toBeVisible();
  await page.getByLabel('From scan').selectOption(String(from));
  await page.getByLabel('To scan').selectOption(String(to));
  await expect(page.getByText(/^Comparing /)).toContainText(`(#${from})`);

  await expect(figure(page, 'Arrived')).toHaveText('2');
  await expect(figure(page, 'Left')).toHaveText('3');
  await expect(valueOf(page, 'Arrived')).toContainText('35M');
  await expect(valueOf(page, 'Left')).toContainText('130M');

  const arrived = page.getByRole('region', { name: /^Arrived \(/ });
  await expect(arrived.getByRole('heading')).toHaveText('Arrived (2)');
  await expect(dataRows(arrived.getByRole('table')).first()).toContainText('Newcomer');
  await expect(dataRows(arrived.getByRole('table')).first()).toContainText('NEW');

  const left = page.getByRole('region', { name: /^Left \(/ });
  const leftRows = dataRows(left.getByRole('table'));
  const reasonOf = (name: string) => cell(leftRows.filter({ hasText: name }), 'Likely reason');
  await expect(await reasonOf('Wanderer')).toHaveText('Kingdom changed');
  await expect(await reasonOf('Vanished')).toHaveText('Unknown');
  await expect(await reasonOf('Tiny')).toHaveText('Below the cutoff');
  await left.getByRole('searchbox', { name: 'Search who left' }).fill('ZZ');
  await expect(leftRows).toHaveCount(1);
  await expect(leftRows).toContainText('Vanished');
  // the list as searched, as a workbook titled as the page
  const download = page.waitForEvent('download');
  await left.getByRole('button', { name: 'Export XLSX', exact: true }).click();
  const sheet = await readSheet(Buffer.concat(await (await (await download).createReadStream()).toArray()));
  expect(sheet).toEqual([
    ['Governor id', 'Governor', 'Alliance', 'Power', 'Kingdom', 'Likely reason'],
    [base + 5, 'Vanished', 'ZZ', 60_000_000, 3328, 'unknown'],
  ]);

  // the chart: arrivals and departures of every scan against the one before it
  const chart = page.getByRole('img', { name: /arrived and left/ });
  await expect(chart).toBeVisible();
  await expect(chart.locator('canvas')).toBeVisible();

  // a governor's name leads to its page
  await arrived.getByRole('link', { name: 'Newcomer' }).click();
  await expect(page).toHaveURL(`/my-kingdom/governors/${base + 6}`);
});

test('an automatic points run, from the rule to the preview to the player’s balance', async ({ page, browser }) => {
  const { base, first, second } = pair();
  // the player's sign-up claims the governor (not verified yet); another governor has no account
  const player = await register({ ...newAccount('auto'), playerid: String(base + 1) });
  const from = await importScan(
    [
      { id: base + 1, name: 'Claimed One', alliance: 'K1', kingdom: 3328, power: 40_000_000, killpoints: 1_000_000 },
      { id: base + 2, name: 'Nobody Yet', alliance: 'K1', kingdom: 3328, power: 30_000_000, killpoints: 2_000_000 },
    ],
    first,
  );
  const to = await importScan(
    [
      { id: base + 1, name: 'Claimed One', alliance: 'K1', kingdom: 3328, power: 41_000_000, killpoints: 3_500_000 },
      { id: base + 2, name: 'Nobody Yet', alliance: 'K1', kingdom: 3328, power: 30_000_000, killpoints: 5_000_000 },
    ],
    second,
  );

  // the player watches their balance in their own browser
  const context = await browser.newContext({ timezoneId: 'UTC', locale: 'en-US' });
  const mine = await context.newPage();
  await acceptCookies(mine);
  await signIn(mine, player);
  const points = balance(mine);
  await expect(points).toHaveText('0 kingdom points');

  const council = await accountWithRank('council');
  await acceptCookies(page);
  await signIn(page, council);
  await page.goto('/my-kingdom/kingdom-points/automatic-points');
  await expect(page.getByRole('heading', { name: 'Automatic Points', level: 1 })).toBeVisible();

  // a rule with zero points is refused on the spot, in words
  const ruleName = `Kill points ${base}`;
  await page.getByRole('button', { name: 'New rule' }).click();
  const form = page.getByRole('form', { name: 'New rule', exact: true });
  await form.getByLabel('Name').fill(ruleName);
  await form.getByLabel('Pays for').selectOption('killpoints');
  await form.getByLabel('Per (gain)').fill('1000000');
  await form.getByLabel('Points', { exact: true }).fill('0');
  await form.getByRole('button', { name: 'Create rule' }).click();
  await expect(form.getByRole('alert')).toHaveText('Points must be a whole number from 1 to 1,000,000,000.');
  await form.getByLabel('Points', { exact: true }).fill('10');
  await expect(form.getByText(/^For example, /)).toHaveText('For example, a gain of 3,500,000 kill points pays 30 points.');
  await form.getByRole('button', { name: 'Create rule' }).click();
  await expect(page.getByRole('row').filter({ hasText: ruleName })).toContainText('10 points per 1,000,000 kill points');

  // the run: preview (the claimed governor paid, the other listed apart), then apply
  const run = page.getByRole('region', { name: 'Run a rule', exact: true });
  await run.getByLabel('Rule').selectOption({ label: ruleName });
  await run.getByLabel('From scan').selectOption(String(from));
  await run.getByLabel('To scan').selectOption(String(to));
  await run.getByRole('button', { name: 'Preview' }).click();
  await expect(run.getByText(/ points to \d+ accounts? for /)).toHaveText('20 points to 1 account for 1 governor.');
  const award = dataRows(run.getByRole('table'));
  await expect(award).toHaveCount(1);
  await expect(award).toContainText(player.username);
  await expect(award).toContainText('Claimed, not verified');
  await expect(award).toContainText('Claimed One');
  await expect(run.getByRole('group').filter({ hasText: /^Governors without an account/ })).toContainText('Governors without an account (1): 30 points not paid');
  await run.getByRole('button', { name: 'Apply (20 points)' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Apply' }).click();
  await expect(run.getByRole('status').filter({ hasText: /^Applied: / })).toContainText('20 points paid');

  // the player's balance, without a reload
  await expect(points).toHaveText('20 kingdom points');
  await context.close();

  // the run is on record, and the same pair of scans cannot be paid again
  await expect(dataRows(page.getByRole('region', { name: 'Runs', exact: true }).getByRole('table')).filter({ hasText: ruleName }).first()).toContainText(`#${from} → #${to}`);
  await run.getByRole('button', { name: 'Preview' }).click();
  await expect(run.getByRole('alert')).toContainText('This rule was already applied to these two scans');
});

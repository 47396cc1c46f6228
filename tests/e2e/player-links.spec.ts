import { expect, test } from '@playwright/test';
import { ADMIN, acceptCookies, api, cell, chooseFile, dataRows, random, register, signIn, tokenOf } from './support';

test('an admin links farms from a CSV on Player IDs: the preview says what each row does, apply links the good rows', async ({ page }) => {
  const admin = await tokenOf(ADMIN);
  const owner = await register();
  const other = await register();
  const base = 60_000_000 + Math.floor(random() * 9_000_000);
  const [farm, farm2, taken] = [base, base + 1, base + 2];
  const moved = await api<{ result: boolean; error?: string }>(`player-ids/${taken}`, { username: other.username, verified: true }, admin, 'PUT');
  expect(moved.result, moved.error).toBe(true);

  await acceptCookies(page);
  await signIn(page, ADMIN);
  await page.goto('/admin/player-ids');
  const card = page.getByRole('region', { name: 'Link farms from a file', exact: true });
  const csv = ['governor id,account', `${farm},${owner.username}`, `${farm2},${owner.username}`, `${taken},${owner.username}`, `${farm},${other.username}`, `${base + 3},nobody-by-this-name`].join('\n');
  await chooseFile(card.getByRole('button', { name: 'Choose a file', exact: true }), { name: 'farms.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });

  const rows = dataRows(card.getByRole('table'));
  await expect(rows).toHaveCount(5);
  await expect(card.getByText('2 governors will be linked; 3 rows are left out.')).toBeVisible();
  await expect(card.getByText('2 governor ids have never been seen in a scan: check them before applying. They will be linked all the same.')).toBeVisible();
  await expect(await cell(rows.nth(0), 'Outcome')).toContainText('Will link (never scanned)');
  const refused = await cell(rows.nth(2), 'Outcome');
  await expect(refused).toContainText('Linked to another account');
  await expect(refused).toContainText(`Linked to ${other.username}: a file does not move a link; move it on its own above.`);
  await expect(await cell(rows.nth(3), 'Outcome')).toContainText('Duplicate row');
  await expect(await cell(rows.nth(4), 'Outcome')).toContainText('Unknown account');

  await card.getByRole('button', { name: 'Link 2 governors', exact: true }).click();
  await expect(card.getByText('2 governors linked.')).toBeVisible();
  await expect(rows).toHaveCount(0);

  // the list below shows the new links, and the one the file named for another account did not move
  await page.getByLabel('Username or governor id').fill(owner.username);
  for (const id of [farm, farm2]) await expect(page.getByRole('row').filter({ hasText: String(id) })).toContainText(owner.username);
  const links = await api<{ links: { governorId: number; username: string; verified: boolean }[] }>(`player-ids?q=${taken}`, undefined, admin, 'GET');
  expect(links.links.find((l) => l.governorId === taken)?.username).toBe(other.username);
});

import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { ADMIN, BASE_URL, acceptCookies, api, newAccount, random, register, signIn, tokenOf } from './support';

test.use({ timezoneId: 'UTC', locale: 'en-US' });

/** One governor in a scan imported through the API (preview, then apply), as an admin does. */
async function importGovernor(id: number, name: string) {
  const token = await tokenOf(ADMIN);
  const csv = `ID,Name,Alliance,Power,Killpoints,Deads,T4 Kills,T5 Kills\n${id},${name},K1,123456789,98765432,250000,300000,40000\n`;
  const form = new FormData();
  // dated before the KvK spec's scans (2025-12-28), which expects its own to be the latest when it runs after this one
  form.append('takenAt', '2025-12-20T00:00:00Z');
  form.append('file', new Blob([csv], { type: 'text/csv' }), `cards-${id}.csv`);
  const preview = (await (await fetch(`${BASE_URL}/scans/preview`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form })).json()) as { preview: { token: string } };
  const applied = await api<{ result: boolean; error?: string }>('scans/apply', { token: preview.preview.token }, token);
  expect(applied.result, applied.error).toBe(true);
}

test("a player shares their governor's card from the profile and downloads it", async ({ page }) => {
  const governorId = 70_000_000 + Math.floor(random() * 9_000_000);
  await importGovernor(governorId, 'الفارس الأسود');
  const player = await register({ ...newAccount('cards'), playerid: String(governorId) });
  await acceptCookies(page);
  await signIn(page, player);
  await page.goto('/my-account/profile');
  const overview = page.getByRole('tabpanel', { name: 'Overview', exact: true });
  await overview.getByRole('button', { name: 'Share card', exact: true }).click();

  const dialog = page.getByRole('dialog', { name: 'Share card' });
  // the server's first card starts its drawing process (fonts included): more than a click's wait
  await expect(dialog.getByRole('img', { name: 'The card as an image' })).toBeVisible({ timeout: 20_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('link', { name: 'Download', exact: true }).click()]);
  expect(download.suggestedFilename()).toMatch(/\.png$/);
  const bytes = fs.readFileSync(await download.path());
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([1200, 675]);

  // a link that shows the image to anyone, listed in Account Settings under what it shows, and revoked there
  await dialog.getByRole('button', { name: 'Copy link', exact: true }).click();
  const said = dialog.getByText(/\/cards\/shared\/[\w-]+\.png/);
  await expect(said).toBeVisible();
  const url = /https?:\/\/\S+\/cards\/shared\/[\w-]+\.png/.exec((await said.textContent()) ?? '')?.[0] ?? '';
  const shown = await page.request.get(url, { headers: { authorization: '' } });
  expect([shown.status(), shown.headers()['content-type']]).toEqual([200, 'image/png']);
  await page.keyboard.press('Escape');
  await page.goto('/my-account/account-settings');
  await expect(page.getByRole('heading', { name: 'Share links' })).toBeVisible();
  const links = page.getByRole('main');
  // the card in the reader's language and theme (the browser's: light or dark)
  const label = new RegExp(`^Governor ${governorId} · English · (Light|Dark)$`);
  await expect(links.getByRole('link', { name: label })).toBeVisible();
  await links.getByRole('button', { name: new RegExp(`^Revoke ${label.source.slice(1)}`) }).click();
  await expect(links.getByText('Revoked', { exact: true })).toBeVisible();
  expect((await page.request.get(url)).status()).toBe(404);
});

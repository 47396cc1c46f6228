import crypto from 'node:crypto';
import { expect, test } from '@playwright/test';
import { ADMIN, BASE_URL, acceptCookies, api, newAccount, register, signIn, tokenOf, uniqueTag } from './support';

test.use({ timezoneId: 'UTC', locale: 'en-US' });

/** The test plays Discord: its own Ed25519 key, whose public half the admin pastes in the settings. */
const keys = crypto.generateKeyPairSync('ed25519');
const publicKey = keys.publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('hex');

/** What Discord posts when someone types a command, signed as Discord signs it. */
async function slashCommand(name: string, discordUserId: string): Promise<string> {
  const raw = JSON.stringify({ id: String(Date.now()) + String(Math.floor(Math.random() * 1e6)), type: 2, application_id: '123456789012345678', token: 't', version: 1, locale: 'en-US', data: { id: '1', name, type: 1 }, member: { user: { id: discordUserId, username: 'x' } } });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = crypto.sign(null, Buffer.from(timestamp + raw), keys.privateKey).toString('hex');
  const response = await fetch(`${BASE_URL}/discord/interactions`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-signature-ed25519': signature, 'x-signature-timestamp': timestamp }, body: raw });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { content: string } }).data.content;
}

test('an admin sets Discord up in Kingdom Settings; a player links their Discord account from /link and unlinks it', async ({ browser }) => {
  const adminPage = await (await browser.newContext()).newPage();
  await acceptCookies(adminPage);
  await signIn(adminPage, ADMIN);
  await adminPage.goto('/my-kingdom/settings');
  const form = adminPage.getByRole('form', { name: 'Discord' });
  await form.getByLabel('Application ID').fill('123456789012345678');
  await form.getByLabel('Public key').fill(publicKey);
  await form.getByLabel('Server (guild) ID').fill('223456789012345678');
  await form.getByLabel('Bot token').fill('MTIzNDU2Nzg5MDEyMzQ1Njc4.Gabcde.e2e-token');
  await form.getByLabel('Announcement language').selectOption('fr');
  await form.getByRole('button', { name: 'Save Discord settings' }).click();
  await expect(form.getByText('Discord settings saved.')).toBeVisible();
  await expect(form.getByLabel('Bot token')).toHaveValue('');
  await expect(form.getByText('A token is saved. Leave this empty to keep it.')).toBeVisible();
  await form.getByRole('button', { name: 'Send a test message' }).click();
  await expect(form.getByRole('list', { name: 'Test message results' })).toContainText('No webhook is set');

  // the player types /link in Discord and opens the link, signed in
  const player = await register(newAccount('discord'));
  const page = await (await browser.newContext()).newPage();
  await acceptCookies(page);
  await signIn(page, player);
  const discordUserId = `5${String(Date.now()).padStart(17, '0')}`;
  const answer = await slashCommand('link', discordUserId);
  const url = /https?:\/\/\S+\/my-account\/account-settings\?discord=[\w-]+/.exec(answer)?.[0] ?? '';
  expect(url).not.toBe('');
  await page.goto(url.replace(/^https?:\/\/[^/]+/, ''));
  await page.getByRole('button', { name: 'Link Discord' }).click();
  await expect(page.getByText('Your Discord account is linked.')).toBeVisible();
  await expect(page.getByText(`Linked to the Discord user ${discordUserId}`)).toBeVisible();
  expect(new URL(page.url()).search).toBe('');
  expect(await slashCommand('points', discordUserId)).toContain('Your points: 0');

  await page.getByRole('button', { name: 'Unlink' }).click();
  await expect(page.getByText('Your account is not linked to Discord.')).toBeVisible();
  expect(await slashCommand('points', discordUserId)).toBe('Link your Kingdom account first: type /link.');
});

test('an announcement Discord refused shows on the Admin Dashboard; Retry sends it', async ({ page }) => {
  // the server's Discord is the stand-in global-setup started: it refuses webhook posts until told otherwise
  const discord = process.env.E2E_DISCORD_URL as string;
  await fetch(`${discord}/e2e/refuse`, { method: 'POST' });
  const admin = await tokenOf(ADMIN);
  const saved = await api<{ result: boolean }>(
    'discord/settings',
    { applicationId: '123456789012345678', publicKey, guildId: '223456789012345678', language: 'en', webhooks: { auctions: `${discord}/api/webhooks/123456789012345678/${'w'.repeat(30)}` } },
    admin,
    'PUT',
  );
  expect(saved.result).toBe(true);
  const itemName = `Herald ${uniqueTag()}`;
  await api('store/items', { itemName, start_price: 50, minIncrement: 5, duration: 600, extendWindow: 0, maxExtensions: 0 }, admin);

  await acceptCookies(page);
  await signIn(page, ADMIN);
  await page.goto('/admin/admin-dashboard');
  const table = page.getByRole('table', { name: 'Discord announcements' });
  const row = table.getByRole('row').filter({ hasText: `Bidding started: ${itemName}` });
  await expect(row).toContainText('Failed after 1 try');
  await expect(row).toContainText('Discord answered 400: Invalid Form Body.');

  await fetch(`${discord}/e2e/accept`, { method: 'POST' });
  await row.getByRole('button', { name: 'Retry' }).click();
  await expect(row).toBeHidden();
  await expect
    .poll(async () => ((await (await fetch(`${discord}/e2e/posted`)).json()) as { embeds: { title: string }[] }[]).map((p) => p.embeds[0].title))
    .toContain(`Bidding started: ${itemName}`);
});

test('the KvK Dashboard posts the standings card to Discord, and says when no KvK webhook is set', async ({ page }) => {
  const discord = process.env.E2E_DISCORD_URL as string;
  await fetch(`${discord}/e2e/accept`, { method: 'POST' });
  const admin = await tokenOf(ADMIN);
  const webhooks = { auctions: `${discord}/api/webhooks/123456789012345678/${'w'.repeat(30)}` };
  const settings = (extra: Record<string, string>) => ({ applicationId: '123456789012345678', publicKey, guildId: '223456789012345678', language: 'en', webhooks: { ...webhooks, ...extra } });
  await api('discord/settings', { ...settings({}), webhooks: { ...webhooks, kvk: null } }, admin, 'PUT');
  // a scan and a season that runs from it
  const id = 70_000_000 + Math.floor(Math.random() * 9_000_000);
  const form = new FormData();
  form.append('takenAt', '2021-05-01T00:00:00Z');
  form.append('file', new Blob([`ID,Name,Power,Killpoints,Deads,T4 Kills,T5 Kills,Alliance\n${id},Discordia,90000000,1000,10,100,10,K9\n`], { type: 'text/csv' }), `discord-${id}.csv`);
  const previewed = (await (await fetch(`${BASE_URL}/scans/preview`, { method: 'POST', body: form, headers: { authorization: `Bearer ${admin}` } })).json()) as { preview: { token: string } };
  const scan = await api<{ scan: { id: number } }>('scans/apply', { token: previewed.preview.token }, admin);
  const name = `KvK Discord ${id}`;
  const season = await api<{ season: { id: number } }>('kvk/seasons', { name, startScanId: scan.scan.id, endScanId: null, weights: { t4Kills: 10, t5Kills: 20, deads: 15 }, brackets: [{ minPower: 0, kills: 1000, deads: 100 }], windows: [] }, admin);

  await acceptCookies(page);
  await signIn(page, ADMIN);
  await page.goto('/my-kingdom/kvk-dashboard');
  await page.getByLabel('Season', { exact: true }).selectOption(String(season.season.id));
  await page.getByRole('button', { name: 'Post to Discord' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'No Discord webhook is set for KvK standings' })).toBeVisible();

  await api('discord/settings', settings({ kvk: `${discord}/api/webhooks/123456789012345679/${'k'.repeat(30)}` }), admin, 'PUT');
  await page.getByRole('button', { name: 'Post to Discord' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Queued for Discord' })).toBeVisible();
  await expect
    .poll(async () => ((await (await fetch(`${discord}/e2e/posted`)).json()) as { embeds: { title: string; image?: { url: string } }[] }[]).map((p) => `${p.embeds[0].title} ${p.embeds[0].image?.url ?? ''}`))
    .toContain(`KvK standings: ${name} attachment://kvk.png`);
});

test('a link from /auctions opens the store at the item', async ({ page }) => {
  const admin = await tokenOf(ADMIN);
  const tag = uniqueTag();
  // enough live items that the linked one is far below the first screen
  const ids: number[] = [];
  for (let i = 0; i < 30; i++) {
    const made = await api<{ item: { itemId: number } }>('store/items', { itemName: `Linked ${tag} ${i}`, start_price: 50, minIncrement: 5, duration: 900, extendWindow: 0, maxExtensions: 0 }, admin);
    ids.push(made.item.itemId);
  }
  await acceptCookies(page);
  await signIn(page, ADMIN);
  await page.goto(`/my-account/kingdom-store?item=${ids[29]}`);
  await expect(page.getByRole('article', { name: `Linked ${tag} 29`, exact: true })).toBeInViewport();
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN, acceptCookies, connection, dataRows, register, tokenOf } from './support';

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'logs', 'reconnect-history.jsonl');
const EXPECTED = JSON.parse(readFileSync(FIXTURE.replace(/\.jsonl$/, '.board.json'), 'utf8')) as unknown;

async function openPlayer(page: Page, file: string) {
  await page.goto('/qa/replay');
  await page.getByLabel('Load a log file…', { exact: true }).setInputFiles(file);
  await expect(page.getByRole('button', { name: 'Play', exact: true })).toBeEnabled();
}

async function playAt(page: Page, speed: string) {
  await page.getByRole('combobox', { name: /^Speed/ }).selectOption(speed);
  await page.getByRole('button', { name: 'Play', exact: true }).click();
}

/** Signed in with a token got once per run (the sign-in form is rate-limited per address, and tested elsewhere). */
async function signedIn(page: Page, account: { email: string; password: string } = ADMIN) {
  const token = await tokenOf(account);
  await acceptCookies(page);
  await page.addInitScript((t) => localStorage.setItem('kingdom.token', t), token);
  return page;
}

/** The board as the player shows it, in the panel “The board as JSON”. */
const boardOf = async (page: Page) =>
  JSON.parse((await page.getByRole('group').filter({ hasText: /^The board as JSON/ }).locator('pre').textContent()) ?? 'null') as unknown;
/** The player's position line (“… ms of … · entry … of …”). */
const position = (page: Page) => page.getByText(/ ms of .* · entry /);
const items = (page: Page) => dataRows(page.getByRole('main').getByRole('table'));
/** The board's own connection tag (the top bar has the app's). */
const boardConnection = (page: Page) => page.getByRole('main').getByText(/^(Connected|Disconnected)$/);

test('one recorded log played in two pages at different speeds ends on identical boards, the one the live session had', async ({ browser }) => {
  // two windows of their own, each signed in
  const slow = await (await browser.newContext()).newPage();
  const fast = await (await browser.newContext()).newPage();
  for (const page of [slow, fast]) await signedIn(page);
  await openPlayer(slow, FIXTURE);
  await openPlayer(fast, FIXTURE);

  await playAt(slow, '0.5');
  await playAt(fast, '10');
  // the fast one is done long before the slow one, which is still on its way
  await expect(position(fast)).toHaveAttribute('data-ended', 'true');
  await expect(position(slow)).toHaveAttribute('data-ended', 'false');
  await expect(position(slow)).toHaveAttribute('data-ended', 'true', { timeout: 10_000 });

  const [a, b] = [await boardOf(slow), await boardOf(fast)];
  expect(a).toEqual(b);
  expect(a).toEqual(EXPECTED);
  // and what the pages show is that board
  for (const page of [slow, fast]) {
    await expect(items(page)).toHaveCount(3);
    await expect(boardConnection(page)).toHaveText('Connected');
    // the time played never passes the log's length, and the latest bids name their items
    const [played, length] = ((await position(page).textContent()) ?? '').match(/^([\d,]+) ms of ([\d,]+)/)!.slice(1);
    expect(played).toBe(length);
    await expect(page.getByRole('list').filter({ hasText: 'bob' }).getByRole('listitem')).toHaveText([/^bob · Iron Axe/, /^alice · Iron Axe/, /^alice · Golden Sword/]);
  }

  // step and seek: back to a moment before the reconnect, then on to the end again
  await slow.getByRole('button', { name: 'Back to the start', exact: true }).click();
  await expect(items(slow)).toHaveCount(0);
  await slow.getByRole('button', { name: 'Step', exact: true }).click();
  await expect(position(slow)).toContainText('entry 1 of');
  await slow.getByRole('button', { name: 'Play', exact: true }).click();
  await expect(position(slow)).toHaveAttribute('data-ended', 'true', { timeout: 10_000 });
  expect(await boardOf(slow)).toEqual(EXPECTED);
  await slow.context().close();
  await fast.context().close();
});

test('a malformed log is refused with its line; the player is for admins only in production', async ({ browser }) => {
  const admin = await signedIn(await browser.newPage());
  await admin.goto('/qa/replay');
  const lines = readFileSync(FIXTURE, 'utf8').split('\n');
  lines[3] = '{"t":3,"ch":"radio","dir":"in","msg":{}}';
  await admin.getByLabel('Load a log file…', { exact: true }).setInputFiles({ name: 'bad.jsonl', mimeType: 'text/plain', buffer: Buffer.from(lines.join('\n')) });
  await expect(admin.getByRole('alert')).toHaveText(/^line 4: "ch" must be auction, user or bots/);

  const player = await signedIn(await browser.newPage(), await register());
  await player.goto('/qa/replay');
  await expect(player.getByLabel('Load a log file…', { exact: true })).toHaveCount(0);
  await expect(player.getByText('404')).toBeVisible();
});

test('the session log downloaded from the user popover replays in the player', async ({ page }) => {
  await signedIn(page);
  await page.goto('/my-account/kingdom-store');
  await expect(connection(page)).toHaveText('Connected');
  await page.getByRole('button', { name: 'Account menu', exact: true }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download session log', exact: true }).click()]);
  expect(download.suggestedFilename()).toMatch(/^kingdom-session-.*\.jsonl$/);
  const file = await download.path();
  const [header, ...lines] = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  expect(header).toMatchObject({ v: 1, app: expect.stringMatching(/^kingdom@/), user: ADMIN.username });
  expect(lines).toContainEqual(expect.objectContaining({ ch: 'auction', dir: 'open' }));
  expect(lines).toContainEqual(expect.objectContaining({ ch: 'auction', dir: 'in', msg: expect.objectContaining({ type: 'HISTORY' }) }));
  // the token is never in the log
  const token = await page.evaluate(() => localStorage.getItem('kingdom.token') ?? sessionStorage.getItem('kingdom.token'));
  expect(token).toBeTruthy();
  expect(JSON.stringify(lines)).not.toContain(token!);

  await openPlayer(page, file);
  await page.getByRole('combobox', { name: /^Speed/ }).selectOption('50');
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await expect(position(page)).toHaveAttribute('data-ended', 'true');
  await expect(boardConnection(page)).toHaveText('Connected');
});

/** An actor's row in the inspection panel, found by its id. */
const actor = (page: Page, id: string) => page.getByRole('listitem').filter({ has: page.getByText(id, { exact: true }) });

test('the inspection panel lists the live actors with their state and last events', async ({ page }) => {
  await signedIn(page);
  await page.goto('/qa/inspect');
  await expect(actor(page, 'connection.auction')).toContainText('connected');
  const board = actor(page, 'board');
  await expect(board).toContainText('connected: true');
  const auth = actor(page, 'auth');
  await expect(auth.getByTestId('inspect-value')).toContainText('signedIn');
});

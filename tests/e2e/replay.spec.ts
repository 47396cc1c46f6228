import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN, acceptCookies, register, tokenOf } from './support';

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'logs', 'reconnect-history.jsonl');
const EXPECTED = JSON.parse(readFileSync(FIXTURE.replace(/\.jsonl$/, '.board.json'), 'utf8')) as unknown;

async function openPlayer(page: Page, file: string) {
  await page.goto('/qa/replay');
  await page.getByTestId('qa-file').setInputFiles(file);
  await expect(page.getByTestId('qa-play')).toBeEnabled();
}

async function playAt(page: Page, speed: string) {
  await page.getByTestId('qa-speed').selectOption(speed);
  await page.getByTestId('qa-play').click();
}

/** Signed in with a token got once per run (the sign-in form is rate-limited per address, and tested elsewhere). */
async function signedIn(page: Page, account: { email: string; password: string } = ADMIN) {
  const token = await tokenOf(account);
  await acceptCookies(page);
  await page.addInitScript((t) => localStorage.setItem('kingdom.token', t), token);
  return page;
}

const boardOf = async (page: Page) => JSON.parse((await page.getByTestId('qa-board-json').textContent()) ?? 'null') as unknown;

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
  await expect(fast.getByTestId('qa-position')).toHaveAttribute('data-ended', 'true');
  await expect(slow.getByTestId('qa-position')).toHaveAttribute('data-ended', 'false');
  await expect(slow.getByTestId('qa-position')).toHaveAttribute('data-ended', 'true', { timeout: 10_000 });

  const [a, b] = [await boardOf(slow), await boardOf(fast)];
  expect(a).toEqual(b);
  expect(a).toEqual(EXPECTED);
  // and what the pages show is that board
  for (const page of [slow, fast]) {
    await expect(page.getByTestId('qa-item')).toHaveCount(3);
    await expect(page.getByTestId('qa-connected')).toHaveText('Connected');
  }

  // step and seek: back to a moment before the reconnect, then on to the end again
  await slow.getByTestId('qa-restart').click();
  await expect(slow.getByTestId('qa-item')).toHaveCount(0);
  await slow.getByTestId('qa-step').click();
  await expect(slow.getByTestId('qa-position')).toContainText('entry 1 of');
  await slow.getByTestId('qa-play').click();
  await expect(slow.getByTestId('qa-position')).toHaveAttribute('data-ended', 'true', { timeout: 10_000 });
  expect(await boardOf(slow)).toEqual(EXPECTED);
  await slow.context().close();
  await fast.context().close();
});

test('a malformed log is refused with its line; the player is for admins only in production', async ({ browser }) => {
  const admin = await signedIn(await browser.newPage());
  await admin.goto('/qa/replay');
  const lines = readFileSync(FIXTURE, 'utf8').split('\n');
  lines[3] = '{"t":3,"ch":"radio","dir":"in","msg":{}}';
  await admin.getByTestId('qa-file').setInputFiles({ name: 'bad.jsonl', mimeType: 'text/plain', buffer: Buffer.from(lines.join('\n')) });
  await expect(admin.getByTestId('qa-error')).toHaveText(/^line 4: "ch" must be auction, user or bots/);

  const player = await signedIn(await browser.newPage(), await register());
  await player.goto('/qa/replay');
  await expect(player.getByTestId('qa-file')).toHaveCount(0);
  await expect(player.getByText('404')).toBeVisible();
});

test('the session log downloaded from the user popover replays in the player', async ({ page }) => {
  await signedIn(page);
  await page.goto('/my-account/kingdom-store');
  await expect(page.getByTestId('connection')).toHaveText('Connected');
  await page.getByTestId('user-popover-trigger').click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-log').click()]);
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
  await page.getByTestId('qa-speed').selectOption('50');
  await page.getByTestId('qa-play').click();
  await expect(page.getByTestId('qa-position')).toHaveAttribute('data-ended', 'true');
  await expect(page.getByTestId('qa-connected')).toHaveText('Connected');
});

test('the inspection panel lists the live actors with their state and last events', async ({ page }) => {
  await signedIn(page);
  await page.goto('/qa/inspect');
  await expect(page.locator('[data-testid="inspect-actor"][data-actor-id="connection.auction"]')).toContainText('connected');
  const board = page.locator('[data-testid="inspect-actor"][data-actor-id="board"]');
  await expect(board).toContainText('connected: true');
  const auth = page.locator('[data-testid="inspect-actor"][data-actor-id="auth"]');
  await expect(auth.getByTestId('inspect-value')).toContainText('signedIn');
});

import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { ADMIN, BASE_URL, acceptCookies, api, random, signIn, tokenOf, uniqueTag, valueOf } from './support';

// some tests here read the pages in Arabic, and the language is the account's: the admin is English
// again after every test, even one that failed halfway (the next tests read English labels)
test.afterEach(async () => {
  await api('account/locale', { locale: 'en' }, await tokenOf(ADMIN));
});

/**
 * The bot pages with a real agent process (npm run agent's program) against the real server:
 * register (token shown once), status, console (commands and answers, needs-human), monitor
 * (filter, pause) and an upload through the agent.
 */
const SCANNER = path.resolve('tests/fixtures/bots/fake-scanner.mjs');
const agents: ChildProcess[] = [];
const dirs: string[] = [];

function startAgent(token: string, options: { scanCommand?: string } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kingdom-e2e-agent-'));
  dirs.push(dir);
  const args = ['--import', 'tsx', 'scripts/agent.ts', '--server', BASE_URL, '--token', token, '--watch', dir, '--settle', '0', '--poll', '0.2'];
  if (options.scanCommand) args.push('--scan-command', options.scanCommand);
  const child = spawn(process.execPath, args, { stdio: 'ignore' });
  agents.push(child);
  return { child, dir };
}

test.afterAll(async () => {
  for (const child of agents) {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  }
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

async function registerInPage(page: Page, name: string): Promise<string> {
  await page.goto('/admin/bot/status');
  await page.getByLabel('Bot name').fill(name);
  await page.getByRole('button', { name: 'Register', exact: true }).click();
  const shown = page.getByRole('region', { name: `Token of ${name}` });
  await expect(shown).toBeVisible();
  await expect(shown).toContainText('This token is shown only now');
  const token = (await shown.getByText(/^kbot_/).textContent()) ?? '';
  expect(token).toMatch(/^kbot_/);
  await shown.getByRole('button', { name: 'I have copied it' }).click();
  await expect(page.getByText(token)).toHaveCount(0);
  return token;
}

const card = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
/** A bot's online label, and the state badge shown while it is online. */
const online = (scope: Page | Locator) => scope.getByText(/^(Online|Offline)$/);
const state = (scope: Page | Locator) => scope.getByText(/^(Idle|Scanning|Paused|Needs someone|Error)$/);

test('status and console: a real agent comes online, answers commands, runs a scan that waits for someone, and uploads a file once', async ({ page }) => {
  await acceptCookies(page);
  await signIn(page, ADMIN);
  const name = `Emulator ${uniqueTag()}`;
  const token = await registerInPage(page, name);
  await expect(online(card(page, name))).toHaveText('Offline');

  const { dir } = startAgent(token, { scanCommand: `node ${JSON.stringify(SCANNER)} 5` });
  await expect(online(card(page, name))).toHaveText('Online', { timeout: 15_000 });
  await expect(state(card(page, name))).toHaveText('Idle');
  await expect(valueOf(card(page, name), 'Version')).toHaveText('1.0.0');
  await expect(valueOf(card(page, name), 'Last scan')).toHaveText('Never');

  // a finished file in the folder: uploaded, and the card's last scan follows live
  fs.writeFileSync(path.join(dir, `TOP300-2025-12-${10 + Math.floor(random() * 18)}-3328-[e2e${uniqueTag()}].csv`), `ID,Name,Power,Killpoints,Alliance\n${100_000_000 + Math.floor(random() * 9e8)},E2E gov,5000000,1000,K1\n`);
  await expect(valueOf(card(page, name), 'Last scan')).not.toHaveText('Never', { timeout: 15_000 });

  await card(page, name).getByRole('link', { name: `Console of ${name}` }).click();
  await expect(page).toHaveURL(/\/admin\/bot\/console\?bot=\d+/);
  await expect(page.getByRole('heading', { name: 'Console', exact: true })).toBeVisible();
  const history = page.getByRole('list', { name: 'Commands and answers' });
  /** A command sent and its answer, found by the command line it shows. */
  const entry = (line: string) => history.getByRole('listitem').filter({ hasText: line });
  await page.getByRole('group', { name: 'Commands this bot knows' }).getByRole('button', { name: 'ping' }).click();
  await expect(entry('> ping')).toHaveAttribute('data-state', 'ok');
  await expect(entry('> ping')).toContainText('pong');

  // a command it does not know is refused before it is sent
  await page.getByLabel('Command', { exact: true }).fill('format-disk');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'This bot knows these commands' })).toBeVisible();

  await page.getByLabel('Command', { exact: true }).fill('start-scan');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(entry('> start-scan')).toContainText('Scan started');
  const log = page.getByRole('log', { name: `Log of ${name}` });
  await expect(log).toContainText('Governor 5 of 5');
  const waiting = page.getByRole('alert').filter({ hasText: 'is waiting for someone' });
  await expect(waiting).toContainText(`${name} is waiting for someone`);
  await expect(waiting).toContainText('Duplicate governor found. Continue? [y/n]');
  await expect(page.getByRole('main').getByText(/^\d+ of \d+ \(/)).toContainText('5 of 5');

  await page.getByLabel('Command', { exact: true }).fill('answer y');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(log).toContainText('The scan finished.');
  await expect(waiting).toHaveCount(0);
  await expect(state(page.getByRole('main'))).toHaveText('Idle');

  // the upload happened once: the agent's "sent" command lists it, imported
  await page.getByRole('group', { name: 'Commands this bot knows' }).getByRole('button', { name: 'sent' }).click();
  await expect(entry('> sent')).toContainText(': imported (scan ');
});

test('monitor: the live log of every bot, filtered by bot and level, paused and resumed', async ({ page }) => {
  await acceptCookies(page);
  await signIn(page, ADMIN);
  const admin = await tokenOf(ADMIN);
  const names = [`Alpha ${uniqueTag()}`, `Beta ${uniqueTag()}`];
  const made = await Promise.all(names.map((n) => api<{ bot: { id: number }; token: string }>('bots', { name: n }, admin)));
  for (const m of made) startAgent(m.token);
  await page.goto('/admin/bot/monitor');
  const log = page.getByRole('log', { name: 'Log of all bots' });
  for (const n of names) await expect(log.getByText(`Connected to ${BASE_URL} as ${n}`)).toHaveCount(1, { timeout: 15_000 });

  await page.getByLabel('Bot', { exact: true }).selectOption({ label: names[0] });
  await expect(log.getByText(names[1])).toHaveCount(0);
  await expect(log.getByText(`as ${names[0]}`)).toHaveCount(1);
  await page.getByLabel('info', { exact: true }).click();
  await expect(log.getByTestId('log-line')).toHaveCount(0);
  await page.getByLabel('info', { exact: true }).click();

  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByRole('button', { name: 'Resume' })).toHaveAttribute('aria-pressed', 'true');
  const shown = await log.getByTestId('log-line').count();
  const sent = await api<{ command: { id: string } }>(`bots/${made[0].bot.id}/commands`, { command: 'ping' }, admin);
  expect(sent.command.id).toBeTruthy();
  await expect(page.getByText(/new lines? while paused/)).toBeVisible();
  await expect(log.getByText('Command: ping')).toHaveCount(0);
  expect(await log.getByTestId('log-line').count()).toBe(shown);
  await page.getByRole('button', { name: 'Resume' }).click();
  await expect(log.getByText('Command: ping')).toHaveCount(1);
});

test('Arabic, right to left: the status and monitor pages', async ({ page }) => {
  await acceptCookies(page);
  await signIn(page, ADMIN);
  await page.goto('/admin/bot/status');
  await page.getByLabel('Language').selectOption('ar');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByRole('heading', { name: 'تسجيل روبوت' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'الحالة' })).toBeVisible();
  await page.goto('/admin/bot/monitor');
  await expect(page.getByRole('button', { name: 'إيقاف مؤقت' })).toBeVisible();
  await expect(page.getByRole('log', { name: 'سجل كل الروبوتات' })).toBeVisible();
  // nothing wider than the screen at 375 px
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await page.getByLabel('اللغة').selectOption('en');
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
});

test("Arabic console: the agent's answers and log lines are said in Arabic, its own values kept", async ({ page }) => {
  await acceptCookies(page);
  await signIn(page, ADMIN);
  const admin = await tokenOf(ADMIN);
  const name = `Emulator ${uniqueTag()}`;
  const made = await api<{ bot: { id: number }; token: string }>('bots', { name }, admin);
  startAgent(made.token);
  await page.goto(`/admin/bot/console?bot=${made.bot.id}`);
  await page.getByLabel('Language').selectOption('ar');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByRole('main').getByText('متصل', { exact: true })).toBeVisible({ timeout: 15_000 });
  const history = page.getByRole('list', { name: 'الأوامر والردود' });
  const known = page.getByRole('group', { name: 'الأوامر التي يعرفها هذا الروبوت' });
  await known.getByRole('button', { name: 'stop', exact: true }).click();
  await expect(history.getByRole('listitem').filter({ hasText: '> stop' })).toContainText('لا يوجد مسح قيد التشغيل.');
  await known.getByRole('button', { name: 'sent', exact: true }).click();
  await expect(history.getByRole('listitem').filter({ hasText: '> sent' })).toContainText('لم يُرسل شيء بعد.');
  const log = page.getByRole('log');
  await expect(log.getByText(/^الأمر: .*stop/)).toHaveCount(1);
  await expect(log.getByText(/^Command: /)).toHaveCount(0);
  // the language is the account's: back to English for the other tests
  await page.getByLabel('اللغة').selectOption('en');
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
});

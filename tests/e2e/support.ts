import { expect, type Locator, type Page } from '@playwright/test';

/** E2E_PORT moves the three ports together, so two checkouts can run their browser tests at once. */
const base = Number(process.env.E2E_PORT ?? 7411);
export const PORTS = { http: base, auction: base + 1, user: base + 2 } as const;
export const BASE_URL = `http://127.0.0.1:${PORTS.http}`;
export const PASSWORD = 'Str0ng!pass';
export const ADMIN = { email: 'admin@e2e.test', password: PASSWORD, username: 'HighKing', playerid: '10000001' };

/**
 * Every run starts on an empty database (global-setup.ts), so names only need to be unique within a
 * run. They come from the worker's index and a counter, and every random choice from a seeded source
 * (E2E_SEED, default 1): a failing run can be replayed with the same names and numbers. A worker that
 * Playwright restarts after a failure has a new index, so it never repeats a name an earlier one used.
 */
const WORKER = Number(process.env.TEST_WORKER_INDEX ?? 0);
const SEED = Number(process.env.E2E_SEED ?? 1);

/** mulberry32: a small seeded generator of numbers in [0, 1). */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The tests' random numbers in [0, 1): seeded by E2E_SEED and the worker's index. */
export const random = seeded(SEED * 1_000_003 + WORKER);

let counter = 0;
/** A short tag unique within the run (worker and counter), for names the tests make up. */
export function uniqueTag(): string {
  return `${WORKER.toString(36)}x${(counter++).toString(36)}`;
}

/** A fresh account for one test: unique email, username and governor id. */
export function newAccount(prefix = 'gov') {
  const n = uniqueTag();
  return { email: `${prefix}.${n}@e2e.test`, password: PASSWORD, username: `${prefix}${n}`.slice(0, 32), playerid: String(20000000 + Math.floor(random() * 9e7)) };
}

export async function api<T>(path: string, body?: unknown, token?: string, method = 'POST'): Promise<T> {
  const res = await fetch(`${BASE_URL}/${path}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return (await res.json()) as T;
}

/** Creates a store item through the API (an hour-long English item unless `body` says otherwise); its id. */
export async function createItem(token: string, body: Record<string, unknown>): Promise<number> {
  const answer = await api<{ result: boolean; item: { itemId: number }; error?: string }>(
    'store/items',
    { start_price: 100, minIncrement: 10, duration: 3600, extendWindow: 0, maxExtensions: 0, ...body },
    token,
  );
  expect(answer.result, answer.error).toBe(true);
  return answer.item.itemId;
}

export async function register(account = newAccount()) {
  const answer = await api<{ status: string; error?: string }>('auth/register', account);
  expect(answer.status, answer.error).toBe('success');
  return account;
}

const tokens = new Map<string, string>();
/** A token for the account, signed in once per test run (sign-in is rate-limited per email). */
export async function tokenOf(account: { email: string; password: string }): Promise<string> {
  const known = tokens.get(account.email);
  if (known) return known;
  const answer = await api<{ token: { access_token: string } }>('auth/login', { email: account.email, password: account.password });
  tokens.set(account.email, answer.token.access_token);
  return answer.token.access_token;
}

/** A registered account with the given rank (set by the admin through the API). */
export async function accountWithRank(rank: 'user' | 'council' | 'admin', prefix = rank) {
  const account = await register(newAccount(prefix));
  if (rank !== 'user') {
    const admin = await tokenOf(ADMIN);
    const answer = await api<{ result: boolean }>(`admin/users/${encodeURIComponent(account.username)}/rank`, { rank }, admin);
    expect(answer.result).toBe(true);
  }
  return account;
}

/** Accepts the cookie banner up front so it covers nothing. */
export async function acceptCookies(page: Page) {
  await page.context().addCookies([{ name: 'kingdom_cookie_consent', value: '1', url: BASE_URL }]);
}

export async function signIn(page: Page, account: { email: string; password: string }, { remember = true } = {}) {
  await page.goto('/signin');
  await page.getByLabel('Email', { exact: true }).fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  if (!remember) await page.getByLabel('Remember me', { exact: true }).click();
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
}

/**
 * A live item's card on the store page. The live grid renders only the rows near the screen
 * (virtualised) and other tests leave live items of their own, so this scrolls down a screen at a
 * time until the card is rendered, then brings it into view.
 */
export async function liveCard(page: Page, itemName: string): Promise<Locator> {
  const card = page.getByRole('article', { name: itemName, exact: true });
  await expect(async () => {
    if (await card.count()) return;
    await page.evaluate(() => window.scrollBy(0, window.innerHeight));
    throw new Error(`the card of ${itemName} is not rendered yet`);
  }).toPass({ timeout: 20_000 });
  await card.scrollIntoViewIfNeeded();
  await expect(card).toBeVisible();
  return card;
}

/** A pattern that matches `text` exactly (surrounding white space aside), for names that hold regex characters. */
export function exactly(text: string): RegExp {
  return new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`);
}

/** The sidebar landmark, named in the page's language (a drawer below 992 px: see the menu button). */
export function sidebar(page: Page, name = 'Sidebar'): Locator {
  return page.getByRole('complementary', { name, exact: true });
}

/** The notifications on screen (toasts): items of the Notifications region. */
export function toasts(page: Page): Locator {
  return page.getByRole('region', { name: 'Notifications', exact: true }).getByRole('listitem');
}

/** The top bar's connection indicator, which reads Connected or Disconnected. */
export function connection(page: Page): Locator {
  return page.getByRole('banner').getByText(/^(Connected|Disconnected)$/);
}

/** The sidebar's balance line ("1,000 kingdom points") and its reserved line ("200 reserved", only while points are held). */
export function balance(page: Page): Locator {
  return sidebar(page).getByText(/ kingdom points$/);
}
export function reserved(page: Page): Locator {
  return sidebar(page).getByText(/ reserved$/);
}

/** What a description list says for a term: the value (dd) next to the label (dt) that reads `term`. */
export function valueOf(scope: Page | Locator, term: string): Locator {
  return scope.getByRole('term').filter({ hasText: exactly(term) }).locator('xpath=following-sibling::dd[1]');
}

/** A table's rows of data: the header row holds column headers, not cells. */
export function dataRows(table: Locator): Locator {
  return table.getByRole('row').filter({ has: table.page().getByRole('cell') });
}

/** Picks a file as a person does: clicks the visible button and answers the browser's file chooser. */
export async function chooseFile(button: Locator, file: { name: string; mimeType: string; buffer: Buffer }) {
  const chooser = button.page().waitForEvent('filechooser');
  await button.click();
  await (await chooser).setFiles(file);
}

/** The cell of `row` in the column whose header reads `column` (the table's header row names its columns). */
export async function cell(row: Locator, column: string): Promise<Locator> {
  // the row may still be on its way (a list refetched after an edit): its table's headers are read once it is there
  await row.first().waitFor();
  const headers = (await row.locator('xpath=ancestor::table[1]').first().getByRole('columnheader').allTextContents()).map((h) => h.replace(/[▲▼]/g, '').trim());
  const index = headers.indexOf(column);
  if (index < 0) throw new Error(`no column headed “${column}” (the headers: ${headers.join(', ')})`);
  return row.getByRole('cell').nth(index);
}

/** A figure under its label in a list of stats (dt/dd): the number itself (the value's first part), without the note after it (its change since the scan before, the power it holds). */
export function figure(scope: Page | Locator, label: string): Locator {
  return valueOf(scope, label).locator('xpath=./*[1]');
}

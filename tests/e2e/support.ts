import { expect, type Locator, type Page } from '@playwright/test';

/** E2E_PORT moves the three ports together, so two checkouts can run their browser tests at once. */
const base = Number(process.env.E2E_PORT ?? 7411);
export const PORTS = { http: base, auction: base + 1, user: base + 2 } as const;
export const BASE_URL = `http://127.0.0.1:${PORTS.http}`;
export const PASSWORD = 'Str0ng!pass';
export const ADMIN = { email: 'admin@e2e.test', password: PASSWORD, username: 'HighKing', playerid: '10000001' };

let counter = 0;
/** A fresh account for one test: unique email, username and governor id. */
export function newAccount(prefix = 'gov') {
  const n = `${Date.now().toString(36)}${(counter++).toString(36)}${Math.floor(Math.random() * 1e4)}`;
  return { email: `${prefix}.${n}@e2e.test`, password: PASSWORD, username: `${prefix}${n}`.slice(0, 32), playerid: String(20000000 + Math.floor(Math.random() * 9e7)) };
}

export async function api<T>(path: string, body?: unknown, token?: string, method = 'POST'): Promise<T> {
  const res = await fetch(`${BASE_URL}/${path}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return (await res.json()) as T;
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
  const card = page.getByTestId('live-item').filter({ hasText: itemName });
  await expect(async () => {
    if (await card.count()) return;
    await page.evaluate(() => window.scrollBy(0, window.innerHeight));
    throw new Error(`the card of ${itemName} is not rendered yet`);
  }).toPass({ timeout: 20_000 });
  await card.scrollIntoViewIfNeeded();
  await expect(card).toBeVisible();
  return card;
}

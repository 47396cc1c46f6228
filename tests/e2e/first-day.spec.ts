import { readFileSync } from 'node:fs';
import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { BASE_URL, PASSWORD, acceptCookies, accountWithRank, api, dataRows, random, register, tokenOf, uniqueTag } from './support';

/**
 * What leadership trips on during its first day: tabs, tables and lists a person reads, each checked
 * where it is seen (widths, languages, the rows a page lists).
 */

type Messages = Record<string, string>;
const messages = (locale: string): Messages => JSON.parse(readFileSync(`src/locales/${locale}.json`, 'utf8')) as Messages;
const TEXT: Record<'en' | 'ar', Messages> = { en: messages('en'), ar: messages('ar') };

/** An admin of this file's own (its language is changed here; the first admin's is left alone). */
let admin: Promise<{ email: string; password: string }> | null = null;
const adminToken = async () => tokenOf(await (admin ??= accountWithRank('admin')));

/** A page signed in as that admin (by token), in the locale, at the width. */
async function openAs(browser: Browser, locale: 'en' | 'ar', width: number, path: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 800 }, timezoneId: 'UTC', locale: 'en-US' });
  const page = await context.newPage();
  await acceptCookies(page);
  const token = await adminToken();
  expect((await api<{ result: boolean }>('account/locale', { locale }, token)).result).toBe(true);
  await page.addInitScript(
    ([t, l]) => {
      localStorage.setItem('kingdom.token', t);
      const settings = JSON.parse(localStorage.getItem('kingdom.settings') ?? '{}') as Record<string, unknown>;
      localStorage.setItem('kingdom.settings', JSON.stringify({ ...settings, locale: l }));
    },
    [token, locale] as const,
  );
  await page.goto(path);
  await expect(page.locator('html')).toHaveAttribute('dir', locale === 'ar' ? 'rtl' : 'ltr');
  return page;
}

/** Each element's text fits its box, no two boxes overlap, all are on screen. */
async function expectSideBySide(items: Locator, width: number, what: string) {
  const boxes: { x: number; y: number; width: number; height: number }[] = [];
  for (const item of await items.all()) {
    const text = await item.textContent();
    expect(await item.evaluate((el) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight), `${what}: "${text}" is cut or runs out of its tab`).toBe(true);
    const box = (await item.boundingBox())!;
    expect(box.x >= 0 && box.x + box.width <= width, `${what}: "${text}" is on screen`).toBe(true);
    for (const other of boxes) {
      const apart = box.x + box.width <= other.x + 0.5 || other.x + other.width <= box.x + 0.5 || box.y + box.height <= other.y + 0.5 || other.y + other.height <= box.y + 0.5;
      expect(apart, `${what}: "${text}" overlaps another`).toBe(true);
    }
    boxes.push(box);
  }
}

test('Store Management: the state tabs sit side by side at 375 px, whole, in English and Arabic', async ({ browser }) => {
  for (const locale of ['en', 'ar'] as const) {
    const page = await openAs(browser, locale, 375, '/my-kingdom/kingdom-points/store-management');
    const tabs = page.getByRole('tablist', { name: TEXT[locale]['manage.items'], exact: true }).getByRole('tab');
    await expect(tabs).toHaveCount(5);
    await expect(tabs.filter({ hasText: TEXT[locale]['state.cancelled'] })).toBeVisible();
    await expectSideBySide(tabs, 375, locale);
    await page.context().close();
  }
});

test('Users: an email wraps only before its @ or a dot, never inside a word, at 1280 px', async ({ browser }) => {
  const tag = uniqueTag();
  const email = `kingdom.leadership.officer.of.the.realm.${tag}@e2e-firstday.test`;
  await register({ email, password: PASSWORD, username: `officer${tag}`, playerid: String(40000000 + Math.floor(random() * 9e7)) });
  const page = await openAs(browser, 'en', 1280, '/admin/users');
  await page.getByLabel('Search by name, email or governor ID').fill(tag);
  const shown = page.getByText(email, { exact: true });
  await expect(shown).toBeVisible();
  // where each line starts: the first character of every line after the first
  const lineStarts = await shown.evaluate((el) => {
    const starts: string[] = [];
    let top: number | null = null;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (let i = 0; i < text.length; i++) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rect = range.getClientRects()[0];
        if (!rect) continue;
        if (top !== null && rect.top > top + 2) starts.push(text[i]);
        top = rect.top;
      }
    }
    return starts;
  });
  expect(lineStarts.every((c) => c === '@' || c === '.'), `lines start with ${JSON.stringify(lineStarts)}`).toBe(true);
  await page.context().close();
});

const HEADER = 'ID,Name,Power,Killpoints,Deads,T1 Kills,T2 Kills,T3 Kills,T4 Kills,T5 Kills,Alliance';

test('Dashboard: the governors in no alliance have a row of their own in the alliances table', async ({ browser }) => {
  const base = 70_000_000 + Math.floor(random() * 9_000_000);
  const rows = [
    [base, 'Allied One', 90_000_000, 'FD1'],
    [base + 1, 'Lone Wolf', 40_000_000, ''],
    [base + 2, 'Lone Fox', 20_000_000, ''],
  ];
  const csv = [HEADER, ...rows.map(([id, name, power, alliance]) => [id, name, power, 100, 10, 0, 0, 0, 1, 1, alliance].join(','))].join('\n') + '\n';
  const token = await adminToken();
  const form = new FormData();
  form.append('takenAt', '2019-06-01T00:00:00Z');
  form.append('file', new Blob([csv], { type: 'text/csv' }), `firstday-${base}.csv`);
  const previewed = (await (await fetch(`${BASE_URL}/scans/preview`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } })).json()) as { preview: { token: string } };
  const applied = await api<{ result: boolean; scan: { id: number } }>('scans/apply', { token: previewed.preview.token }, token);
  expect(applied.result).toBe(true);

  for (const locale of ['en', 'ar'] as const) {
    const page = await openAs(browser, locale, 1280, '/my-kingdom/dashboard');
    await page.getByLabel(TEXT[locale]['dashboard.scan'], { exact: true }).selectOption(String(applied.scan.id));
    const table = page.getByTestId('alliances').getByRole('table');
    await expect(dataRows(table)).toHaveCount(2);
    await expect(dataRows(table).nth(0)).toContainText('FD1');
    const none = dataRows(table).nth(1);
    await expect(none.getByRole('cell').first()).toHaveText(TEXT[locale]['dashboard.noAlliance']);
    await expect(none.getByRole('cell').nth(1)).toHaveText('2');
    await page.context().close();
  }
});

test('Store History lists a cancelled item, and its filter offers Cancelled', async ({ browser }) => {
  const token = await adminToken();
  const itemName = `Withdrawn banner ${uniqueTag()}`;
  const created = await api<{ result: boolean; item: { itemId: number }; error?: string }>(
    'store/items',
    { itemName, start_price: 10, minIncrement: 5, duration: 600, extendWindow: 0, maxExtensions: 0, startsAt: Date.now() + 3600_000 },
    token,
  );
  expect(created.result, created.error).toBe(true);
  expect((await api<{ result: boolean }>(`store/items/${created.item.itemId}/cancel`, undefined, token)).result).toBe(true);

  const page = await openAs(browser, 'en', 1280, '/my-kingdom/kingdom-points/store-history');
  const row = page.getByRole('row').filter({ hasText: itemName });
  await expect(row).toContainText('Cancelled');
  const outcome = page.getByLabel('Outcome', { exact: true });
  await expect(outcome.getByRole('option')).toHaveText(['Every outcome', 'Sold', 'Not sold', 'Cancelled']);
  await outcome.selectOption('cancelled');
  await expect(row).toBeVisible();
  await expect(page.getByTestId('history-row').and(page.locator('[data-outcome="sold"]'))).toHaveCount(0);
  await outcome.selectOption('unsold');
  await expect(row).toHaveCount(0);
  await page.context().close();
});

import { expect, test, type Browser, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import WebSocket from 'ws';
import { ADMIN, PASSWORD, PORTS, acceptCookies, api, dataRows, exactly, liveCard, random, register, tokenOf, uniqueTag, valueOf } from './support';

/**
 * With long item names and a long username on every page, the document is never wider
 * than the viewport, at 375 and 1280 px, in English and Arabic. One page per language and width,
 * walking through every protected route as an admin (so all of them are reachable).
 */

type Messages = Record<string, string>;
const messages = (locale: string): Messages => JSON.parse(readFileSync(`src/locales/${locale}.json`, 'utf8')) as Messages;
const LOCALES: Record<'en' | 'ar', Messages> = { en: messages('en'), ar: messages('ar') };

/** The protected routes, each with the message id of its page heading. */
const ROUTES: [path: string, titleId: string][] = [
  ['/my-account/profile', 'menu.profile'],
  ['/my-account/account-settings', 'settings.title'],
  ['/my-account/groups', 'menu.groups'],
  ['/my-account/kingdom-store', 'menu.kingdomStore'],
  ['/my-kingdom/dashboard', 'menu.dashboard'],
  ['/my-kingdom/kvk-dashboard', 'menu.kvkDashboard'],
  ['/my-kingdom/metrics', 'menu.metrics'],
  ['/my-kingdom/kingdom-points/store-management', 'menu.storeManagement'],
  ['/my-kingdom/kingdom-points/point-management', 'menu.pointManagement'],
  ['/my-kingdom/kingdom-points/store-history', 'menu.storeHistory'],
  ['/my-kingdom/kingdom-points/automatic-points', 'menu.automaticPoints'],
  ['/my-kingdom/settings', 'menu.settings'],
  ['/my-kingdom/migrant-dashboard', 'menu.migrantDashboard'],
  ['/admin/admin-dashboard', 'menu.adminDashboard'],
  ['/admin/kvk-management', 'menu.kvkManagement'],
  ['/admin/kingdom-management', 'menu.kingdomManagement'],
  ['/admin/scans', 'menu.scans'],
  ['/admin/users', 'menu.users'],
  ['/admin/bot/status', 'menu.botStatus'],
  ['/admin/bot/monitor', 'menu.botMonitor'],
  ['/admin/bot/console', 'menu.botConsole'],
  ['/admin/player-ids', 'menu.playerIds'],
  ['/admin/alliances', 'menu.alliances'],
];

const tag = uniqueTag();
/** The longest username sign-up takes (32), with no break opportunity. */
const LONG_USER = `Wolfgangamadeusmozart${tag}`.padEnd(32, 'W').slice(0, 32);
/** Item names of the longest kind: words, and one unbroken token (ITEM_NAME_MAX is 100). */
const NAMES = {
  live: `Legendary Commander Sculpture of the Northern Kingdom ${tag}`,
  liveToken: `Supercalifragilisticexpialidocious${tag}`.padEnd(60, 'X'),
  upcoming: `Scheduled Gemstone Treasure Chest Collection ${tag}`,
  sold: `Ancient Golden Dragon Statue Collector Edition ${tag}`,
  unsold: `Unclaimed Silver Armament Crate of the Season ${tag}`,
};
/** Any of the long names: the buttons that open an item's details are named by it. */
const ITEM_NAMES = new RegExp(Object.values(NAMES).map((n) => exactly(n).source).join('|'));

/** Sends one bid on the auction socket as the token's user and waits for it to be accepted. */
async function bidAs(token: string, itemId: number, amount: number, username: string) {
  const socket = new WebSocket(`ws://127.0.0.1:${PORTS.auction}`);
  try {
    await new Promise<void>((resolve, reject) => {
      socket.on('error', reject);
      socket.on('open', () => {
        socket.send(JSON.stringify({ type: 'AUTHENTICATION', access_token: `Bearer ${token}` }));
        socket.send(JSON.stringify({ type: 'CREATE_BID', data: { itemId, amount, requestId: `layout-${itemId}-${amount}` } }));
      });
      socket.on('message', (raw) => {
        const frame = JSON.parse(String(raw)) as { type: string; error_type?: string; data?: { itemId?: number; username?: string } };
        if (frame.type === 'ERROR') reject(new Error(`bid refused: ${frame.error_type}`));
        if (frame.type === 'BID_CREATED' && frame.data?.itemId === itemId && frame.data.username === username) resolve();
      });
    });
  } finally {
    socket.close();
  }
}

async function createItem(admin: string, itemName: string, extra: Record<string, unknown> = {}) {
  const answer = await api<{ result: boolean; item: { itemId: number }; error?: string }>(
    'store/items',
    { itemName, description: `${itemName}: a long description. `.repeat(4), start_price: 1_000_000, minIncrement: 250_000, duration: 3600, extendWindow: 0, maxExtensions: 0, ...extra },
    admin,
  );
  expect(answer.result, answer.error).toBe(true);
  return answer.item.itemId;
}

let seeded = false;
/** Live for an hour: cancelled when this file is done, so the tests after it do not scroll past them. */
const liveItems: number[] = [];
test.afterAll(async () => {
  const admin = await tokenOf(ADMIN);
  for (const itemId of liveItems.splice(0)) await api(`store/items/${itemId}/cancel`, undefined, admin);
});
/** Long names everywhere: live, upcoming, sold and unsold items, bids and ledger entries of the long username. */
async function seed() {
  if (seeded) return;
  const admin = await tokenOf(ADMIN);
  await register({ email: `long.${tag}@e2e.test`, password: PASSWORD, username: LONG_USER, playerid: String(30000000 + Math.floor(random() * 9e7)) });
  expect((await api<{ result: boolean }>(`admin/users/${encodeURIComponent(LONG_USER)}/rank`, { rank: 'admin' }, admin)).result).toBe(true);
  await api('points/transactions', { username: LONG_USER, delta: 900_000_000, reason: `Layout test grant with a long reason ${'word '.repeat(12)}` }, admin);
  const long = await tokenOf({ email: `long.${tag}@e2e.test`, password: PASSWORD });

  const sold = await createItem(admin, NAMES.sold, { duration: 10 });
  await bidAs(long, sold, 123_456_789, LONG_USER);
  const live = await createItem(admin, NAMES.live);
  await bidAs(long, live, 234_567_890, LONG_USER);
  const liveToken = await createItem(admin, NAMES.liveToken);
  liveItems.push(live, liveToken);
  await createItem(admin, NAMES.upcoming, { startsAt: Date.now() + 36 * 3600_000 });
  const unsold = await createItem(admin, NAMES.unsold);
  expect((await api<{ result: boolean }>(`store/items/${unsold}/cancel`, undefined, admin)).result).toBe(true);
  // the 10 s auction settles on the server's scheduler: wait for it, not for a fixed time
  await expect
    .poll(async () => (await api<{ items: { itemId: number }[] }>(`store/items?state=finished`, undefined, admin, 'GET')).items.some((i) => i.itemId === sold), { timeout: 20_000 })
    .toBe(true);
  seeded = true;
}

/** A page signed in as the long-named admin, in the locale, at the width. */
async function openAs(browser: Browser, locale: 'en' | 'ar', width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 800 } });
  const page = await context.newPage();
  await acceptCookies(page);
  const token = await tokenOf({ email: `long.${tag}@e2e.test`, password: PASSWORD });
  // the signed-in account's language wins over the browser's remembered one
  expect((await api<{ result: boolean }>('account/locale', { locale }, token)).result).toBe(true);
  await page.addInitScript(
    ([t, l]) => {
      localStorage.setItem('kingdom.token', t);
      const settings = JSON.parse(localStorage.getItem('kingdom.settings') ?? '{}') as Record<string, unknown>;
      localStorage.setItem('kingdom.settings', JSON.stringify({ ...settings, locale: l }));
    },
    [token, locale] as const,
  );
  await page.goto('/my-account/profile');
  await expect(page.locator('html')).toHaveAttribute('dir', locale === 'ar' ? 'rtl' : 'ltr');
  return page;
}

/** Client-side navigation (as a menu link does), so one page walks every route. */
async function go(page: Page, path: string) {
  await page.evaluate((p) => {
    history.pushState(null, '', p);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/** What must be on screen before a route is measured: its data with the long names. */
function waitForData(page: Page, path: string, locale: 'en' | 'ar') {
  const text = LOCALES[locale];
  switch (path) {
    case '/my-account/kingdom-store':
      // one card at a time (each scrolls), then the rest of the page from the top
      return liveCard(page, NAMES.live)
        .then(() => liveCard(page, NAMES.liveToken))
        .then(() => page.evaluate(() => window.scrollTo(0, 0)))
        .then(() => Promise.all([
        expect(page.getByRole('list', { name: text['store.upcoming'], exact: true }).getByRole('listitem').filter({ hasText: NAMES.upcoming })).toBeVisible(),
        expect(page.getByRole('list', { name: text['store.finished'], exact: true }).getByRole('listitem').filter({ hasText: NAMES.sold })).toBeVisible(),
        expect(page.getByRole('list', { name: text['store.latestBids'], exact: true }).getByRole('listitem').first()).toBeVisible(),
      ]));
    case '/my-kingdom/kingdom-points/store-management':
      return expect(page.getByRole('row').filter({ hasText: NAMES.upcoming })).toBeVisible();
    case '/my-kingdom/kingdom-points/store-history':
      return expect(page.getByRole('row').filter({ hasText: NAMES.sold })).toBeVisible();
    case '/my-kingdom/kingdom-points/point-management':
      return expect(dataRows(page.getByRole('table', { name: text['points.transactions'], exact: true })).first()).toBeVisible();
    default:
      return Promise.resolve();
  }
}

for (const locale of ['en', 'ar'] as const) {
  for (const width of [1280, 375]) {
    test(`no page is wider than the screen: ${locale}, ${width} px, long names`, async ({ browser }) => {
      test.setTimeout(90_000);
      await seed();
      const page = await openAs(browser, locale, width);
      const overflowing: string[] = [];
      for (const [path, titleId] of ROUTES) {
        await go(page, path);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(LOCALES[locale][titleId]);
        await waitForData(page, path, locale);
        const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
        if (scrollWidth > innerWidth) overflowing.push(`${path}: ${scrollWidth} px`);
        if (path === '/my-account/kingdom-store') {
          // #27: names wrap where there is room, never cut (each opens the item's details)
          const cut = await page.getByRole('button', { name: ITEM_NAMES }).evaluateAll((els) => els.filter((el) => el.scrollWidth > el.clientWidth).map((el) => el.textContent));
          expect(cut, 'item names cut').toEqual([]);
        }
      }
      expect(overflowing, `wider than ${width} px`).toEqual([]);
      await page.context().close();
    });
  }
}


test('the profile tabs are never cut at 375 px', async ({ browser }) => {
  await seed();
  for (const locale of ['en', 'ar'] as const) {
    const page = await openAs(browser, locale, 375);
    const tabs = page.getByRole('tab');
    await expect(tabs).toHaveCount(3);
    const labels = ['profile.tab.overview', 'profile.tab.kills', 'profile.tab.history'].map((id) => LOCALES[locale][id]);
    await expect(tabs).toHaveText(labels);
    const list = page.getByRole('tablist');
    expect(await list.evaluate((el) => el.scrollWidth <= el.clientWidth), `${locale}: the tab list scrolls`).toBe(true);
    for (let i = 0; i < 3; i++) {
      const tab = tabs.nth(i);
      expect(await tab.evaluate((el) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight), `${locale}: ${labels[i]} is cut`).toBe(true);
      const box = (await tab.boundingBox())!;
      expect(box.x >= 0 && box.x + box.width <= 375, `${locale}: ${labels[i]} is on screen`).toBe(true);
    }
    await page.context().close();
  }
});

test('in Arabic the governor id sits under its label, and the footer keeps its names whole', async ({ browser }) => {
  await seed();
  const page = await openAs(browser, 'ar', 375);
  // the id reads left to right, but is aligned like its label: to the right
  const label = page.getByText(LOCALES.ar['settings.playerid'], { exact: true });
  const id = valueOf(page, LOCALES.ar['settings.playerid']).locator('bdi');
  await expect(id).toHaveText(/^\d+$/);
  const [l, v] = [await label.boundingBox(), await id.boundingBox()];
  expect(Math.abs(l!.x + l!.width - (v!.x + v!.width)), 'right edges of label and id').toBeLessThanOrEqual(1);
  // "Rise of Kingdoms" and "Kingdom" stay whole, in their own order, inside the Arabic sentence
  const footer = page.getByRole('contentinfo');
  await expect(footer).toHaveText(LOCALES.ar['footer.credit'].replace(/<\/?(app|game)>/g, ''));
  const names = footer.locator('bdi');
  await expect(names).toHaveText(['Kingdom', 'Kingdom', 'Rise of Kingdoms']);
  for (const n of await names.all()) expect(await n.evaluate((el) => el.getClientRects().length), 'one line').toBe(1);
  await page.context().close();
});

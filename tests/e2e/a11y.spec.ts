import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { acceptCookies, accountWithRank, api, tokenOf } from './support';

/**
 * Accessibility: every built page — /signin, /signup and each route of
 * src/ui/routes.ts that is not planned — as an admin, in light and dark, English and Arabic, has no
 * serious or critical axe-core violation (WCAG 2.1 A and AA rules). One browser context per
 * theme and locale; the signed-in pages are reached by client-side navigation, as the menu does.
 */
const routesSource = readFileSync('src/ui/routes.ts', 'utf8');
const BUILT = [...routesSource.matchAll(/\{ path: '([^']+)', titleId: '[^']+', page: \w+ \}/g)].map((m) => m[1].replace(':governorId', '10000001'));

async function violations(page: Page, where: string): Promise<string[]> {
  // only the violations are collected (not the passes): the same checks, a fraction of the time
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).options({ resultTypes: ['violations'] }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${where}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes.slice(0, 4).map(describe).join(' | ')}`);
}

/** A failing element: where it is, and for contrast the colours and the ratio axe measured. */
function describe(node: { target: unknown[]; html: string; any: { data?: unknown }[] }): string {
  const data = node.any[0]?.data as { fgColor?: string; bgColor?: string; contrastRatio?: number } | undefined;
  const colours = data?.contrastRatio ? ` ${data.fgColor} on ${data.bgColor} = ${data.contrastRatio}` : '';
  return `${node.target.join(' ')} ${node.html.slice(0, 80)}${colours}`;
}

/** The page's content is there: its heading changed from the last page's, nothing is still loading. */
async function settled(page: Page, previous: string | null): Promise<string> {
  const heading = page.getByRole('heading', { level: 1 });
  if (previous !== null) await expect(heading).not.toHaveText(previous);
  await expect(heading).toBeVisible();
  await expect(page.locator('[aria-busy="true"], [data-testid="table-skeleton"]')).toHaveCount(0);
  return (await heading.textContent()) ?? '';
}

/** Client-side navigation (as a menu link does), so one page walks every route. */
async function go(page: Page, path: string) {
  await page.evaluate((p) => {
    history.pushState(null, '', p);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

test('the routes this spec visits are the built ones', () => {
  expect(BUILT).toContain('/my-account/profile');
  expect(BUILT).toContain('/admin/scans');
  // every page is built now: the KvK dashboard and the bot console are visited too
  expect(BUILT.some((p) => p.includes('kvk-dashboard'))).toBe(true);
  expect(BUILT.some((p) => p.includes('bot/console'))).toBe(true);
});

for (const theme of ['light', 'dark'] as const) {
  for (const locale of ['en', 'ar'] as const) {
    test(`no serious or critical accessibility violation: ${theme}, ${locale}`, async ({ browser }) => {
      test.setTimeout(90_000);
      const admin = await accountWithRank('admin');
      const token = await tokenOf(admin);
      // the signed-in account's language wins over the browser's remembered one
      expect((await api<{ result: boolean }>('account/locale', { locale }, token)).result).toBe(true);
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await acceptCookies(page);
      await page.addInitScript(
        ([t, l]) => localStorage.setItem('kingdom.settings', JSON.stringify({ theme: t, locale: l })),
        [theme, locale] as const,
      );
      const found: string[] = [];

      for (const path of ['/signup', '/signin']) {
        await page.goto(path);
        await expect(page.locator('html')).toHaveAttribute('dir', locale === 'ar' ? 'rtl' : 'ltr');
        await expect(page.getByRole('button').first()).toBeVisible();
        found.push(...(await violations(page, path)));
      }

      // signed in as the stored session of a visitor who ticked "remember me"
      await page.evaluate((t) => localStorage.setItem('kingdom.token', t), token);
      await page.goto(BUILT[0]);
      let heading = await settled(page, null);
      for (const path of BUILT) {
        if (path !== new URL(page.url()).pathname) {
          await go(page, path);
          heading = await settled(page, heading);
        }
        found.push(...(await violations(page, path)));
      }
      await context.close();
      expect(found).toEqual([]);
    });
  }
}

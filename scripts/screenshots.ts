/**
 * Screenshots of the main pages for a person to look at: light and dark, English and Arabic,
 * 1280 px and 375 px. Needs a running server: BASE_URL (default http://127.0.0.1:7331),
 * EMAIL and PASSWORD of an account. Writes PNGs to screenshots/.
 *   npx tsx scripts/screenshots.ts [path …]
 */
import { mkdirSync } from 'node:fs';
import { chromium } from '@playwright/test';

const BASE = process.env.BASE_URL ?? 'http://127.0.0.1:7331';
const paths = process.argv.slice(2).length ? process.argv.slice(2) : ['/signin', '/signup', '/my-account/profile', '/my-account/account-settings', '/my-kingdom/dashboard', '/nope'];
const out = 'screenshots';
mkdirSync(out, { recursive: true });

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
for (const width of [1280, 375]) {
  for (const theme of ['dark', 'light']) {
    for (const locale of ['en', 'ar']) {
      const context = await browser.newContext({ viewport: { width, height: 860 } });
      const page = await context.newPage();
      await context.addCookies([{ name: 'kingdom_cookie_consent', value: '1', url: BASE }]);
      await page.goto(`${BASE}/signin?theme=${theme}`);
      await page.evaluate((l) => {
        const s = JSON.parse(localStorage.getItem('kingdom.settings') ?? '{}');
        localStorage.setItem('kingdom.settings', JSON.stringify({ ...s, locale: l }));
      }, locale);
      for (const path of paths) {
        if (!path.startsWith('/sign') && process.env.EMAIL && !(await page.evaluate(() => localStorage.getItem('kingdom.token')))) {
          await page.goto(`${BASE}/signin`);
          await page.fill('#email', process.env.EMAIL);
          await page.fill('#password', process.env.PASSWORD ?? '');
          await page.click('button[type=submit]');
          await page.waitForURL((u) => !u.pathname.startsWith('/signin'));
          // the account's saved language applies at sign-in: save this round's language on the account
          await page.evaluate(async (l) => {
            const token = localStorage.getItem('kingdom.token');
            await fetch('/account/locale', { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ locale: l }) });
            const s = JSON.parse(localStorage.getItem('kingdom.settings') ?? '{}');
            localStorage.setItem('kingdom.settings', JSON.stringify({ ...s, locale: l }));
          }, locale);
        }
        await page.goto(`${BASE}${path}`);
        await page.waitForTimeout(700);
        const name = `${path.replace(/\//g, '_') || 'root'}-${theme}-${locale}-${width}.png`;
        await page.screenshot({ path: `${out}/${name}`, fullPage: false });
      }
      await context.close();
    }
  }
}
await browser.close();
console.log(`screenshots in ${out}/`);

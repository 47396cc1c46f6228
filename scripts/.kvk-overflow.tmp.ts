import { chromium } from '@playwright/test';
const BASE = 'http://127.0.0.1:7680';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const context = await browser.newContext({ viewport: { width: 375, height: 860 } });
const page = await context.newPage();
await context.addCookies([{ name: 'kingdom_cookie_consent', value: '1', url: BASE }]);
await page.goto(`${BASE}/signin`);
await page.fill('#email', 'admin@shots.test');
await page.fill('#password', 'Str0ng!pass');
await page.click('button[type=submit]');
await page.waitForURL((u) => !u.pathname.startsWith('/signin'));
for (const path of process.argv.slice(2)) {
  await page.goto(`${BASE}${path}`);
  await page.waitForLoadState('networkidle');
  const found = await page.evaluate(() => {
    const out: string[] = [`doc ${document.documentElement.scrollWidth}`];
    const main = document.querySelector('h1')!.parentElement!;
    for (const child of Array.from(main.children) as HTMLElement[]) {
      const was = child.style.display;
      child.style.display = 'none';
      out.push(`${child.tagName}.${String(child.className).slice(0, 40)} ${child.getAttribute('data-testid')} -> ${document.documentElement.scrollWidth}`);
      child.style.display = was;
    }
    let a: HTMLElement | null = main;
    while (a) { out.push(`${a.tagName} ${getComputedStyle(a).overflowX} ${a.scrollWidth} ${a.clientWidth}`); a = a.parentElement; }
    return out;
  });
  console.log(path, found);
}
await browser.close();

/**
 * npm run bench:stats-ui — does the kingdom dashboard's governors table stay smooth with 5,000 rows?
 * A real server (temp data) with one 5,000-governor scan imported through the API, the dashboard in
 * headless Chromium scrolling the table (it loads pages of rows as it goes) for 10 s. Reports frame
 * intervals (p50, p95, p99, worst), fps and long tasks; the same run on a 50-governor scan is the
 * baseline. Target: 60 fps, frame p99 < 20 ms.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { startServer } from '../server/app';
import { ephemeralConfig } from '../server/config';

const SECONDS = 10;
/** Pixels scrolled every 50 ms: 400 is a fast flick (8,000 px/s), 100 a steady reading scroll (2,000 px/s). */
const STEP = Number(process.env.SCROLL_STEP ?? 400);
const PASSWORD = 'Bench!pass1';

async function scenario(governors: number) {
  const dir = mkdtempSync(join(tmpdir(), 'kingdom-bench-stats-ui-'));
  const server = await startServer(ephemeralConfig(dir, { distDir: 'dist' }));
  const base = server.httpUrl;
  try {
    const post = async <T>(path: string, body: unknown, token?: string): Promise<T> =>
      (await (
        await fetch(`${base}/${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: JSON.stringify(body),
        })
      ).json()) as T;
    await post('auth/register', { email: 'admin@bench.test', password: PASSWORD, username: 'benchadmin', playerid: '1' });
    const token = (await post<{ token: { access_token: string } }>('auth/login', { email: 'admin@bench.test', password: PASSWORD })).token.access_token;

    // a RokTracker v6 file, seeded the same way every run
    let seed = 3328;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const header = 'ID,Name,Power,Killpoints,Deads,T1 Kills,T2 Kills,T3 Kills,T4 Kills,T5 Kills,Total Kills,T45 Kills,Rss Assistance,Helps,Alliance';
    const lines = Array.from({ length: governors }, (_, i) => {
      const t = [random() * 1e6, random() * 5e5, random() * 2e6, random() * 3e7, random() * 8e6].map(Math.floor);
      const kp = Math.floor(t[0] * 0.2) + t[1] * 2 + t[2] * 4 + t[3] * 10 + t[4] * 20;
      return [20_000_000 + i, `Governor ${i} of the kingdom`, Math.floor(random() * 2e8), kp, Math.floor(random() * 5e6), ...t, t.reduce((a, b) => a + b, 0), t[3] + t[4], Math.floor(random() * 2e9), Math.floor(random() * 1e5), `A${i % 20}`].join(',');
    });
    const form = new FormData();
    form.append('file', new Blob([[header, ...lines].join('\n')], { type: 'text/csv' }), 'TOP5000-2026-01-01-3328.csv');
    const preview = (await (await fetch(`${base}/scans/preview`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } })).json()) as { preview: { token: string } };
    const applied = await post<{ result: boolean; error?: string }>('scans/apply', { token: preview.preview.token }, token);
    if (!applied.result) throw new Error(`the scan was not imported: ${applied.error}`);

    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      await context.addCookies([{ name: 'kingdom_cookie_consent', value: '1', url: base }]);
      const page = await context.newPage();
      await page.goto(`${base}/signin`);
      await page.evaluate((t) => localStorage.setItem('kingdom.token', t), token);
      await page.goto(`${base}/my-kingdom/dashboard`);
      await page.getByTestId('governor-row').first().waitFor();
      // the table's own scroller, down and back at a steady pace, while every frame is timed
      await page.evaluate(`
        window.__frames = [];
        window.__long = [];
        new PerformanceObserver((list) => list.getEntries().forEach((e) => window.__long.push(e.duration))).observe({ type: 'longtask' });
        let last = performance.now();
        const tick = (now) => { window.__frames.push(now - last); last = now; requestAnimationFrame(tick); };
        requestAnimationFrame(tick);
        const scroller = document.querySelector('[data-testid="governors-table"]');
        let dir = 1;
        setInterval(() => {
          if (scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 5) dir = -1;
          if (scroller.scrollTop <= 0) dir = 1;
          scroller.scrollBy(0, dir * ${STEP});
        }, 50);
      `);
      await new Promise((r) => setTimeout(r, SECONDS * 1000));
      const { frames, long, rows } = await page.evaluate(() => {
        const w = window as unknown as { __frames: number[]; __long: number[] };
        return { frames: w.__frames.slice(1), long: w.__long, rows: document.querySelector('[data-testid="governors-table"]')?.scrollHeight ?? 0 };
      });
      const sorted = [...frames].sort((a, b) => a - b);
      const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
      return { governors, scrollHeight: rows, fps: frames.length / SECONDS, p50: pct(50), p95: pct(95), p99: pct(99), worst: sorted.at(-1) ?? 0, longTasks: long.length, longTaskMs: long.reduce((a, b) => a + b, 0) };
    } finally {
      await browser.close();
    }
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const baseline = await scenario(50);
const full = await scenario(5_000);
const row = (r: Awaited<ReturnType<typeof scenario>>) =>
  `${String(r.governors).padStart(5)} governors | ${r.fps.toFixed(1).padStart(5)} fps | frame p50 ${r.p50.toFixed(1)} p95 ${r.p95.toFixed(1)} p99 ${r.p99.toFixed(1)} worst ${r.worst.toFixed(1)} ms | long tasks ${r.longTasks} (${r.longTaskMs.toFixed(0)} ms)`;
console.log(`governors table scrolled ${STEP * 20} px/s for ${SECONDS} s, headless Chromium 1280x900`);
console.log(row(baseline));
console.log(row(full));
console.log(`5,000 rows: ${full.fps >= 58 && full.p99 < 20 ? 'met' : 'MISSED'} (target 60 fps, frame p99 < 20 ms); frame p99 ÷ the 50-row baseline: ${(full.p99 / baseline.p99).toFixed(2)}×`);

/**
 * `npm run bench:bots`: 50 bots connected, each logging 20 lines a second, with the bot monitor
 * open in headless Chromium. Reports the server's CPU (its own process, from /proc) idle and under
 * that load, the monitor page's frame intervals (p50/p95/p99, target p99 < 20 ms) and a command's
 * round trip (REST POST bots/:id/commands → the bot answers → COMMAND_ANSWER on an admin's watch
 * socket; target p99 < 100 ms). Ports: BENCH_PORT (default 7745) and the two after it.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { WebSocket } from 'ws';

const BOTS = Number(process.env.BOTS ?? 50);
const LINES_PER_S = Number(process.env.LINES_PER_S ?? 20);
const SECONDS = Number(process.env.SECONDS ?? 15);
const COMMANDS_PER_S = 8;
const PORT = Number(process.env.BENCH_PORT ?? 7745);
const BASE = `http://127.0.0.1:${PORT}`;
const PASSWORD = 'Passw0rd!bench';
const TICKS = 100; // Linux USER_HZ

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kingdom-bench-bots-'));
const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
  env: { ...process.env, PORT: String(PORT), AUCTION_PORT: String(PORT + 1), USER_PORT: String(PORT + 2), DATA_DIR: path.join(dir, 'data'), HOST: '127.0.0.1', LOG_LEVEL: 'warn', SIGNUPS_PER_HOUR: '1000' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const cleanup = () => {
  if (server.exitCode === null) server.kill('SIGTERM');
};
process.on('exit', cleanup);

function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS; // utime + stime
}
async function cpuOver(ms: number): Promise<number> {
  const a = cpuSeconds(server.pid!);
  const t = performance.now();
  await new Promise((r) => setTimeout(r, ms));
  return ((cpuSeconds(server.pid!) - a) / ((performance.now() - t) / 1000)) * 100;
}

async function post<T>(url: string, body: unknown, token?: string): Promise<{ status: number; body: T }> {
  const res = await fetch(`${BASE}/${url}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as T };
}

for (let i = 0; ; i++) {
  try {
    await fetch(`${BASE}/openapi.json`);
    break;
  } catch {
    if (i > 120) throw new Error('the server did not start');
    await new Promise((r) => setTimeout(r, 250));
  }
}
await post('auth/register', { email: 'lead@bench.test', password: PASSWORD, username: 'BenchLead', playerid: '1234567' });
const token = (await post<{ token: { access_token: string } }>('auth/login', { email: 'lead@bench.test', password: PASSWORD })).body.token.access_token;

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((sorted.length * p) / 100) - 1))] ?? NaN;
const fmt = (n: number) => n.toFixed(1);

const idleCpu = await cpuOver(3000);

// ── 50 bots ─────────────────────────────────────────────────────────────────────────────────
interface BenchBot {
  id: number;
  ws: WebSocket;
}
const bots: BenchBot[] = [];
for (let i = 0; i < BOTS; i++) {
  const made = await post<{ bot: { id: number }; token: string }>('bots', { name: `Bench bot ${String(i + 1).padStart(2, '0')}` }, token);
  const ws = new WebSocket(`${BASE.replace('http', 'ws')}/bots`);
  await new Promise<void>((resolve, reject) => {
    ws.on('open', () => ws.send(JSON.stringify({ type: 'BOT_HELLO', token: made.body.token, version: 'bench' })));
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as { type: string; id?: string };
      if (frame.type === 'BOT_WELCOME') resolve();
      // answer every command at once
      if (frame.type === 'COMMAND') ws.send(JSON.stringify({ type: 'COMMAND_RESULT', id: frame.id, ok: true, output: 'pong' }));
    });
    ws.on('error', reject);
  });
  bots.push({ id: made.body.bot.id, ws });
}
const connectedCpu = await cpuOver(3000);

// the monitor in Chromium
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
await context.addCookies([{ name: 'kingdom_cookie_consent', value: '1', url: BASE }]);
const page = await context.newPage();
await page.goto(`${BASE}/signin`);
await page.evaluate((t) => localStorage.setItem('kingdom.token', t), token);
await page.goto(`${BASE}/admin/bot/monitor`);
await page.getByTestId('watch-status').and(page.locator('[data-state="live"]')).waitFor({ timeout: 30_000 });

const FRAMES_JS = `
  window.__frames = [];
  window.__long = [];
  window.__observer?.disconnect();
  window.__observer = new PerformanceObserver((list) => list.getEntries().forEach((e) => window.__long.push(e.duration)));
  window.__observer.observe({ type: 'longtask' });
  let last = performance.now();
  const id = (window.__tick = (window.__tick ?? 0) + 1);
  const tick = (now) => { if (window.__tick !== id) return; window.__frames.push(now - last); last = now; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
`;
async function readFrames() {
  const got = await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __long: number[] };
    return { frames: w.__frames.slice(1), long: w.__long };
  });
  return { frames: [...got.frames].sort((a, b) => a - b), long: got.long };
}
const frameLine = (label: string, f: { frames: number[]; long: number[] }, seconds: number) =>
  `${label}: ${f.frames.length} frames (${fmt(f.frames.length / seconds)} fps) p50 ${fmt(pct(f.frames, 50))} p95 ${fmt(pct(f.frames, 95))} p99 ${fmt(pct(f.frames, 99))} worst ${fmt(f.frames.at(-1) ?? NaN)} ms | long tasks ${f.long.length} (${fmt(f.long.reduce((a, b) => a + b, 0))} ms)`;

// baseline: the monitor open, 50 bots connected and silent
await page.evaluate(FRAMES_JS);
await new Promise((r) => setTimeout(r, 5000));
const quiet = await readFrames();

// an admin's watch socket, for the command answers
const watch = new WebSocket(`${BASE.replace('http', 'ws')}/bots/watch`);
const answered = new Map<string, number>();
await new Promise<void>((resolve) => {
  watch.on('open', () => watch.send(JSON.stringify({ type: 'AUTHENTICATION', access_token: `Bearer ${token}` })));
  watch.on('message', (data) => {
    const text = String(data);
    if (text.startsWith('{"type":"BOTS_SNAPSHOT"')) resolve();
    if (text.startsWith('{"type":"COMMAND_ANSWER"')) {
      const msg = JSON.parse(text) as { answer: { id: string } };
      answered.set(msg.answer.id, performance.now());
    }
  });
});

// logging: each bot 20 lines a second, statuses every 10 s
let lines = 0;
const loggers = bots.map((bot, i) =>
  setTimeout(() => {
    const timer = setInterval(() => {
      lines += 1;
      bot.ws.send(JSON.stringify({ type: 'BOT_LOG', level: lines % 50 === 0 ? 'warn' : 'info', text: `Governor ${lines} of 300: power 12,345,678, kill points 987,654 (bench line ${lines})` }));
    }, 1000 / LINES_PER_S);
    const status = setInterval(() => bot.ws.send(JSON.stringify({ type: 'BOT_STATUS', state: 'scanning', progress: { done: lines % 300, total: 300, etaSeconds: 120 } })), 10_000);
    timers.push(timer, status);
  }, (i * 1000) / LINES_PER_S / BOTS),
);
const timers: NodeJS.Timeout[] = [];
await new Promise((r) => setTimeout(r, 3000)); // warm up

await page.evaluate(FRAMES_JS);
const roundTrips: number[] = [];
const sentAt = new Map<string, number>();
let refused = 0;
const commander = setInterval(() => {
  const bot = bots[Math.floor(Math.random() * bots.length)];
  const t = performance.now();
  void post<{ command?: { id: string } }>(`bots/${bot.id}/commands`, { command: 'ping' }, token).then((r) => {
    if (r.body.command) sentAt.set(r.body.command.id, t);
    else refused += 1;
  });
}, 1000 / COMMANDS_PER_S);
const linesBefore = lines;
const loadCpu = await cpuOver(SECONDS * 1000);
const linesSent = lines - linesBefore;
clearInterval(commander);
await new Promise((r) => setTimeout(r, 500));
for (const [id, t] of sentAt) {
  const at = answered.get(id);
  if (at !== undefined) roundTrips.push(at - t);
}
const loaded = await readFrames();
const shown = Number(await page.getByTestId('bot-log').getAttribute('data-count'));
for (const t of [...timers, ...loggers]) clearInterval(t);

roundTrips.sort((a, b) => a - b);
console.log(`bots: ${BOTS}, ${LINES_PER_S} lines/s each (${Math.round(linesSent / SECONDS)} lines/s sent), ${SECONDS} s measured, monitor open in headless Chromium (${shown} lines in its list)`);
console.log(`server CPU: idle ${fmt(idleCpu)}% | ${BOTS} bots connected ${fmt(connectedCpu)}% | logging with the monitor open ${fmt(loadCpu)}% → added ${fmt(loadCpu - idleCpu)}% of one core`);
console.log(frameLine('monitor, bots silent (baseline)', quiet, 5));
console.log(`${frameLine('monitor, bots logging', loaded, SECONDS)}  [target p99 < 20 ms]`);
console.log(`machine load average during the run: ${os.loadavg().map((n) => n.toFixed(1)).join(', ')} on ${os.cpus().length} cores`);
console.log(`command round trip: ${roundTrips.length} commands (${refused} refused) p50 ${fmt(pct(roundTrips, 50))} p95 ${fmt(pct(roundTrips, 95))} p99 ${fmt(pct(roundTrips, 99))} worst ${fmt(roundTrips.at(-1) ?? NaN)} ms  [target p99 < 100 ms]`);

await browser.close();
watch.close();
for (const b of bots) b.ws.close();
server.kill('SIGTERM');
await new Promise((r) => server.once('exit', r));
fs.rmSync(dir, { recursive: true, force: true });
process.exit(0);

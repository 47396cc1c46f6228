/**
 * `npm run bench:xlsx`: one valid scan workbook of 25,000 governors × 60 columns (about 6.5 MB,
 * within every limit) previewed while an ordinary player asks POST auth/me every 50 ms and bids
 * every 250 ms (the abuse benchmark's victim, its own process). Prints each preview's time, the
 * player's REST and bid p50/p99 while no preview runs and while previews run, and the server's
 * peak memory. Target: the others' p99 below 100 ms while a spreadsheet is read.
 * Options: KINGDOM_BENCH_XLSX_PREVIEWS (how many previews one after another, default 3).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import writeXlsxFile from 'write-excel-file/node';
import { ADDRESSES, httpJson } from './abuse-common';
import { nowMs, quantile } from './common';
import { killChildren, spawnChild, tempDirRemovedOnExit, type Child } from './harness';

const GOVERNORS = 25_000;
const COLUMNS = 60;
const PREVIEWS = Number(process.env.KINGDOM_BENCH_XLSX_PREVIEWS ?? 3);
const QUIET_S = 4;
const PASSWORD = 'Bench!pass1';

type Sample = [sentAt: number, ms: number, ok: 0 | 1];
type Phase = { start: number; end: number };

/** The workbook, written once and kept in the system's temporary folder (it takes a while to write). */
async function workbook(): Promise<Buffer> {
  const file = path.join(os.tmpdir(), `kingdom-bench-${GOVERNORS}x${COLUMNS}.xlsx`);
  if (fs.existsSync(file)) return fs.readFileSync(file);
  const stats = ['Power', 'Killpoints', 'Deads', 'T1 Kills', 'T2 Kills', 'T3 Kills', 'T4 Kills', 'T5 Kills', 'Total Kills', 'T45 Kills', 'Ranged', 'Rss Gathered', 'Rss Assistance', 'Helps', 'Acclaim', 'Highest Acclaim'];
  const header = ['ID', 'Name', 'Alliance', ...stats];
  for (let i = header.length; i < COLUMNS; i++) header.push(`Extra ${i}`);
  const rows: { value: string | number }[][] = [header.map((value) => ({ value }))];
  for (let g = 0; g < GOVERNORS; g++) {
    const row: { value: string | number }[] = [{ value: 10_000_000 + g }, { value: `Governor ${g}` }, { value: `A${g % 40}` }];
    for (let c = 3; c < COLUMNS; c++) row.push({ value: (g * 7919 + c * 104_729) % 1_000_000_000 });
    rows.push(row);
  }
  const bytes = await writeXlsxFile(rows as never).toBuffer();
  fs.writeFileSync(file, bytes);
  return bytes;
}

async function post(base: string, url: string, body: unknown, token?: string): Promise<Record<string, unknown>> {
  const answer = await httpJson(base, 'POST', url, { body, token, localAddress: ADDRESSES.setup, timeoutMs: 30_000 });
  if (answer.status !== 200) throw new Error(`POST ${url}: ${answer.status} ${answer.text}`);
  return answer.body;
}
let governorIds = 100_000;
async function account(base: string, username: string): Promise<string> {
  const email = `${username}@bench.test`;
  await post(base, '/auth/register', { email, password: PASSWORD, username, playerid: String((governorIds += 1)) });
  return ((await post(base, '/auth/login', { email, password: PASSWORD })).token as { access_token: string }).access_token;
}

function rssMb(pid: number): number {
  try {
    const line = fs.readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
    return line ? Number(line.split(/\s+/)[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

function side(samples: Sample[], phases: Phase[]) {
  const inside = samples.filter(([sent]) => phases.some((p) => sent >= p.start && sent <= p.end));
  const sorted = inside.map(([, ms]) => ms).sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return { p50: round(quantile(sorted, 0.5)), p99: round(quantile(sorted, 0.99)), max: round(sorted[sorted.length - 1] ?? NaN), count: inside.length, failed: inside.filter(([, , ok]) => ok === 0).length };
}

async function main(): Promise<void> {
  const t0 = nowMs();
  const bytes = await workbook();
  console.log(`workbook: ${GOVERNORS} governors × ${COLUMNS} columns, ${(bytes.length / 1024 / 1024).toFixed(2)} MB (${Math.round(nowMs() - t0)} ms to have it)`);
  const dir = tempDirRemovedOnExit('kingdom-xlsx-bench-');
  const server = await spawnChild<{ httpUrl: string; auctionUrl: string }>('bench/abuse-server-child.ts', [dir, 'cheap-argon2']);
  let victim: Child<{ ready: boolean }> | null = null;
  const rss: [number, number][] = [];
  const sampler = setInterval(() => rss.push([nowMs(), rssMb(server.pid)]), 50);
  try {
    const base = server.info.httpUrl;
    const admin = await account(base, 'benchadmin');
    const player = await account(base, 'player');
    await post(base, '/points/transactions', { username: 'player', delta: 1_000_000_000, reason: 'bench points' }, admin);
    const item = (await post(base, '/store/items', { itemName: 'Bench item', start_price: 1, minIncrement: 1, duration: 3600, extendWindow: 0, maxExtensions: 0 }, admin)).item as { itemId: number };
    victim = await spawnChild<{ ready: boolean }>('bench/abuse-victim-child.ts', [JSON.stringify({ httpUrl: base, auctionUrl: server.info.auctionUrl, token: player, itemId: item.itemId })]);
    const quiet: Phase = { start: nowMs(), end: NaN };
    await sleep(QUIET_S * 1000);
    quiet.end = nowMs();

    const busy: Phase[] = [];
    const times: number[] = [];
    for (let i = 0; i < PREVIEWS; i++) {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(bytes)]), `bench-${i}.xlsx`);
      const phase: Phase = { start: nowMs(), end: NaN };
      const response = await fetch(`${base}/scans/preview`, { method: 'POST', body: form, headers: { authorization: `Bearer ${admin}` } });
      const text = await response.text();
      phase.end = nowMs();
      if (response.status !== 200) throw new Error(`preview: ${response.status} ${text.slice(0, 200)}`);
      const preview = (JSON.parse(text) as { preview: { valid: number } }).preview;
      if (preview.valid !== GOVERNORS) throw new Error(`preview read ${preview.valid} governors`);
      busy.push(phase);
      times.push(Math.round(phase.end - phase.start));
      await sleep(1000);
    }
    const data = await victim.ask<{ rest: Sample[]; bids: Sample[] }>('collect', 20_000);
    const peak = (phases: Phase[]) => Math.round(Math.max(...rss.filter(([t, mb]) => phases.some((p) => t >= p.start && t <= p.end) && !Number.isNaN(mb)).map(([, mb]) => mb)));
    const result = {
      previewMs: times,
      rest: { quiet: side(data.rest, [quiet]), duringPreview: side(data.rest, busy) },
      bid: { quiet: side(data.bids, [quiet]), duringPreview: side(data.bids, busy) },
      serverRssMb: { quiet: peak([quiet]), duringPreview: peak(busy) },
    };
    console.log(JSON.stringify(result, null, 2));
    const pass = result.rest.duringPreview.p99 < 100 && result.bid.duringPreview.p99 < 100;
    console.log(pass ? 'pass: others p99 < 100 ms while a spreadsheet is read' : 'FAIL: others p99 ≥ 100 ms while a spreadsheet is read');
  } finally {
    clearInterval(sampler);
    await victim?.stop();
    killChildren();
  }
}

await main();
process.exit(0);

/**
 * npm run bench:replay — how fast a recorded log folds in Node.
 *
 * Builds a 100,000-frame log from the recorded fixtures' real frames (every incoming frame of
 * both sockets but the snapshots, repeated block after block with item ids and times moved on,
 * so each block is a new stretch of the same kinds of session; ids come round again after 40
 * blocks, so late blocks also carry stale and repeated frames), then measures, in the
 * same run:
 *   - parse only: JSON.parse of every line of the log;
 *   - fold: reading the log (each line parsed and checked) and replaying it through the
 *     normaliser, the connection machines and the board machine under the simulated clock.
 * The fold is `foldLog`, as `npm run replay` runs it; its board is checked against the positioned
 * replayer's (the QA player's) before anything is timed. Each is run twice to warm up, then
 * alternately RUNS times; medians are printed.
 * Prints frames per second of the fold and its time as a multiple of the parse-only time.
 * Targets: at least 100,000 frames/s, at most 3× the parse-only time.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseLog, type LogEntry } from '../src/streams/log';
import { foldLog, replayLog } from '../src/replay/replay';

const FRAMES = 100_000;
const RUNS = 9;
const DIR = join(import.meta.dirname, '..', 'tests', 'fixtures', 'logs');

type In = Extract<LogEntry, { dir: 'in' }>;

/** The incoming frames of every fixture, in order, with times relative to their log's start. */
function sourceFrames(): In[] {
  const frames: In[] = [];
  // string-ids is reconnect-history with its ids rewritten: the same frames again, left out so the log stays the one earlier figures were measured on
  for (const file of readdirSync(DIR).filter((f) => f.endsWith('.jsonl') && f !== 'string-ids.jsonl').sort()) {
    for (const entry of parseLog(readFileSync(join(DIR, file), 'utf8')).entries) {
      if (entry.dir !== 'in') continue;
      if (entry.msg?.type === 'HISTORY') continue;
      // live-300 is 150 starts in a row: once is enough to have hundreds of items on the board
      if (file.startsWith('live-300') && entry.msg?.type === 'BIDDING_STARTED' && frames.length > 0 && (entry.msg.data as { itemId: number }).itemId > 160) continue;
      frames.push(entry);
    }
  }
  return frames;
}

/** Blocks use item ids of their own, 40 blocks round: ~1,000 items on the board, as in a long, busy session. */
const ID_BLOCKS = 40;

/** A copy of a frame moved to block `block`: other item ids, later times. */
function shift(value: unknown, block: number, dt: number): unknown {
  if (Array.isArray(value)) return value.map((v) => shift(v, block, dt));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === 'itemId' && typeof v === 'number' && v < 1000) out[k] = v + (block % ID_BLOCKS) * 1000;
    else if ((k === 'timestamp' || k === 'endsAt') && typeof v === 'number') out[k] = v + dt;
    else out[k] = shift(v, block, dt);
  }
  return out;
}

function buildLog(): { text: string; lines: string[] } {
  const source = sourceFrames();
  const first = parseLog(readFileSync(join(DIR, 'normal-auction.jsonl'), 'utf8'));
  const lines: string[] = [
    JSON.stringify(first.header),
    JSON.stringify({ t: 0, ch: 'auction', dir: 'open', msg: {} }),
    JSON.stringify({ t: 1, ch: 'auction', dir: 'in', msg: { type: 'HISTORY', data: { bids: [], items: [] } } }),
    JSON.stringify({ t: 1, ch: 'user', dir: 'open', msg: {} }),
  ];
  let frames = 1;
  let t = 2;
  for (let block = 0; frames < FRAMES; block++) {
    const dt = block * 60_000;
    for (const frame of source) {
      if (frames >= FRAMES) break;
      t += 1;
      const line = frame.msg
        ? { t: t + dt, ch: frame.ch, dir: 'in', msg: shift(frame.msg, block, dt) }
        : { t: t + dt, ch: frame.ch, dir: 'in', raw: frame.raw, ...(frame.binary ? { binary: true } : {}) };
      lines.push(JSON.stringify(line));
      frames += 1;
    }
  }
  return { text: lines.join('\n') + '\n', lines };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const { text, lines } = buildLog();
const frameCount = lines.filter((l) => l.includes('"dir":"in"')).length;

function parseOnly(): number {
  const start = performance.now();
  let n = 0;
  for (const line of lines) if (JSON.parse(line)) n += 1;
  const ms = performance.now() - start;
  if (n !== lines.length) throw new Error('parse lost lines');
  return ms;
}

const board = JSON.stringify(replayLog(parseLog(text)));
function fold(): number {
  const start = performance.now();
  const folded = foldLog(text);
  const ms = performance.now() - start;
  if (JSON.stringify(folded) !== board) throw new Error('foldLog and the replayer disagree on the board');
  return ms;
}

// warm both up, then alternate so neither gets a quieter moment of the machine
for (let i = 0; i < 2; i++) {
  parseOnly();
  fold();
}
const parseTimes: number[] = [];
const foldTimes: number[] = [];
for (let i = 0; i < RUNS; i++) {
  parseTimes.push(parseOnly());
  foldTimes.push(fold());
}
const parseMs = median(parseTimes);
const foldMs = median(foldTimes);
const perSecond = (frameCount / foldMs) * 1000;
const ratio = foldMs / parseMs;
const items = Object.keys((JSON.parse(board) as { items: object }).items).length;

console.log(`log: ${frameCount.toLocaleString('en')} frames in ${lines.length.toLocaleString('en')} lines (${(text.length / 1e6).toFixed(1)} MB), ${items} items on the final board`);
console.log(`parse only (JSON.parse of every line): ${parseMs.toFixed(0)} ms`);
console.log(`fold (read + normalise + machines):     ${foldMs.toFixed(0)} ms`);
console.log(`fold speed: ${Math.round(perSecond).toLocaleString('en')} frames/s (target ≥ 100,000)`);
console.log(`fold / parse-only: ${ratio.toFixed(2)}× (target ≤ 3×)`);

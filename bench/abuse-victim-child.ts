/**
 * The victim of the abuse benchmark, in its own process: an ordinary player who asks POST auth/me
 * every 50 ms over one keep-alive connection and bids on a live item every 250 ms over one
 * authenticated auction socket, both from its own loopback address.
 * `node --import tsx bench/abuse-victim-child.ts '<json>'`; prints `{"ready":true}` once its socket
 * has its HISTORY, and answers `collect` with every sample: [sent at (nowMs, the process-wide
 * monotonic clock the parent reads too), milliseconds to the answer, 1 when answered well].
 * A request or bid with no answer within 5 s counts as failed at 5,000 ms.
 */
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { WebSocket } from 'ws';
import { nowMs } from './common';
import { ADDRESSES, httpJson, readLines, reply } from './abuse-common';

interface VictimArgs {
  httpUrl: string;
  auctionUrl: string;
  token: string;
  itemId: number;
}
const args = JSON.parse(process.argv[2] ?? '{}') as VictimArgs;
const REST_EVERY_MS = 50;
const BID_EVERY_MS = 250;
const GIVE_UP_MS = 5000;

type Sample = [sentAt: number, ms: number, ok: 0 | 1];
const rest: Sample[] = [];
const bids: Sample[] = [];
const notes: Record<string, number> = {};
const note = (key: string) => (notes[key] = (notes[key] ?? 0) + 1);
let running = true;

async function restLoop(): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  for (let next = nowMs(); running; next += REST_EVERY_MS) {
    const wait = next - nowMs();
    if (wait > 0) await sleep(wait);
    else next = nowMs();
    const sent = nowMs();
    try {
      const answer = await httpJson(args.httpUrl, 'POST', '/auth/me', { token: args.token, localAddress: ADDRESSES.victim, agent, timeoutMs: GIVE_UP_MS });
      rest.push([sent, nowMs() - sent, answer.status === 200 ? 1 : 0]);
      if (answer.status !== 200) note(`rest status ${answer.status}`);
    } catch (error) {
      rest.push([sent, Math.max(nowMs() - sent, 0), 0]);
      note(`rest ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  }
  agent.destroy();
}

// ── the bidding socket ───────────────────────────────────────────────────────────────────────
let ws: WebSocket | null = null;
let amount = 0;
const pending = new Map<string, { sent: number; amount: number; timer: NodeJS.Timeout }>();

function settle(requestId: string, ok: 0 | 1): void {
  const bid = pending.get(requestId);
  if (!bid) return;
  clearTimeout(bid.timer);
  pending.delete(requestId);
  bids.push([bid.sent, nowMs() - bid.sent, ok]);
}

/** Opens and authenticates the socket; resolves on its HISTORY (which gives the item's amount). */
function connect(): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(args.auctionUrl, { localAddress: ADDRESSES.victim, handshakeTimeout: GIVE_UP_MS });
    ws = socket;
    let ready = false;
    socket.on('error', () => undefined);
    socket.once('open', () => socket.send(JSON.stringify({ type: 'AUTHENTICATION', access_token: `Bearer ${args.token}` })));
    socket.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString()) as { type: string; error_type?: string; data?: Record<string, unknown> & { items?: { itemId: number; amount: number }[] } };
      if (frame.type === 'HISTORY') {
        const item = frame.data?.items?.find((i) => i.itemId === args.itemId);
        if (item) amount = Math.max(amount, item.amount);
        if (!ready) {
          ready = true;
          resolve();
        }
      } else if (frame.type === 'BID_CREATED' && frame.data?.itemId === args.itemId) {
        const value = frame.data.amount as number;
        amount = Math.max(amount, value);
        for (const [requestId, bid] of pending) if (bid.amount === value) settle(requestId, 1);
      } else if (frame.type === 'ERROR') {
        const requestId = frame.data?.requestId as string | undefined;
        note(`bid error ${frame.error_type}`);
        if (requestId) settle(requestId, 0);
      }
    });
    socket.once('close', (code) => {
      note(`socket closed ${code}`);
      if (!ready) reject(new Error(`the victim's socket closed (${code}) before its HISTORY`));
    });
  });
}

async function bidLoop(): Promise<void> {
  let n = 0;
  for (let next = nowMs(); running; next += BID_EVERY_MS) {
    const wait = next - nowMs();
    if (wait > 0) await sleep(wait);
    else next = nowMs();
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      // the server dropped us: a failed bid, then connect again
      bids.push([nowMs(), GIVE_UP_MS, 0]);
      await connect().catch(() => note('reconnect failed'));
      continue;
    }
    amount += 1;
    const requestId = `victim-${n++}`;
    const sent = nowMs();
    pending.set(requestId, { sent, amount, timer: setTimeout(() => settle(requestId, 0), GIVE_UP_MS) });
    ws.send(JSON.stringify({ type: 'CREATE_BID', data: { itemId: args.itemId, amount, requestId } }));
  }
}

await connect();
const loops = Promise.all([restLoop(), bidLoop()]);
readLines((line) => {
  if (line !== 'collect') return;
  running = false;
  // the bids still out get their answer or their 5 s
  void loops.then(async () => {
    for (let i = 0; i < 60 && pending.size > 0; i++) await sleep(100);
    for (const requestId of [...pending.keys()]) settle(requestId, 0);
    ws?.terminate();
    reply({ rest, bids, notes });
  });
});
process.stdin.on('end', () => process.exit(0));
reply({ ready: true });

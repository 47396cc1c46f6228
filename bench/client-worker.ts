/**
 * A client worker thread: a share of the benchmark's auction sockets. It authenticates them, sends
 * its share of the bids on a fixed schedule (open loop: it never waits for answers) from its bidder
 * sockets, and records when each of its sockets receives each BID_CREATED. Send and receive times
 * come from the one process-wide monotonic clock (nowMs), so the main thread can merge the workers'
 * records: a bid's latency is the latest receive over every socket of every worker minus its send.
 */
import { parentPort } from 'node:worker_threads';
import type { Socket } from 'node:net';
import { WebSocket } from 'ws';
import {
  bidKey,
  keyOfRequestId,
  nowMs,
  requestIdOf,
  type Collected,
  type FromWorker,
  type ItemSpec,
  type Progress,
  type ToWorker,
} from './common';
import { BID_CREATED_ITEM, bidKeyOf, ERROR, FrameReader, HISTORY, startsWith } from './frames';

if (!parentPort) throw new Error('client-worker.ts runs as a worker thread');
const port = parentPort;
const post = (msg: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(msg, transfer);

let sockets: WebSocket[] = [];
let items: ItemSpec[] = [];
/** This worker's items by id: a BID_CREATED above an item's next amount (an automatic bid from a maximum) moves it on. */
let itemsById = new Map<number, ItemSpec>();

// ── the current phase ────────────────────────────────────────────────────────────────────────
interface SentBid {
  key: number;
  socket: number;
  scheduled: number;
  sent: number;
  answer: number;
  error: boolean;
}
let sentByKey = new Map<number, SentBid>();
let sentList: SentBid[] = [];
let recv = new Map<number, { last: number; n: number }>();
let errors: Record<string, number> = {};
let otherFrames: Record<string, number> = {};
let progress: Progress = { doneSending: true, sent: 0, answered: 0, accepted: 0, deliveries: 0 };
let frameBytes = 0;
let pump: NodeJS.Timeout | null = null;

/** A text frame from the server once the socket is authenticated: buf[start, end), received at t. */
function onFrame(index: number, buf: Buffer, start: number, end: number, t: number): void {
  if (startsWith(buf, start, end, BID_CREATED_ITEM)) {
    const key = bidKeyOf(buf, start, end);
    progress.deliveries += 1;
    const bidOn = itemsById.get(Math.floor(key / 10_000_000));
    if (bidOn && key % 10_000_000 >= bidOn.next) bidOn.next = (key % 10_000_000) + 1;
    frameBytes += end - start;
    const r = recv.get(key);
    if (r) {
      r.n += 1;
      if (t > r.last) r.last = t;
    } else recv.set(key, { last: t, n: 1 });
    const mine = sentByKey.get(key);
    if (mine && mine.socket === index && Number.isNaN(mine.answer)) {
      mine.answer = t;
      progress.answered += 1;
      progress.accepted += 1;
    }
    return;
  }
  const s = buf.toString('utf8', start, end);
  if (startsWith(buf, start, end, ERROR)) {
    const frame = JSON.parse(s) as { error_type?: string; data?: { requestId?: string } };
    const type = frame.error_type ?? '?';
    errors[type] = (errors[type] ?? 0) + 1;
    const requestId = frame.data?.requestId;
    const mine = requestId ? sentByKey.get(keyOfRequestId(requestId)) : undefined;
    if (mine && Number.isNaN(mine.answer)) {
      mine.answer = t;
      mine.error = true;
      progress.answered += 1;
    }
    return;
  }
  const type = /^\{"type":"([A-Z_]+)"/.exec(s.slice(0, 40))?.[1] ?? '?';
  otherFrames[type] = (otherFrames[type] ?? 0) + 1;
}

// ── receiving ────────────────────────────────────────────────────────────────────────────────
/**
 * The frames a socket receives are read here, off its TCP stream, and not by ws's receiver: the
 * 1,000 client sockets share the machine's two cores with the server under test, and ws's
 * per-message work (a Buffer per frame, an event per frame) made the clients the busiest thing on
 * the machine at 250 bids/s, so that they, not the server, set the latency. Each read is timed
 * once, when it arrives, and every frame in it gets that time (frames.ts splits them). A ping is
 * answered with a pong (the server's heartbeat), a close frame ends the socket. ws still makes the
 * handshake and sends (masked) frames.
 */
function readFrames(ws: WebSocket, onText: (buf: Buffer, start: number, end: number, t: number) => void, onClose: (code: number) => void): void {
  const socket = (ws as unknown as { _socket: Socket })._socket;
  const reader = new FrameReader();
  socket.removeAllListeners('data');
  socket.on('data', (chunk: Buffer) => {
    const t = nowMs();
    reader.push(chunk, (opcode, buf, start, end) => {
      if (opcode === 0x1) onText(buf, start, end, t);
      else if (opcode === 0x9) ws.pong(buf.subarray(start, end));
      else if (opcode === 0x8) {
        onClose(end - start >= 2 ? buf.readUInt16BE(start) : 1005);
        socket.destroy();
        return false;
      }
      return true;
    });
  });
}

// ── connecting ───────────────────────────────────────────────────────────────────────────────
function openOne(url: string, token: string, index: number): Promise<{ ws: WebSocket; historyBytes: number }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { perMessageDeflate: false, skipUTF8Validation: true });
    let authed = false;
    const timer = setTimeout(() => reject(new Error(`socket ${index}: no HISTORY within 30 s`)), 30_000);
    ws.on('error', (error) => {
      if (!authed) {
        clearTimeout(timer);
        reject(error);
      }
    });
    ws.on('open', () => {
      readFrames(
        ws,
        (buf, start, end, t) => {
          if (authed) return onFrame(index, buf, start, end, t);
          if (startsWith(buf, start, end, HISTORY)) {
            authed = true;
            clearTimeout(timer);
            resolve({ ws, historyBytes: end - start });
          } else if (startsWith(buf, start, end, ERROR)) {
            clearTimeout(timer);
            reject(new Error(`socket ${index}: ${buf.toString('utf8', start, end)}`));
          }
        },
        (code) => {
          if (!authed) {
            clearTimeout(timer);
            reject(new Error(`socket ${index} closed (${code}) before HISTORY`));
          }
        },
      );
      ws.send(JSON.stringify({ type: 'AUTHENTICATION', access_token: `Bearer ${token}` }));
    });
    ws.on('close', (code) => {
      if (!authed) {
        clearTimeout(timer);
        reject(new Error(`socket ${index} closed (${code}) before HISTORY`));
      }
    });
  });
}

async function connect(msg: Extract<ToWorker, { cmd: 'connect' }>): Promise<void> {
  const started = nowMs();
  items = msg.items.map((i) => ({ ...i, bidders: [...i.bidders] }));
  itemsById = new Map(items.map((i) => [i.itemId, i]));
  sockets = new Array<WebSocket>(msg.tokens.length);
  let historyBytes = 0;
  let nextIndex = 0;
  const lanes = Array.from({ length: msg.concurrency }, async () => {
    while (nextIndex < msg.tokens.length) {
      const index = nextIndex++;
      // several server processes: socket i on process i mod n (an item's bidders, consecutive sockets, on different ones)
      const url = Array.isArray(msg.url) ? msg.url[index % msg.url.length] : msg.url;
      const { ws, historyBytes: bytes } = await openOne(url, msg.tokens[index], index);
      sockets[index] = ws;
      historyBytes += bytes;
    }
  });
  await Promise.all(lanes);
  post({ kind: 'connected', sockets: sockets.length, ms: nowMs() - started, historyBytes: historyBytes / sockets.length });
}

// ── an open-loop phase ───────────────────────────────────────────────────────────────────────
function startPhase(msg: Extract<ToWorker, { cmd: 'phase' }>): void {
  sentByKey = new Map();
  sentList = [];
  recv = new Map();
  errors = {};
  otherFrames = {};
  frameBytes = 0;
  progress = { doneSending: false, sent: 0, answered: 0, accepted: 0, deliveries: 0 };
  const interval = 1000 / msg.rate;
  let global = msg.offset;
  let local = 0;

  const tick = () => {
    pump = null;
    const now = nowMs();
    // every bid whose time has come (several when a timer fired late): the schedule does not slip
    while (global < msg.count && msg.startAt + global * interval <= now) {
      const item = items[local % items.length];
      const round = Math.floor(local / items.length);
      const socket = item.bidders[round % item.bidders.length];
      const amount = item.next++;
      const key = bidKey(item.itemId, amount);
      const record: SentBid = { key, socket, scheduled: msg.startAt + global * interval, sent: 0, answer: NaN, error: false };
      sentByKey.set(key, record);
      sentList.push(record);
      const frame = `{"type":"CREATE_BID","data":{"itemId":${item.itemId},"amount":${amount},"requestId":"${requestIdOf(key)}"}}`;
      record.sent = nowMs();
      sockets[socket].send(frame);
      progress.sent += 1;
      global += msg.stride;
      local += 1;
    }
    if (global >= msg.count) {
      progress.doneSending = true;
      return;
    }
    const wait = msg.startAt + global * interval - nowMs();
    pump = setTimeout(tick, Math.max(0, wait - 0.2));
  };
  pump = setTimeout(tick, Math.max(0, msg.startAt - nowMs()));
}

function collect(): void {
  const sends = new Float64Array(sentList.length * 5);
  sentList.forEach((b, i) => sends.set([b.key, b.scheduled, b.sent, b.answer, b.error ? 1 : 0], i * 5));
  const recvArr = new Float64Array(recv.size * 3);
  let i = 0;
  for (const [key, r] of recv) {
    recvArr.set([key, r.last, r.n], i * 3);
    i += 1;
  }
  const data: Collected = {
    sends,
    recv: recvArr,
    errors,
    frameBytes: progress.deliveries ? frameBytes / progress.deliveries : 0,
    otherFrames,
  };
  post({ kind: 'collected', data }, [sends.buffer as ArrayBuffer, recvArr.buffer as ArrayBuffer]);
}

async function closeAll(): Promise<void> {
  if (pump) clearTimeout(pump);
  await Promise.all(
    sockets.map(
      (ws) =>
        new Promise<void>((resolve) => {
          if (!ws || ws.readyState === WebSocket.CLOSED) return resolve();
          const timer = setTimeout(() => {
            ws.terminate();
            resolve();
          }, 2000);
          ws.once('close', () => {
            clearTimeout(timer);
            resolve();
          });
          ws.close();
        }),
    ),
  );
  sockets = [];
  post({ kind: 'closed' });
}

port.on('message', (msg: ToWorker) => {
  const fail = (error: unknown) => post({ kind: 'error', message: error instanceof Error ? error.message : String(error) });
  try {
    switch (msg.cmd) {
      case 'connect':
        connect(msg).catch(fail);
        break;
      case 'phase':
        startPhase(msg);
        break;
      case 'progress':
        post({ kind: 'progress', progress: { ...progress, heard: recv.size, sockets: sockets.length } });
        break;
      case 'collect':
        collect();
        break;
      case 'close':
        closeAll().catch(fail);
        break;
    }
  } catch (error) {
    fail(error);
  }
});

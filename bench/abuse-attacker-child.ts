/**
 * One attack of the abuse benchmark, in its own process (its sockets never share an event loop or
 * a file-descriptor limit with the victim's): `node --import tsx bench/abuse-attacker-child.ts '<AttackSpec JSON>'`.
 * Prints `{"ready":true}`; on `prepare` opens and authenticates the sockets of a paced attack (b,
 * c, g: before the measured window) and says so; on `go` (or `go {json}`, fields that replace the
 * spec's, e.g. the snipe's item) runs the attack and answers its report
 * when the attack's time is up; exits when its stdin ends. Every loop is bounded in count and time. A connection the
 * server closes or refuses is counted (that is the server defending itself), never a crash.
 */
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { WebSocket } from 'ws';
import { ADDRESSES, httpJson, readLines, reply, type AttackReport, type AttackSpec } from './abuse-common';

const spec = JSON.parse(process.argv[2] ?? '{}') as AttackSpec;
const report: AttackReport = {};
const count = (key: string, n = 1) => {
  report[key] = ((report[key] as number | undefined) ?? 0) + n;
};

/** Runs `job` for every index with at most `lanes` at once, until `deadline`. */
async function inLanes(total: number, lanes: number, deadline: number, job: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < total && performance.now() < deadline) await job(next++);
    }),
  );
}

/** A WebSocket from the attacker's address; resolves when open, or null when it could not connect. */
function openSocket(url: string, onMessage?: (data: Buffer) => void): Promise<WebSocket | null> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { localAddress: ADDRESSES.attacker, handshakeTimeout: 10_000 });
    ws.on('error', () => undefined);
    ws.once('open', () => resolve(ws));
    ws.once('close', () => resolve(null));
    ws.once('unexpected-response', () => resolve(null));
    if (onMessage) ws.on('message', (data: Buffer) => onMessage(data));
  });
}

/** Closed sockets are counted as `closedByServer` (the attacker never closes one before the end). */
function watchClose(ws: WebSocket, closing: { done: boolean }) {
  ws.once('close', (code) => {
    if (closing.done) return;
    count('closedByServer');
    count(`closeCode${code}`);
  });
}

function frameType(data: Buffer): string {
  const s = data.toString('latin1', 0, 64);
  const match = /"type":"([A-Z_]+)"(?:,"error_type":"([A-Z_]+)")?/.exec(s);
  if (!match) return 'other';
  return match[2] ? `ERROR ${match[2]}` : match[1];
}

/** (a) Anonymous sockets that write one-byte frames nonstop and never read a byte of the answers. */
async function anonWriters(s: Extract<AttackSpec, { kind: 'anon-writers' }>, deadline: number) {
  const closing = { done: false };
  const sockets = (await Promise.all(Array.from({ length: s.sockets }, () => openSocket(s.auctionUrl)))).filter((w): w is WebSocket => w !== null);
  count('connected', sockets.length);
  for (const ws of sockets) {
    // never read: the server's answers pile up in the kernel's buffers, then in the server
    ws.pause();
    watchClose(ws, closing);
  }
  while (performance.now() < deadline) {
    // once the server has closed them all, the attacker waits instead of spinning (its loop would take a core from the server)
    if (sockets.every((ws) => ws.readyState !== WebSocket.OPEN)) {
      await sleep(Math.max(0, deadline - performance.now()));
      break;
    }
    for (const ws of sockets) {
      if (ws.readyState !== WebSocket.OPEN) continue;
      // keep our own send buffer bounded: what the kernel does not take, we do not add to
      for (let i = 0; i < 64 && ws.bufferedAmount < 256 * 1024; i++) {
        ws.send('x');
        count('framesSent');
      }
    }
    await new Promise((r) => setImmediate(r));
  }
  count('openAtEnd', sockets.filter((ws) => ws.readyState === WebSocket.OPEN).length);
  closing.done = true;
  for (const ws of sockets) ws.terminate();
}

/**
 * 64 KB of one-byte text frames ('x'), masked as a client's must be: what a raw writer sends again
 * and again (7 bytes a frame, ~9,400 frames a write).
 */
function tinyFrames(): Buffer {
  const frame = Buffer.from([0x81, 0x81, 0x12, 0x34, 0x56, 0x78, 'x'.charCodeAt(0) ^ 0x12]);
  return Buffer.concat(Array.from({ length: Math.floor((64 * 1024) / frame.length) }, () => frame));
}

/**
 * One raw anonymous connection of (h): the upgrade by hand, then `frames` written as fast as the
 * kernel takes them, never reading a byte after the upgrade's answer, until the server cuts it off
 * or `deadline`. Resolves with how it ended.
 */
function rawWriter(url: URL, frames: Buffer, deadline: number): Promise<'cut' | 'refused' | 'deadline'> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: url.hostname, port: Number(url.port), localAddress: ADDRESSES.attacker });
    let upgraded = false;
    let head = '';
    let settled = false;
    const end = (how: 'cut' | 'refused' | 'deadline') => {
      if (settled) return;
      settled = true;
      clearTimeout(stop);
      socket.destroy();
      resolve(how);
    };
    const stop = setTimeout(() => end('deadline'), Math.max(0, deadline - performance.now()));
    socket.on('error', () => undefined);
    socket.once('close', () => end(upgraded ? 'cut' : 'refused'));
    socket.once('connect', () => {
      const key = Buffer.from(Array.from({ length: 16 }, () => Math.floor(Math.random() * 256))).toString('base64');
      socket.write(`GET / HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`);
    });
    const pump = () => {
      while (!settled && !socket.destroyed) {
        count('bytesSent', frames.length);
        if (!socket.write(frames)) {
          socket.once('drain', pump);
          return;
        }
      }
    };
    const onHead = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onHead);
      if (!head.startsWith('HTTP/1.1 101')) return end('refused');
      upgraded = true;
      count('connected');
      // never read again: the server's answers stay in the kernel's buffers
      socket.pause();
      pump();
    };
    socket.on('data', onHead);
  });
}

/**
 * (h) Twenty anonymous sockets that never read, each writing tiny frames as fast as the kernel takes
 * them (no ws client in the way: a prebuilt buffer of masked frames), and opening a new connection
 * as soon as the server cuts one off (after a refusal, 50 ms later).
 */
async function anonRawWriters(s: Extract<AttackSpec, { kind: 'anon-raw-writers' }>, deadline: number) {
  const url = new URL(s.auctionUrl);
  const frames = tinyFrames();
  await Promise.all(
    Array.from({ length: s.sockets }, async () => {
      while (performance.now() < deadline) {
        const how = await rawWriter(url, frames, deadline);
        if (how === 'cut') count('closedByServer');
        if (how === 'refused') {
          count('refused');
          await sleep(50);
        }
      }
    }),
  );
  report.framesSent = Math.round(Number(report.bytesSent ?? 0) / 7);
}

// (b), (c), (g): the account's sockets, opened and authenticated by `prepare` before the attack's window
const pacedSockets: WebSocket[] = [];
const pacedClosing = { done: false };

/** Opens and authenticates the sockets of a paced attack, in lanes, within `seconds`. */
async function connectPaced(s: Extract<AttackSpec, { kind: 'bid-flood' | 'auth-flood' }>, seconds: number) {
  const started = performance.now();
  await inLanes(s.sockets, 100, started + seconds * 1000, async () => {
    const ws = await openSocket(s.auctionUrl, (data) => count(`got ${frameType(data)}`));
    if (!ws) return count('refused');
    watchClose(ws, pacedClosing);
    ws.send(JSON.stringify({ type: 'AUTHENTICATION', access_token: `Bearer ${s.token}` }));
    pacedSockets.push(ws);
  });
  count('connected', pacedSockets.length);
  report.connectSeconds = Math.round((performance.now() - started) / 100) / 10;
}

/** (b), (g) One account's sockets sending CREATE_BID at a steady rate each; (c) the same with AUTHENTICATION. */
async function paced(
  s: Extract<AttackSpec, { kind: 'bid-flood' | 'auth-flood' }>,
  deadline: number,
  frame: (socket: number, n: number) => string,
) {
  const closing = pacedClosing;
  const sockets = pacedSockets;
  const tickMs = 100;
  const perTick = (s.perSocketPerS * tickMs) / 1000;
  let owed = 0;
  let n = 0;
  for (let tick = performance.now(); tick < deadline; tick += tickMs) {
    owed += perTick;
    const whole = Math.floor(owed);
    owed -= whole;
    for (let k = 0; k < whole; k++) {
      for (let i = 0; i < sockets.length; i++) {
        const ws = sockets[i];
        if (ws.readyState !== WebSocket.OPEN) continue;
        ws.send(frame(i, n++));
        count('framesSent');
      }
    }
    const wait = tick + tickMs - performance.now();
    if (wait > 0) await sleep(wait);
    else count('ticksLate');
  }
  count('openAtEnd', sockets.filter((ws) => ws.readyState === WebSocket.OPEN).length);
  closing.done = true;
  for (const ws of sockets) ws.terminate();
}

/** (d) The bomb uploaded to the bulk preview, one upload at a time, for the attack's time. */
async function xlsxBomb(s: Extract<AttackSpec, { kind: 'xlsx-bomb' }>, deadline: number) {
  const files = s.files.map((file) => fs.readFileSync(file));
  for (let i = 0; i < s.maxUploads && performance.now() < deadline; i++) {
    const bytes = files[i % files.length];
    const boundary = `----kingdom-bench-${i}`;
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="awards.xlsx"\r\n` +
        'Content-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n',
    );
    const body = Buffer.concat([head, bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const started = performance.now();
    try {
      const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
        const url = new URL('/points/bulk/preview', s.httpUrl);
        const request = http.request(
          {
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            method: 'POST',
            localAddress: ADDRESSES.attacker,
            agent: false,
            timeout: Math.max(1000, deadline - performance.now() + 30_000),
            headers: { authorization: `Bearer ${s.token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': body.length },
          },
          (response) => {
            let text = '';
            response.on('data', (c: Buffer) => (text += c.toString()));
            response.once('end', () => resolve({ status: response.statusCode ?? 0, text }));
            response.once('error', reject);
          },
        );
        request.once('timeout', () => request.destroy(new Error('timeout')));
        request.once('error', reject);
        request.end(body);
      });
      count(`status${answer.status}`);
      report[`answer${answer.status}`] = answer.text.slice(0, 160);
    } catch (error) {
      count('failed');
      report.lastFailure = (error as Error).message;
    }
    report[`upload${i}Ms`] = Math.round(performance.now() - started);
    count('uploads');
  }
}

/** (e) Plain TCP connections to the HTTP port that never send a byte, held until the end. */
async function idleTcp(s: Extract<AttackSpec, { kind: 'idle-tcp' }>, deadline: number) {
  const url = new URL(s.httpUrl);
  const sockets: net.Socket[] = [];
  const closing = { done: false };
  let opened = 0;
  await inLanes(s.connections, 1000, deadline, async (i) => {
    await new Promise<void>((resolve) => {
      const socket = net.connect({ host: url.hostname, port: Number(url.port), localAddress: s.addresses[i % s.addresses.length] });
      // a full accept queue leaves a connect waiting for SYN retries: give up after 2 s
      const giveUp = setTimeout(() => {
        count('connect timeout');
        socket.destroy();
        resolve();
      }, 2000);
      socket.once('close', () => clearTimeout(giveUp));
      socket.on('error', (error: NodeJS.ErrnoException) => {
        count(`error ${error.code ?? error.message}`);
        resolve();
      });
      socket.once('connect', () => {
        clearTimeout(giveUp);
        opened += 1;
        sockets.push(socket);
        socket.once('close', () => {
          if (!closing.done) count('closedByServer');
        });
        resolve();
      });
    });
  });
  count('opened', opened);
  report.openWhenAllTried = sockets.filter((socket) => !socket.destroyed && socket.readyState === 'open').length;
  const left = deadline - performance.now();
  if (left > 0) await sleep(left);
  count('openAtEnd', sockets.filter((socket) => !socket.destroyed && socket.readyState === 'open').length);
  closing.done = true;
  for (const socket of sockets) socket.destroy();
}

/** (f) Sign-up loops from one address, each registering fresh accounts one after the other. */
async function registerLoops(s: Extract<AttackSpec, { kind: 'register-loops' }>, deadline: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: s.loops });
  const salt = `${process.pid}x${Date.now().toString(36)}`;
  await Promise.all(
    Array.from({ length: s.loops }, async (_, loop) => {
      for (let i = 0; i < s.maxPerLoop && performance.now() < deadline; i++) {
        const name = `flood${salt}l${loop}n${i}`.slice(0, 32);
        try {
          const answer = await httpJson(s.httpUrl, 'POST', '/auth/register', {
            body: { email: `${name}@bench.test`, password: 'Flood!pass1', username: name, playerid: String(200_000_000 + loop * 100_000 + i + (process.pid % 1000) * 10_000_000) },
            localAddress: ADDRESSES.attacker,
            agent,
            timeoutMs: 10_000,
          });
          count(`status${answer.status}`);
          if (answer.status !== 200) report[`answer${answer.status}`] = answer.text.slice(0, 160);
        } catch {
          count('failed');
        }
      }
    }),
  );
  agent.destroy();
}

async function run(): Promise<void> {
  const deadline = performance.now() + spec.seconds * 1000;
  const started = performance.now();
  switch (spec.kind) {
    case 'anon-writers':
      await anonWriters(spec, deadline);
      break;
    case 'anon-raw-writers':
      await anonRawWriters(spec, deadline);
      break;
    case 'bid-flood': {
      const s = spec;
      await paced(s, deadline, (socket, n) => JSON.stringify({ type: 'CREATE_BID', data: { itemId: s.itemId, amount: s.amount, requestId: `flood-${socket}-${n}` } }));
      break;
    }
    case 'auth-flood': {
      const s = spec;
      const frame = JSON.stringify({ type: 'AUTHENTICATION', access_token: `Bearer ${s.token}` });
      await paced(s, deadline, () => frame);
      break;
    }
    case 'xlsx-bomb':
      await xlsxBomb(spec, deadline);
      break;
    case 'idle-tcp':
      await idleTcp(spec, deadline);
      break;
    case 'register-loops':
      await registerLoops(spec, deadline);
      break;
  }
  report.seconds = Math.round((performance.now() - started) / 100) / 10;
}

readLines((line) => {
  if (line === 'prepare') {
    const prepared = spec.kind === 'bid-flood' || spec.kind === 'auth-flood' ? connectPaced(spec, 40) : Promise.resolve();
    prepared.then(
      () => reply({ prepared: true, connected: pacedSockets.length }),
      (error: unknown) => reply({ error: String(error) }),
    );
  }
  if (line === 'go' || line.startsWith('go ')) {
    // `go {"itemId":…}`: what was not known when the child started (the snipe's item)
    if (line.length > 3) Object.assign(spec, JSON.parse(line.slice(3)) as Partial<AttackSpec>);
    run().then(
      () => reply({ report }),
      (error: unknown) => reply({ error: String(error), report }),
    );
  }
});
process.stdin.on('end', () => process.exit(0));
reply({ ready: true });

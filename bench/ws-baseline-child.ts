/**
 * The `ws` baseline, in its own process like the server under test: a plain `ws` WebSocketServer
 * (same package, same options as the server's sockets) that takes the same AUTHENTICATION frame
 * (answered with an empty HISTORY) and, for each CREATE_BID, broadcasts a BID_CREATED built exactly
 * as the engine builds it (same fields, same item names, usernames and end times, so the same JSON
 * size) to every authenticated socket. No database, no checks, no queue: the floor of what
 * broadcasting these frames to these sockets costs on this machine.
 *
 * `floor` as the second argument makes it the tuned floor of fan-out instead: each
 * BID_CREATED is encoded to bytes and framed ONCE (ws's own Sender.frame: header + payload, one
 * buffer), then that buffer is written raw to every authenticated socket's underlying net.Socket,
 * each socket corked for the rest of the event-loop turn (uncorked by one setImmediate), so a burst of
 * bids leaves a socket in one write. Nothing else: no per-socket framing, no checks, no queue.
 * Plain mode (the default) sends the string per socket, which ws encodes and frames per socket.
 *
 * `floor <ms> [groups]` also spaces the flushes as the server's hub does (SocketLimits.coalesceMs
 * and flushGroups): the sockets flush in `groups` groups (by the order they authenticated, evenly),
 * each at the end of the turn or, when its previous flush was less than <ms> ago, that long after
 * it; after a quiet moment group i counts from i/groups of <ms> earlier, so the groups' flushes
 * spread over the interval. The same fan-out as the server's, with nothing else: the floor to hold
 * the server to once both coalesce.
 *
 * `node --import tsx bench/ws-baseline-child.ts <config.json> [floor [ms [groups]]]`; config: {items: {[id]: {name, endsAt}}, users: {[token]: username}}.
 * Prints {auctionUrl} as one JSON line; runs until SIGTERM, SIGINT or the end of its stdin.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import * as wsModule from 'ws';
import { WebSocket, WebSocketServer } from 'ws';

/** ws exports its Sender (wrapper.mjs), but @types/ws does not declare it. */
const { Sender } = wsModule as unknown as {
  Sender: { frame(data: Buffer, options: { fin: boolean; opcode: number; mask: boolean; readOnly: boolean; rsv1: boolean }): Buffer[] };
};

interface BaselineConfig {
  items: Record<string, { name: string; endsAt: number }>;
  users: Record<string, string>;
}

const configPath = process.argv[2];
if (!configPath) throw new Error('usage: ws-baseline-child.ts <config.json>');
const config = JSON.parse(fs.readFileSync(configPath, 'utf8')) as BaselineConfig;
const floor = process.argv[3] === 'floor';
const windowMs = floor ? Number(process.argv[4] ?? 0) : 0;
const groupCount = floor && windowMs > 0 ? Math.max(1, Number(process.argv[5] ?? 1)) : 1;

/** The floor's fan-out: one framed buffer, raw to every socket, corked until its group flushes. */
interface Group {
  index: number;
  corked: Set<Socket>;
  scheduled: boolean;
  lastFlushAt: number;
}
const groups: Group[] = Array.from({ length: groupCount }, (_, index) => ({ index, corked: new Set(), scheduled: false, lastFlushAt: Number.NEGATIVE_INFINITY }));
const groupOf = new WeakMap<WebSocket, Group>();
let joined = 0;
function flush(group: Group, quiet: boolean): void {
  group.scheduled = false;
  group.lastFlushAt = performance.now() - (quiet ? (group.index * windowMs) / groupCount : 0);
  for (const socket of group.corked) socket.uncork();
  group.corked.clear();
}
function scheduleFlush(group: Group): void {
  group.scheduled = true;
  const wait = group.lastFlushAt + windowMs - performance.now();
  if (wait >= 1) setTimeout(() => flush(group, false), wait);
  else setImmediate(() => flush(group, true));
}
function rawBroadcast(text: string): void {
  const frame = Buffer.concat(Sender.frame(Buffer.from(text), { fin: true, opcode: 1, mask: false, readOnly: true, rsv1: false }));
  for (const client of authed) {
    if (client.readyState !== WebSocket.OPEN) continue;
    const socket = (client as unknown as { _socket: Socket })._socket;
    const group = groupOf.get(client) ?? groups[0];
    if (!group.corked.has(socket)) {
      socket.cork();
      group.corked.add(socket);
      if (!group.scheduled) scheduleFlush(group);
    }
    socket.write(frame);
  }
}

const server = http.createServer();
const wss = new WebSocketServer({ server, maxPayload: 64 * 1024 });
const authed = new Set<WebSocket>();

wss.on('connection', (ws) => {
  let username: string | null = null;
  ws.on('message', (data) => {
    let frame: { type?: string; access_token?: string; data?: { itemId?: number; amount?: number } };
    try {
      frame = JSON.parse(data.toString()) as typeof frame;
    } catch {
      return;
    }
    if (frame.type === 'AUTHENTICATION') {
      username = config.users[(frame.access_token ?? '').replace(/^Bearer /, '')] ?? null;
      if (!username) return ws.close(4401, 'Unauthenticated');
      authed.add(ws);
      groupOf.set(ws, groups[joined++ % groupCount]);
      ws.send(JSON.stringify({ type: 'HISTORY', data: { bids: [], items: [] } }));
      return;
    }
    if (frame.type !== 'CREATE_BID' || !username || !frame.data) return;
    const { itemId, amount } = frame.data as { itemId: number; amount: number };
    const item = config.items[String(itemId)];
    if (!item) return;
    const now = Date.now();
    const text = JSON.stringify({
      type: 'BID_CREATED',
      data: { itemId, itemName: item.name, amount, username, timer: Math.max(0, Math.ceil((item.endsAt - now) / 1000)), timestamp: now, endsAt: item.endsAt },
    });
    if (floor) rawBroadcast(text);
    else for (const client of authed) if (client.readyState === WebSocket.OPEN) client.send(text);
  });
  ws.on('close', () => authed.delete(ws));
  ws.on('error', () => undefined);
});

await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

let stopping = false;
function stop(): void {
  if (stopping) return;
  stopping = true;
  for (const ws of wss.clients) ws.terminate();
  wss.close();
  server.close();
  process.exit(0);
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.stdin.on('end', stop);
process.stdin.on('error', stop);
process.stdin.resume();

process.stdout.write(`${JSON.stringify({ auctionUrl: `ws://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`);

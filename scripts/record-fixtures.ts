/**
 * npm run fixtures:record [-- NAME…]
 *
 * Records the replay fixtures in tests/fixtures/logs from scripted sessions against the real
 * server: each scenario starts the server on free ports with a temporary DATA_DIR, and a player
 * ("the recorded player") runs the live app's root machine in Node, with real `ws` sockets opened
 * through the app's own createSocket and recorder, signed in through the app's own API client.
 * Other players are plain sockets. When the session is over, NAME.jsonl is the recorder's log and
 * NAME.board.json the board the live board machine holds at that moment: what replaying the log
 * must give.
 *
 * Two things a real session cannot be made to do on demand are done by a proxy between the
 * recorded player and the server, which passes every frame both ways:
 * - duplicated and reordered frames: it sends some server frames twice, or holds one back until
 *   the next has passed (scenario duplicated-reordered);
 * - frames that are not JSON or fail the schema: it slips frames of its own between the server's
 *   (scenario bad-frames), and sends the server a frame that is not JSON or of an unknown type as
 *   if the player had (error-json, error-ws);
 * and it drops the connection when a scenario needs a reconnect.
 * The server's clock is the wall clock plus a skew the scenarios move forward, so an auction
 * ends without waiting for it (the engine is then told to run what fell due, as its timer would).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { createActor, fromPromise } from 'xstate';
import { startServer, type RunningServer } from '../server/app';
import { ephemeralConfig } from '../server/config';
import { DEFAULT_SOCKET_LIMITS } from '../server/sockets/limits';
import { createApi } from '../src/api/client';
import { createHttp } from '../src/api/http';
import { appWith } from '../src/machines/app.machine';
import { authMachine } from '../src/machines/auth.machine';
import { boardData } from '../src/machines/board.machine';
import { viewBoard, type BoardView } from '../src/auction/board-view';
import { createRecorder } from '../src/streams/recorder';
import { createSocket, type WebSocketCtor } from '../src/streams/socket';
import { version } from '../package.json';

const OUT = join(import.meta.dirname, '..', 'tests', 'fixtures', 'logs');
const PASSWORD = 'Fixture-pass-1';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(what: string, check: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

// ── the proxy ─────────────────────────────────────────────────────────────────────────────────

type Down = (frame: string | Buffer, send: (frame: string | Buffer) => void) => void;

/** A socket proxy: every frame both ways, plus what the scenario slips in, holds back or drops. */
class Proxy {
  private readonly wss: WebSocketServer;
  private readonly pairs = new Set<{ client: WebSocket; upstream: WebSocket }>();
  /** Decides what the client gets for each server frame (default: the frame, once). */
  down: Down = (frame, send) => send(frame);

  constructor(private readonly upstreamUrl: string) {
    this.wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    this.wss.on('connection', (client) => {
      const upstream = new WebSocket(this.upstreamUrl);
      const pair = { client, upstream };
      this.pairs.add(pair);
      const early: RawData[] = [];
      upstream.on('open', () => early.splice(0).forEach((f) => upstream.send(f.toString())));
      client.on('message', (data) => (upstream.readyState === WebSocket.OPEN ? upstream.send(data.toString()) : early.push(data)));
      upstream.on('message', (data, isBinary) => {
        const frame = isBinary ? (data as Buffer) : data.toString();
        this.down(frame, (f) => client.readyState === WebSocket.OPEN && client.send(f, { binary: typeof f !== 'string' }));
      });
      const end = () => {
        this.pairs.delete(pair);
        if (client.readyState <= WebSocket.OPEN) client.close(1000);
        if (upstream.readyState <= WebSocket.OPEN) upstream.close(1000);
      };
      // the server's close code reaches the client as it was (4401 for a refused token)
      upstream.on('close', (code) => {
        this.pairs.delete(pair);
        if (client.readyState <= WebSocket.OPEN) client.close(code >= 4000 || code === 1000 ? code : 1011);
      });
      client.on('close', end);
      upstream.on('error', end);
      client.on('error', end);
    });
  }

  get url(): string {
    const address = this.wss.address();
    if (address === null || typeof address === 'string') throw new Error('unexpected address');
    return `ws://127.0.0.1:${address.port}`;
  }

  /** A frame to the client, as if the server had sent it. */
  toClient(frame: string | Buffer): void {
    for (const { client } of this.pairs) client.send(frame, { binary: typeof frame !== 'string' });
  }

  /** A frame to the server, as if the client had sent it. */
  toServer(frame: string): void {
    for (const { upstream } of this.pairs) upstream.send(frame);
  }

  /** Cuts every connection as a network would (the client sees 1006). */
  drop(): void {
    for (const pair of this.pairs) {
      pair.client.terminate();
      pair.upstream.close(1000);
    }
    this.pairs.clear();
  }

  close(): Promise<void> {
    this.drop();
    return new Promise((resolve) => this.wss.close(() => resolve()));
  }
}

// ── the server and its players ────────────────────────────────────────────────────────────────

interface Account {
  email: string;
  username: string;
  token: string;
}

class Session {
  skew = 0;
  server!: RunningServer;
  auctionProxy!: Proxy;
  userProxy!: Proxy;
  admin!: Account;
  private dir = mkdtempSync(join(tmpdir(), 'kingdom-fixtures-'));
  private counter = 0;
  private sockets: WebSocket[] = [];

  async start(): Promise<void> {
    this.server = await startServer(
      // the recorded sessions send bids faster than a person: the flood limit is not their subject
      ephemeralConfig(this.dir, {
        frameRateLimit: { perSecond: 1000, burst: 1000 },
        socketLimits: { ...DEFAULT_SOCKET_LIMITS, accountFrames: { perSecond: 1000, burst: 1000 }, addressFrames: { perSecond: 10_000, burst: 10_000 } },
      }),
      { now: () => Date.now() + this.skew },
    );
    this.auctionProxy = new Proxy(this.server.auctionUrl);
    this.userProxy = new Proxy(this.server.userUrl);
    this.admin = await this.account('highking');
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.terminate();
    await this.auctionProxy.close();
    await this.userProxy.close();
    await this.server.close();
    rmSync(this.dir, { recursive: true, force: true });
  }

  async call<T = Record<string, unknown>>(method: string, path: string, body?: unknown, token?: string): Promise<T> {
    const res = await fetch(`${this.server.httpUrl}/${path}`, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const answer = (await res.json()) as T;
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(answer)}`);
    return answer;
  }

  async account(name: string, points = 0): Promise<Account> {
    this.counter += 1;
    const email = `${name}@fixtures.test`;
    await this.call('POST', 'auth/register', { email, password: PASSWORD, username: name, playerid: String(50_000_000 + this.counter) });
    const login = await this.call<{ token: { access_token: string } }>('POST', 'auth/login', { email, password: PASSWORD });
    const account = { email, username: name, token: login.token.access_token };
    if (points) await this.grant(name, points);
    return account;
  }

  grant(username: string, delta: number) {
    return this.call('POST', 'points/transactions', { username, delta, reason: 'fixture points' }, this.admin.token);
  }

  async item(overrides: Record<string, unknown> = {}): Promise<number> {
    const body = { itemName: 'Golden Sword', start_price: 100, minIncrement: 10, duration: 600, extendWindow: 0, maxExtensions: 0, ...overrides };
    const answer = await this.call<{ item: { itemId: number } }>('POST', 'store/items', body, this.admin.token);
    return answer.item.itemId;
  }

  /** Moves the server's clock on and runs what fell due, as its timer would have. */
  async advance(ms: number): Promise<void> {
    this.skew += ms;
    await this.server.auction.tick();
  }

  /** Another player: a plain socket on the real server (not through the proxy, not recorded). */
  async other(name: string, points: number) {
    const account = await this.account(name, points);
    const ws = new WebSocket(this.server.auctionUrl);
    this.sockets.push(ws);
    const frames: Record<string, unknown>[] = [];
    ws.on('message', (data) => frames.push(JSON.parse(data.toString()) as Record<string, unknown>));
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    ws.send(JSON.stringify({ type: 'AUTHENTICATION', access_token: `Bearer ${account.token}` }));
    await waitFor(`${name}'s HISTORY`, () => frames.some((f) => f.type === 'HISTORY'));
    let n = 0;
    return {
      ...account,
      /** Bids and waits for the server's answer to it (its BID_CREATED or an ERROR). */
      async bid(itemId: number, amount: number) {
        const requestId = `${name}-${++n}`;
        const before = frames.length;
        ws.send(JSON.stringify({ type: 'CREATE_BID', data: { itemId, amount, requestId } }));
        await waitFor(`${name}'s bid answer`, () =>
          frames.slice(before).some((f) => {
            const d = f.data as { requestId?: string; itemId?: number; amount?: number; username?: string } | undefined;
            return (f.type === 'ERROR' && d?.requestId === requestId) || (f.type === 'BID_CREATED' && d?.amount === amount && d.username === name && d.itemId === itemId);
          }),
        );
      },
    };
  }

  /**
   * The recorded player: the live app's root machine, its sockets through the proxies, opened by
   * the app's createSocket with the recorder's tap, signed in with the app's API client.
   */
  async player(name: string, points: number) {
    const account = await this.account(name, points);
    const api = createApi(createHttp(`${this.server.httpUrl}/`, { token: () => null, unauthorized: () => {} }));
    const recorder = createRecorder({ app: `kingdom@${version}` });
    const urls = { auction: this.auctionProxy.url, user: this.userProxy.url };
    const sockets = (url: string) => createSocket(url, WebSocket as unknown as WebSocketCtor, recorder.tap(url === urls.user ? 'user' : 'auction'));
    const machine = appWith(sockets).provide({
      actors: {
        auth: authMachine.provide({
          actors: {
            fetchUser: fromPromise(({ input }) => api.me(input.token)),
            logout: fromPromise(({ input }) => api.logout(input.token)),
          },
        }),
      },
    });
    let requests = 0;
    const actor = createActor(machine, {
      input: {
        token: account.token,
        urls,
      },
    });
    actor.start();
    actor.getSnapshot().context.auth.subscribe((s) => {
      if (s.context.user) recorder.setUser(s.context.user.username);
    });
    const board = () => actor.getSnapshot().context.board;
    const received = () => recorder.lines().filter((l) => l.includes('"dir":"in"')).length;
    const player = {
      ...account,
      recorder,
      actor,
      board,
      connected: () => board().getSnapshot().context.connected,
      /** Waits until the server has told the player something `count` more times. */
      async frames(count: number, since = received()) {
        await waitFor(`${count} frames for ${name}`, () => received() >= since + count);
      },
      received,
      /** Waits until the player has been told `type` about the item (at any time so far). */
      async seen(type: string, itemId: number) {
        const mark = `"type":"${type}","data":{"itemId":${itemId},`;
        await waitFor(`${type} of item ${itemId} for ${name}`, () => recorder.lines().some((l) => l.includes(mark)));
      },
      /** Waits until no frame has come for `ms`. */
      async settle(ms = 150) {
        let last = -1;
        for (;;) {
          const now = recorder.lines().length;
          if (now === last) return;
          last = now;
          await sleep(ms);
        }
      },
      /** A bid from the board, as the bid box sends it; waits for its answer. */
      async bid(itemId: number, amount: number) {
        const before = recorder.lines().length;
        board().send({ type: 'PLACE_BID', itemId, amount, requestId: `${name}-${++requests}` });
        await waitFor(`${name}'s bid answer`, () =>
          recorder
            .lines()
            .slice(before)
            .some((l) => {
              const line = JSON.parse(l) as { dir: string; msg?: { type?: string; data?: { amount?: number; username?: string; requestId?: string } } };
              return line.dir === 'in' && (line.msg?.type === 'ERROR' || (line.msg?.type === 'BID_CREATED' && line.msg.data?.username === name && line.msg.data.amount === amount));
            }),
        );
      },
      /** A maximum bid from the board, as the bid box sets it; waits for the server's MAX_BID or ERROR. */
      async setMax(itemId: number, max: number) {
        const before = recorder.lines().length;
        board().send({ type: 'SET_MAX', itemId, max, requestId: `${name}-${++requests}` });
        await waitFor(`${name}'s max answer`, () =>
          recorder
            .lines()
            .slice(before)
            .some((l) => {
              const line = JSON.parse(l) as { dir: string; msg?: { type?: string; data?: { itemId?: number } } };
              return line.dir === 'in' && (line.msg?.type === 'ERROR' || (line.msg?.type === 'MAX_BID' && line.msg.data?.itemId === itemId));
            }),
        );
      },
      /** The log so far and the board the live machines hold now: the fixture. */
      finish(): { log: string; board: BoardView } {
        const log = recorder.toJsonl();
        const view = viewBoard(boardData(board()));
        actor.stop();
        return { log, board: view };
      },
    };
    await waitFor(`${name} connected`, () => player.connected());
    return player;
  }
}

// ── the scenarios ─────────────────────────────────────────────────────────────────────────────

type Player = Awaited<ReturnType<Session['player']>>;
type Scenario = (s: Session) => Promise<Player>;

const scenarios: Record<string, { about: string; run: Scenario }> = {
  'normal-auction': {
    about: 'an item starts while the player watches, two players raise each other, the other one wins it',
    async run(s) {
      const alice = await s.player('alice', 5000);
      const bob = await s.other('bob', 5000);
      const id = await s.item({ itemName: 'Golden Sword', duration: 60 });
      await alice.seen('BIDDING_STARTED', id);
      await alice.bid(id, 100);
      await bob.bid(id, 150);
      await alice.bid(id, 200);
      await bob.bid(id, 260);
      await s.advance(61_000);
      await alice.seen('SALE_COMPLETED', id);
      await alice.settle();
      return alice;
    },
  },
  'soft-close': {
    about: 'bids in the last seconds extend the end twice (the limit), a third does not, then the sale',
    async run(s) {
      const alice = await s.player('alice', 5000);
      const bob = await s.other('bob', 5000);
      const id = await s.item({ itemName: 'Dragon Banner', duration: 20, extendWindow: 10, maxExtensions: 2 });
      await alice.seen('BIDDING_STARTED', id);
      await alice.bid(id, 100);
      await s.advance(15_000);
      await bob.bid(id, 110); // extension 1
      await s.advance(5_000);
      await alice.bid(id, 120); // extension 2
      await s.advance(5_000);
      await bob.bid(id, 130); // no more extensions
      await s.advance(11_000);
      await alice.seen('SALE_COMPLETED', id);
      await alice.settle();
      return alice;
    },
  },
  outbid: {
    about: 'the player leads and is outbid (OUTBID to them), twice; the item stays live',
    async run(s) {
      const alice = await s.player('alice', 5000);
      const bob = await s.other('bob', 5000);
      const id = await s.item({ itemName: 'Silver Shield' });
      await alice.seen('BIDDING_STARTED', id);
      await alice.bid(id, 100);
      await bob.bid(id, 150);
      await alice.bid(id, 160);
      await bob.bid(id, 400);
      await alice.settle();
      return alice;
    },
  },
  win: {
    about: 'the player wins an item (WINNER to them, SALE_COMPLETED to all, the balance spent)',
    async run(s) {
      const alice = await s.player('alice', 5000);
      const bob = await s.other('bob', 5000);
      const id = await s.item({ itemName: 'Crown of Ages', duration: 30 });
      await alice.seen('BIDDING_STARTED', id);
      await bob.bid(id, 100);
      await alice.bid(id, 300);
      await s.advance(31_000);
      await alice.seen('SALE_COMPLETED', id);
      await alice.settle();
      return alice;
    },
  },
  'no-buyer': {
    about: 'two items end with no bid (NO_BUYER), one is still live',
    async run(s) {
      const alice = await s.player('alice', 5000);
      const a = await s.item({ itemName: 'Rusty Helmet', duration: 10 });
      const b = await s.item({ itemName: 'Old Boots', duration: 10 });
      const c = await s.item({ itemName: 'Spare Arrows', duration: 600 });
      for (const id of [a, b, c]) await alice.seen('BIDDING_STARTED', id);
      await s.advance(11_000);
      for (const id of [a, b]) await alice.seen('NO_BUYER', id);
      await alice.settle();
      return alice;
    },
  },
  'max-bids': {
    about: 'the player sets a maximum bid, is raised automatically when outbid, then outbid beyond it; another item is bought at its buy-now price',
    async run(s) {
      const alice = await s.player('alice', 5000);
      const bob = await s.other('bob', 5000);
      const id = await s.item({ itemName: 'Proxy Shield', duration: 60 });
      const instant = await s.item({ itemName: 'Instant Banner', duration: 600, buyNowPrice: 800 });
      await alice.seen('BIDDING_STARTED', id);
      await alice.seen('BIDDING_STARTED', instant);
      await alice.setMax(id, 1000);
      await bob.bid(id, 200);
      await alice.settle();
      await bob.bid(id, 1500);
      await alice.settle();
      await bob.bid(instant, 800);
      await alice.seen('SALE_COMPLETED', instant);
      await s.advance(61_000);
      await alice.seen('SALE_COMPLETED', id);
      await alice.settle();
      return alice;
    },
  },
  'sealed-reserve': {
    about: 'a sealed second-price item (the others\' bids seen as a count, every bid shown at the end) and an item whose reserve is not met',
    async run(s) {
      const alice = await s.player('alice', 5000);
      const bob = await s.other('bob', 5000);
      const sealed = await s.item({ itemName: 'Sealed Chest', duration: 60, format: 'sealed-second' });
      const reserved = await s.item({ itemName: 'Reserved Crown', duration: 60, reservePrice: 500 });
      await alice.seen('BIDDING_STARTED', sealed);
      await alice.seen('BIDDING_STARTED', reserved);
      await alice.bid(sealed, 300);
      await bob.bid(sealed, 500);
      await alice.settle();
      await alice.bid(sealed, 450);
      await alice.bid(reserved, 200);
      await s.advance(61_000);
      await alice.seen('SALE_COMPLETED', sealed);
      await alice.seen('NO_BUYER', reserved);
      await alice.settle();
      return alice;
    },
  },
  'error-unknown-item': {
    about: 'a bid on an item that does not exist: ERROR UNKNOWN_ITEM with its itemId and requestId',
    async run(s) {
      const alice = await s.player('alice', 5000);
      const id = await s.item({ itemName: 'Golden Sword' });
      await alice.seen('BIDDING_STARTED', id);
      await alice.bid(999, 100);
      await alice.settle();
      return alice;
    },
  },
  'error-bid-open': {
    about: 'a bid on an item that has finished: ERROR BID_OPEN_ERROR',
    async run(s) {
      const alice = await s.player('alice', 5000);
      const id = await s.item({ itemName: 'Past Glory', duration: 10 });
      await alice.seen('BIDDING_STARTED', id);
      await s.advance(11_000);
      await alice.seen('NO_BUYER', id);
      await alice.bid(id, 100);
      await alice.settle();
      return alice;
    },
  },
  'error-bid-amount': {
    about: 'bids below the start price and below the next minimum: ERROR BID_AMOUNT_ERROR',
    async run(s) {
      const alice = await s.player('alice', 5000);
      const id = await s.item({ itemName: 'Golden Sword' });
      await alice.seen('BIDDING_STARTED', id);
      await alice.bid(id, 50);
      await alice.bid(id, 100);
      await alice.bid(id, 105);
      await alice.settle();
      return alice;
    },
  },
  'error-out-of-balance': {
    about: 'a bid above the points available: ERROR OUT_OF_BALANCE',
    async run(s) {
      const alice = await s.player('alice', 150);
      const a = await s.item({ itemName: 'Golden Sword' });
      const b = await s.item({ itemName: 'Iron Axe' });
      await alice.seen('BIDDING_STARTED', b);
      await alice.bid(a, 100);
      await alice.bid(b, 100); // 100 of 150 already reserved
      await alice.settle();
      return alice;
    },
  },
  'error-bid-not-allowed': {
    about: 'a bid on an item limited to council: ERROR BID_NOT_ALLOWED',
    async run(s) {
      const alice = await s.player('alice', 5000);
      const id = await s.item({ itemName: 'Council Seal', eligibility: { ranks: ['council'] } });
      await alice.seen('BIDDING_STARTED', id);
      await alice.bid(id, 100);
      await alice.settle();
      return alice;
    },
  },
  'error-json': {
    about: 'a frame that is not JSON reaches the server (slipped in by the proxy): ERROR JSON_ERROR',
    async run(s) {
      const alice = await s.player('alice', 5000);
      const since = alice.received();
      s.auctionProxy.toServer('{"type":"CREATE_BID",');
      await alice.frames(1, since);
      await alice.settle();
      return alice;
    },
  },
  'error-ws': {
    about: 'a frame of an unknown type and one over the size limit reach the server: ERROR WS_ERROR twice',
    async run(s) {
      const alice = await s.player('alice', 5000);
      const since = alice.received();
      s.auctionProxy.toServer('{"type":"SHOUT","data":{"text":"hello"}}');
      s.auctionProxy.toServer(JSON.stringify({ type: 'CREATE_BID', data: { itemId: 1, amount: 100, requestId: 'x'.repeat(5000) } }));
      await alice.frames(2, since);
      await alice.settle();
      return alice;
    },
  },
  'error-unauthenticated': {
    about: 'the connections drop, the session is signed out elsewhere meanwhile, the reconnect is refused: ERROR UNAUTHENTICATED, close 4401',
    async run(s) {
      const alice = await s.player('alice', 5000);
      const id = await s.item({ itemName: 'Golden Sword' });
      await alice.seen('BIDDING_STARTED', id);
      await alice.bid(id, 100);
      // both connections drop; while they are down the session is signed out elsewhere
      s.auctionProxy.drop();
      s.userProxy.drop();
      await waitFor('the drop', () => !alice.connected());
      await s.call('GET', 'auth/logout', undefined, alice.token);
      const since = alice.received();
      await alice.frames(1, since); // the refusal of the reconnect, after its backoff
      await alice.settle(300);
      return alice;
    },
  },
  'reconnect-history': {
    about: 'the connection drops; while it is down a bid is made, an item ends and one starts; the reconnect resyncs from HISTORY',
    async run(s) {
      const alice = await s.player('alice', 5000);
      const bob = await s.other('bob', 5000);
      const a = await s.item({ itemName: 'Golden Sword', duration: 60 });
      const b = await s.item({ itemName: 'Iron Axe', duration: 600 });
      await alice.seen('BIDDING_STARTED', b);
      await alice.bid(a, 100);
      await alice.bid(b, 100);
      s.auctionProxy.drop();
      await waitFor('the drop', () => !alice.connected());
      await bob.bid(b, 200);
      await s.advance(61_000);
      await s.item({ itemName: 'Fresh Bread', duration: 600 });
      await waitFor('the reconnect', () => alice.connected(), 8000);
      await alice.settle();
      return alice;
    },
  },
  'mid-session-start': {
    about: 'items start while the player watches (an increment of 100, one limited to council), a bid, then a reconnect: HISTORY must give the same cards',
    async run(s) {
      const alice = await s.player('alice', 5000);
      const bob = await s.other('bob', 5000);
      const a = await s.item({ itemName: 'Golden Sword', start_price: 300, minIncrement: 100, extendWindow: 30, maxExtensions: 2, imageUrl: 'https://example.com/sword.png' });
      const b = await s.item({ itemName: 'Council Seal', start_price: 50, minIncrement: 25, eligibility: { ranks: ['council'] } });
      await alice.seen('BIDDING_STARTED', b);
      await bob.bid(a, 300);
      await alice.seen('BID_CREATED', a);
      await alice.settle();
      s.auctionProxy.drop();
      await waitFor('the drop', () => !alice.connected());
      await waitFor('the reconnect', () => alice.connected(), 8000);
      await alice.settle();
      return alice;
    },
  },
  'item-cancelled': {
    about: 'the council cancels a live item the player leads: ITEM_CANCELLED, the item leaves the board, the points are released',
    async run(s) {
      const alice = await s.player('alice', 5000);
      const a = await s.item({ itemName: 'Cursed Ring' });
      const b = await s.item({ itemName: 'Iron Axe' });
      await alice.seen('BIDDING_STARTED', b);
      await alice.bid(a, 100);
      await alice.bid(b, 100);
      await s.call('POST', `store/items/${a}/cancel`, undefined, s.admin.token);
      await alice.seen('ITEM_CANCELLED', a);
      await alice.settle();
      return alice;
    },
  },
  'store-closed': {
    about: 'the council closes the store: the live item is held past its end, a bid is refused; it opens again and the item ends its time left later',
    async run(s) {
      const alice = await s.player('alice', 5000);
      const bob = await s.other('bob', 5000);
      const id = await s.item({ itemName: 'Held Crown', duration: 60 });
      await alice.seen('BIDDING_STARTED', id);
      await bob.bid(id, 100);
      await s.advance(20_000);
      await s.call('POST', 'kingdom/settings', { storeOpen: false }, s.admin.token);
      await alice.settle();
      await s.advance(120_000);
      await alice.bid(id, 200);
      await s.call('POST', 'kingdom/settings', { storeOpen: true }, s.admin.token);
      await alice.settle();
      await alice.bid(id, 200);
      await s.advance(41_000);
      await alice.seen('WINNER', id);
      await alice.settle();
      return alice;
    },
  },
  'live-300': {
    about: '300 live items: 150 in the first HISTORY, 150 starting while watched, bids on a few',
    async run(s) {
      for (let i = 1; i <= 150; i++) await s.item({ itemName: `Relic ${i}`, duration: 600 + i });
      const alice = await s.player('alice', 100_000);
      const bob = await s.other('bob', 100_000);
      for (let i = 151; i <= 300; i++) await s.item({ itemName: `Relic ${i}`, duration: 600 + i });
      await alice.seen('BIDDING_STARTED', 300);
      for (const id of [1, 42, 150, 151, 299, 300]) {
        await alice.bid(id, 100);
        await bob.bid(id, 120);
      }
      await alice.settle();
      return alice;
    },
  },
  'duplicated-reordered': {
    about: 'the proxy sends some frames twice and holds others back behind the next one',
    async run(s) {
      const alice = await s.player('alice', 5000);
      const bob = await s.other('bob', 5000);
      // every second BID_CREATED is held back until two more frames have passed (or 150 ms);
      // every BID_CREATED and BIDDING_STARTED that is sent goes twice
      let held: { frame: string | Buffer; after: number } | null = null;
      let bids = 0;
      const release = (send: (f: string | Buffer) => void) => {
        const late = held;
        held = null;
        if (late) send(late.frame);
      };
      s.auctionProxy.down = (frame, send) => {
        const text = typeof frame === 'string' ? frame : '';
        const isBid = text.includes('"BID_CREATED"');
        if (isBid && held === null && ++bids % 2 === 0) {
          const mine = { frame, after: 2 };
          held = mine;
          setTimeout(() => held === mine && release(send), 150);
          return;
        }
        send(frame);
        if (isBid || text.includes('"BIDDING_STARTED"')) send(frame);
        if (held && --held.after === 0) release(send);
      };
      const a = await s.item({ itemName: 'Golden Sword', duration: 60 });
      const b = await s.item({ itemName: 'Iron Axe', duration: 600 });
      await alice.seen('BIDDING_STARTED', b);
      await alice.bid(a, 100);
      await bob.bid(a, 120);
      await bob.bid(b, 100);
      await alice.bid(a, 140);
      await bob.bid(b, 130);
      await bob.bid(a, 160);
      await s.advance(61_000);
      await bob.bid(b, 150);
      await alice.settle();
      s.auctionProxy.down = (frame, send) => send(frame);
      return alice;
    },
  },
  'bad-frames': {
    about: 'the proxy slips in frames that are not JSON, not objects, binary or failing the schema; none changes the board',
    async run(s) {
      const alice = await s.player('alice', 5000);
      const bob = await s.other('bob', 5000);
      const id = await s.item({ itemName: 'Golden Sword' });
      await alice.seen('BIDDING_STARTED', id);
      await alice.bid(id, 100);
      const bad = [
        'not json',
        '{"type":"BID_CREATED","data":{"itemId":1,"itemName":"Golden Sword","amount',
        '[1,2,3]',
        '42',
        JSON.stringify({ type: 'BID_CREATED', data: { itemId: id, itemName: 'Golden Sword', amount: '9999', username: 'mallory', timer: 1, timestamp: 1, endsAt: 1 } }),
        JSON.stringify({ type: 'HISTORY', data: { bids: [], items: 'none' } }),
        JSON.stringify({ type: 'SALE_COMPLETED', data: { itemId: id } }),
        JSON.stringify({ type: 'SHOUT', data: {} }),
        JSON.stringify({ data: { itemId: id } }),
      ];
      const since = alice.received();
      for (const frame of bad) s.auctionProxy.toClient(frame);
      s.auctionProxy.toClient(Buffer.from([1, 2, 3]));
      await alice.frames(bad.length + 1, since);
      await bob.bid(id, 150);
      s.auctionProxy.toClient('{"type":"NO_BUYER","data":{"itemId":0,"itemName":""}}');
      await alice.bid(id, 200);
      await alice.settle();
      return alice;
    },
  },
};

async function record(name: string): Promise<void> {
  const scenario = scenarios[name];
  const session = new Session();
  await session.start();
  try {
    const player = await scenario.run(session);
    const { log, board } = player.finish();
    writeFileSync(join(OUT, `${name}.jsonl`), log);
    writeFileSync(join(OUT, `${name}.board.json`), JSON.stringify(board, null, 2) + '\n');
    const lines = log.split('\n').length - 2;
    console.log(`${name}: ${lines} lines, ${Object.keys(board.items).length} items — ${scenario.about}`);
  } finally {
    await session.stop();
  }
}

const wanted = process.argv.slice(2);
for (const name of wanted) if (!scenarios[name]) throw new Error(`no scenario ${name}; there are: ${Object.keys(scenarios).join(', ')}`);
mkdirSync(OUT, { recursive: true });
for (const name of wanted.length ? wanted : Object.keys(scenarios)) await record(name);

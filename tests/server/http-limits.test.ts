/**
 * The HTTP side of "no client can take more than its share": idle and half-sent
 * connections are closed, open connections are capped per address and in total, sign-ups are
 * limited per address, and password hashing runs in a small bounded queue that token checks never
 * wait behind. Real sockets against a real server, with short limits injected through the config.
 */
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_ERRORS } from '../../src/protocol/auth';
import { DEFAULT_HTTP_LIMITS, type HttpLimits } from '../../server/config';
import { SpreadCloser } from '../../server/http/connections';
import { HTTP_ERRORS } from '../../server/http/errors';
import { FixedWindows } from '../../server/http/gate';
import { ManualClock } from './auction-helpers';
import { call, newAccount, register, signedIn, startTestServer } from './helpers';

type Server = Awaited<ReturnType<typeof startTestServer>>;

const portOf = (server: Server) => Number(new URL(server.httpUrl).port);

interface RawConnection {
  socket: net.Socket;
  /** Everything the server wrote, once it closed the connection. */
  closed: Promise<string>;
}

/** A plain TCP connection to the HTTP port, from `localAddress` (any 127.x.y.z is loopback on Linux). */
function connect(server: Server, localAddress = '127.0.0.1'): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port: portOf(server), localAddress });
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString()));
    const closed = new Promise<string>((done) => socket.once('close', () => done(received)));
    socket.on('error', () => undefined);
    socket.once('connect', () => resolve({ socket, closed }));
    socket.once('error', reject);
  });
}

/** One GET over its own connection from `localAddress`: the status, or 'closed' when the server hung up without an answer. */
function getFrom(server: Server, localAddress: string, path = '/openapi.json'): Promise<number | 'closed'> {
  return new Promise((resolve) => {
    const request = http.get({ host: '127.0.0.1', port: portOf(server), path, localAddress, agent: false }, (response) => {
      response.resume();
      response.once('end', () => resolve(response.statusCode ?? 0));
    });
    request.once('error', () => resolve('closed'));
  });
}

/** A POST of JSON from `localAddress` (sign-ups are limited per address). */
function postFrom(server: Server, localAddress: string, path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const request = http.request(
      { host: '127.0.0.1', port: portOf(server), path, method: 'POST', localAddress, agent: false, headers: { 'content-type': 'application/json' } },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.once('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }));
      },
    );
    request.once('error', reject);
    request.end(payload);
  });
}

const limits = (overrides: Partial<HttpLimits>): HttpLimits => ({ ...DEFAULT_HTTP_LIMITS, ...overrides });

/** Sends a request's head only (the body it announces never comes); resolves with what the server wrote before it closed or within one answer. */
function headOnly(server: Server, localAddress: string, head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port: portOf(server), localAddress });
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString();
      // one whole answer: its head and the body its content-length gives
      const [answerHead, body = ''] = received.split('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(answerHead);
      if (length && Buffer.byteLength(body) >= Number(length[1])) {
        socket.destroy();
        resolve(received);
      }
    });
    socket.once('close', () => resolve(received));
    socket.once('error', reject);
    socket.once('connect', () => socket.write(head));
  });
}

describe('idle and half-sent connections', () => {
  let server: Server;
  beforeAll(async () => {
    server = await startTestServer({ httpLimits: limits({ idleTimeoutMs: 300, headersTimeoutMs: 400, timeoutCheckMs: 100 }) });
  });
  afterAll(() => server.close());

  it('closes a connection that never sends a byte', async () => {
    const idle = await connect(server);
    // without the idle timeout this never resolves and the test times out
    expect(await idle.closed).toBe('');
  });

  it('closes a connection whose request headers trickle in slower than the headers timeout', async () => {
    const slow = await connect(server);
    slow.socket.write('GET /openapi.json HTTP/1.1\r\nHost: localhost\r\n');
    // one header byte every 100 ms keeps the connection busy for the idle timeout, never finishing the headers
    const trickle = setInterval(() => slow.socket.write('X'), 100);
    const received = await slow.closed;
    clearInterval(trickle);
    expect(received).toMatch(/^HTTP\/1\.1 408/);
  });

  it('still answers a request that arrives in time', async () => {
    expect(await getFrom(server, '127.0.0.1')).toBe(200);
  });
});

describe('connections that never send a byte', () => {
  let server: Server;
  beforeAll(async () => {
    // only the first-byte sweep can close a connection here: the other timeouts are far away
    server = await startTestServer({ httpLimits: limits({ firstByteTimeoutMs: 200, timeoutCheckMs: 50, idleTimeoutMs: 60_000, headersTimeoutMs: 60_000, requestTimeoutMs: 60_000 }) });
  });
  afterAll(() => server.close());

  it('are closed by the sweep without an answer, while one that started its request before them is kept', async () => {
    const started = await connect(server);
    let startedClosed = false;
    void started.closed.then(() => (startedClosed = true));
    started.socket.write('GET /openapi.json HTTP/1.1\r\n');
    // the server has read the first line once it answers another request on a later connection
    expect(await getFrom(server, '127.0.0.1')).toBe(200);
    const silent = await connect(server);
    expect(await silent.closed).toBe('');
    // the sweep goes in order of arrival: the earlier connection was looked at first, and kept
    expect(startedClosed).toBe(false);
    const answer = new Promise<string>((resolve) => started.socket.on('data', (chunk: Buffer) => resolve(chunk.toString())));
    started.socket.write('Host: localhost\r\n\r\n');
    expect(await answer).toMatch(/^HTTP\/1\.1 200/);
    started.socket.destroy();
  });
});

describe('closing in batches', () => {
  it('closes a batch of sockets per turn of the event loop, and skips those already gone', () => {
    const turns: (() => void)[] = [];
    const closer = new SpreadCloser(2, (fn) => turns.push(fn));
    const sockets = Array.from({ length: 5 }, () => new net.Socket());
    sockets[1].destroy();
    for (const socket of sockets) closer.close(socket);
    expect(turns).toHaveLength(1);
    expect(sockets.filter((s) => s.destroyed)).toHaveLength(1);
    turns.shift()!();
    // the first two were this turn's batch (one was already gone)
    expect(sockets.map((s) => s.destroyed)).toEqual([true, true, false, false, false]);
    expect(closer.pending).toBe(3);
    turns.shift()!();
    expect(sockets.map((s) => s.destroyed)).toEqual([true, true, true, true, false]);
    turns.shift()!();
    expect(sockets.every((s) => s.destroyed)).toBe(true);
    expect(turns).toHaveLength(0);
  });
});

describe('open connections', () => {
  let server: Server;
  beforeAll(async () => {
    server = await startTestServer({ httpLimits: limits({ maxConnectionsPerAddress: 3, maxConnections: 5 }) });
  });
  afterAll(() => server.close());

  it('refuses a connection over the cap for its address, and not those of another address', async () => {
    const held = await Promise.all([1, 2, 3].map(() => connect(server, '127.0.0.1')));
    expect(await getFrom(server, '127.0.0.1')).toBe('closed');
    expect(await getFrom(server, '127.0.0.2')).toBe(200);

    // once one of the three closes, that address may connect again
    held[0].socket.destroy();
    await held[0].closed;
    let answer: number | 'closed' = 'closed';
    // the server sees the close a moment after the client: try again, a bounded number of times
    for (let attempt = 0; attempt < 50 && answer === 'closed'; attempt++) answer = await getFrom(server, '127.0.0.1');
    expect(answer).toBe(200);
    for (const connection of held) connection.socket.destroy();
    await Promise.all(held.map((c) => c.closed));
  });

});

describe('the total cap', () => {
  let server: Server;
  beforeAll(async () => {
    // no timeout closes a connection during the test: only the cap does
    server = await startTestServer({ httpLimits: limits({ maxConnectionsPerAddress: 10, maxConnections: 5, firstByteTimeoutMs: 60_000, headersTimeoutMs: 120_000, requestTimeoutMs: 120_000, idleTimeoutMs: 120_000, keepAliveTimeoutMs: 120_000 }) });
  });
  afterAll(() => server.close());

  /** A raw connection and whether the server has closed it yet. */
  const held = async (address: string) => {
    const connection = await connect(server, address);
    const state = { ...connection, gone: false };
    void connection.closed.then(() => (state.gone = true));
    return state;
  };
  /** One keep-alive request on a raw connection: the answer's status line, or 'closed'. */
  const ask = (connection: RawConnection) =>
    new Promise<string>((resolve) => {
      connection.socket.once('data', (chunk: Buffer) => resolve(chunk.toString().split('\r\n')[0]));
      void connection.closed.then(() => resolve('closed'));
      connection.socket.write('GET /openapi.json HTTP/1.1\r\nHost: localhost\r\n\r\n');
    });

  /** Every byte written so far on other connections has been read: the same event loop answered a later request (the user socket's port answers plain HTTP 426). */
  const settled = async () => expect((await fetch(server.userUrl.replace(/^ws/, 'http'))).status).toBe(426);

  it('makes room for a new connection by closing the one silent the longest: never spoke first, then idle between requests; refuses only when every one is speaking', async () => {
    // every connection is held open by the test (a real client keeps its connection alive): one
    // served (idle since its answer), then four from other addresses that never speak
    const served = await held('127.0.1.1');
    expect(await ask(served)).toBe('HTTP/1.1 200 OK');
    const [first, second, third, fourth] = [await held('127.0.1.2'), await held('127.0.1.3'), await held('127.0.1.4'), await held('127.0.1.5')];
    // the cap is reached: a real client is served, and the oldest that never spoke made room for it
    const client = await held('127.0.1.6');
    expect(await ask(client)).toBe('HTTP/1.1 200 OK');
    expect(await first.closed).toBe('');
    const another = await held('127.0.1.7');
    expect(await ask(another)).toBe('HTTP/1.1 200 OK');
    expect(await second.closed).toBe('');
    // the served connection was kept though it is older: it spoke, and it still answers
    expect(await ask(served)).toBe('HTTP/1.1 200 OK');
    expect([third.gone, fourth.gone]).toEqual([false, false]);

    // the two left that never spoke start a request: the one idle the longest goes (the client's)
    for (const c of [third, fourth]) c.socket.write('GET /openapi.json HTTP/1.1\r\n');
    await settled();
    const late = await held('127.0.1.8');
    expect(await ask(late)).toBe('HTTP/1.1 200 OK');
    expect(await client.closed).toMatch(/^HTTP\/1\.1 200/);
    expect([served.gone, another.gone, third.gone, fourth.gone]).toEqual([false, false, false, false]);

    // every one is speaking: a new connection is refused, and they are all kept
    for (const c of [served, another, late]) c.socket.write('GET /openapi.json HTTP/1.1\r\n');
    await settled();
    const refused = await held('127.0.1.9');
    expect(await refused.closed).toBe('');
    const kept = [served, another, late, third, fourth];
    expect(kept.map((c) => c.gone)).toEqual([false, false, false, false, false]);
    for (const c of kept) c.socket.destroy();
    await Promise.all(kept.map((c) => c.closed));
  });
});

describe('sign-up limit per address', () => {
  let server: Server;
  const clock = new ManualClock();
  beforeAll(async () => {
    // refusals answered at once here; their delay has its own test below
    server = await startTestServer({ registerRateLimit: { perAddress: 3, windowMs: 60_000 }, httpLimits: limits({ refusalDelayMs: 0 }) }, { now: clock.now });
  });
  afterAll(() => server.close());

  it('refuses the fourth sign-up from one address in the window with a clear error, and not another address', async () => {
    for (let i = 0; i < 3; i++) expect((await postFrom(server, '127.0.0.1', '/auth/register', newAccount())).status).toBe(200);
    const refused = await postFrom(server, '127.0.0.1', '/auth/register', newAccount());
    expect(refused).toEqual({ status: 429, body: { status: 'error', error: AUTH_ERRORS.tooManySignUps } });
    expect((await postFrom(server, '127.0.0.2', '/auth/register', newAccount())).status).toBe(200);
  });

  it('refuses before reading the body: the answer comes though the body announced never does', async () => {
    // without the early refusal the route would wait for the 500 bytes until the request timeout
    const answer = await headOnly(
      server,
      '127.0.0.1',
      `POST /auth/register HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"email":`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 429/);
    expect(answer.endsWith(JSON.stringify({ status: 'error', error: AUTH_ERRORS.tooManySignUps }))).toBe(true);
  });

  it('closes the connection after refusing a request whose body is not small, rather than reading it all', async () => {
    const answer = await headOnly(
      server,
      '127.0.0.1',
      `POST /auth/register HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"email":`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 429/);
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);
  });

  it('gives the refusal the headers of every API answer', async () => {
    const refused = await call(server, 'POST', '/auth/register', { body: newAccount() });
    const other = await call(server, 'POST', '/auth/me');
    expect(refused.status).toBe(429);
    expect(other.status).toBe(401);
    const names = (headers: Headers) => [...headers.keys()].filter((name) => name !== 'date' && name !== 'content-length').sort();
    expect(names(refused.headers)).toEqual(names(other.headers));
    expect(refused.headers.get('x-content-type-options')).toBe('nosniff');
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    expect(refused.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('lets the address sign up again once its window has passed', async () => {
    expect((await postFrom(server, '127.0.0.1', '/auth/register', newAccount())).status).toBe(429);
    clock.advance(60_000);
    expect((await postFrom(server, '127.0.0.1', '/auth/register', newAccount())).status).toBe(200);
  });

  it('counts sign-ups only: other routes from an address over its limit are answered as usual', async () => {
    for (let i = 0; i < 3; i++) await postFrom(server, '127.0.0.5', '/auth/register', newAccount());
    expect((await postFrom(server, '127.0.0.5', '/auth/register', newAccount())).status).toBe(429);
    expect((await postFrom(server, '127.0.0.5', '/auth/login', { email: 'nobody@example.com', password: 'Wrong!pass1' })).status).toBe(401);
    expect(await getFrom(server, '127.0.0.5', '/auth/register?again')).toBe(404);
  });
});

describe('refusal delay', () => {
  let server: Server;
  beforeAll(async () => {
    server = await startTestServer({ registerRateLimit: { perAddress: 1, windowMs: 60_000 }, httpLimits: limits({ refusalDelayMs: 1_500 }) });
    // (1.5 s: long enough that the other request is answered first on a loaded machine too)
  });
  afterAll(() => server.close());

  it('answers a refused sign-up only after the delay, while other requests are answered meanwhile', async () => {
    expect((await postFrom(server, '127.0.0.1', '/auth/register', newAccount())).status).toBe(200);
    const order: string[] = [];
    const sent = performance.now();
    const refused = postFrom(server, '127.0.0.1', '/auth/register', newAccount()).then((answer) => {
      order.push('refused');
      return { ...answer, ms: performance.now() - sent };
    });
    const other = getFrom(server, '127.0.0.2').then((status) => {
      order.push('other');
      return status;
    });
    expect(await other).toBe(200);
    const answer = await refused;
    expect(answer.status).toBe(429);
    expect(answer.ms).toBeGreaterThanOrEqual(1_500);
    expect(order).toEqual(['other', 'refused']);
  });
});

describe('fixed windows', () => {
  it('counts up to the maximum per key, refuses beyond it without counting, and starts again when the window ends', () => {
    let now = 0;
    const windows = new FixedWindows(2, 1000, () => now);
    expect([windows.take('a'), windows.take('a'), windows.take('a'), windows.take('b')]).toEqual([true, true, false, true]);
    now = 999;
    expect(windows.take('a')).toBe(false);
    now = 1000;
    expect([windows.take('a'), windows.take('a'), windows.take('a')]).toEqual([true, true, false]);
  });

  it('forgets the windows that ended once many keys were seen', () => {
    let now = 0;
    const windows = new FixedWindows(1, 1000, () => now);
    for (let i = 0; i < 1024; i++) windows.take(`old${i}`);
    now = 1000;
    windows.take('new');
    expect(windows.size).toBe(1);
  });
});

describe('password hashing under a flood', () => {
  let server: Server;
  beforeAll(async () => {
    server = await startTestServer({
      // a real cost (a few tens of ms a hash), one at a time, sixteen waiting, in the low-priority hashing process as in production
      passwordHashCost: { memoryCost: 16_384, timeCost: 2, parallelism: 1 },
      passwordHashing: { concurrency: 1, queue: 16, lowPriorityProcess: true },
    });
  });
  afterAll(() => server.close());

  it('answers sign-ups over the queue 503 at once with a clear text, and the others still succeed', async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, () => call(server, 'POST', '/auth/register', { body: newAccount('flood') })));
    const statuses = answers.map((a) => a.status);
    expect(statuses.every((s) => s === 200 || s === 503)).toBe(true);
    // one hashing and sixteen waiting: at least the first seventeen to arrive get through
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(17);
    const busy = answers.filter((a) => a.status === 503);
    expect(busy.length).toBeGreaterThan(0);
    for (const answer of busy) expect(answer.body).toEqual({ status: 'error', error: HTTP_ERRORS.busy });
  });

  it('answers auth/me while the sign-ups it was sent behind are still hashing', async () => {
    const me = await signedIn(server);
    const events: string[] = [];
    // the flood: as many as run and wait (more than libuv's four threads); each needs a hash
    const flood = Array.from({ length: 16 }, (_, i) =>
      register(server, newAccount('flood')).then(() => events.push(`register ${i}`)),
    );
    // once one sign-up has answered, every hash of the flood has been asked for
    await Promise.race(flood);
    const check = call(server, 'POST', '/auth/me', { token: me.token }).then((answer) => {
      events.push('me');
      return answer;
    });
    const answer = await check;
    await Promise.all(flood);
    expect(answer.status).toBe(200);
    // before the queue, the token check (jose, in the same thread pool) waited behind every hash
    expect(events.indexOf('me')).toBeLessThan(5);
  });
});

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server, Socket } from 'node:net';
import type { HttpLimits } from '../config';

/**
 * The HTTP port's caps on open connections (23,000 idle connections used up the process's
 * file descriptors): in total, and per client address unless a trusted proxy makes every
 * connection come from one address (the proxy then has to cap them). Over the cap of its address a
 * new connection is closed as soon as it is accepted, before it is read. At the total cap, the
 * connection silent the longest makes room instead, so that idle connections from many addresses
 * never keep out one that speaks: first one that has sent nothing since it was accepted (the
 * oldest), else one idle between two requests (idle the longest). A connection with a request under
 * way, or part of one sent, is never closed for another: when every one is, the new one is closed.
 * `dropped` counts the refused, `evicted` those closed to make room.
 */
export function capConnections(
  server: Server,
  limits: HttpLimits,
  perAddress: boolean,
): { open: (address: string) => number; dropped: () => number; evicted: () => number } {
  let dropped = 0;
  let evicted = 0;
  const byAddress = new Map<string, number>();
  const open = new Set<Socket>();
  // the candidates, in the order they fell silent (Maps iterate in insertion order): connections
  // that have sent nothing yet, and connections between requests with the bytes they had read then
  const silent = new Set<Socket>();
  const idle = new Map<Socket, number>();
  const requests = new Map<Socket, number>();

  /** The connection silent the longest, or null; on the way, forgets those that spoke since. */
  const quietest = (): Socket | null => {
    for (const socket of silent) {
      if (socket.bytesRead === 0 && !socket.destroyed) return socket;
      silent.delete(socket);
    }
    for (const [socket, bytes] of idle) {
      if (socket.bytesRead === bytes && !socket.destroyed) return socket;
      idle.delete(socket);
    }
    return null;
  };

  // before http's own listener, so a refused socket is never parsed
  server.prependListener('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    if (perAddress && (byAddress.get(address) ?? 0) >= limits.maxConnectionsPerAddress) {
      dropped += 1;
      socket.destroy();
      return;
    }
    if (open.size >= limits.maxConnections) {
      const room = quietest();
      if (!room) {
        dropped += 1;
        socket.destroy();
        return;
      }
      // synchronous: its file descriptor is closed now ('close' follows)
      open.delete(room);
      silent.delete(room);
      idle.delete(room);
      room.destroy();
      evicted += 1;
    }
    open.add(socket);
    silent.add(socket);
    if (perAddress) byAddress.set(address, (byAddress.get(address) ?? 0) + 1);
    socket.once('close', () => {
      open.delete(socket);
      silent.delete(socket);
      idle.delete(socket);
      requests.delete(socket);
      if (!perAddress) return;
      const left = (byAddress.get(address) ?? 1) - 1;
      if (left > 0) byAddress.set(address, left);
      else byAddress.delete(address);
    });
  });
  // a request makes its connection busy until its answer is done; then it is idle, from that moment
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    // with TLS the request comes on the TLS socket, over the TCP one 'connection' gave (Node's _parent)
    const tcp = open.has(req.socket as Socket) ? (req.socket as Socket) : (req.socket as { _parent?: Socket })._parent;
    if (!tcp || !open.has(tcp)) return;
    silent.delete(tcp);
    idle.delete(tcp);
    requests.set(tcp, (requests.get(tcp) ?? 0) + 1);
    res.once('close', () => {
      const left = (requests.get(tcp) ?? 1) - 1;
      if (left > 0) {
        requests.set(tcp, left);
        return;
      }
      requests.delete(tcp);
      if (open.has(tcp) && !tcp.destroyed) idle.set(tcp, tcp.bytesRead);
    });
  });
  return { open: (address) => byAddress.get(address) ?? 0, dropped: () => dropped, evicted: () => evicted };
}

/** Runs `fn` on a later turn of the event loop, after the I/O waiting now (setImmediate; tests pass their own). */
export type Later = (fn: () => void) => void;

/**
 * Closes sockets a batch per turn of the event loop (23,000 idle connections: the four
 * thousand the caps let in all reached their timeout in the same second, and closing them in one
 * go, each with an error built and a 408 written, held the event loop for a quarter of a second,
 * so the bids of that moment waited). Between two batches the I/O that arrived is served.
 * `answer`, when given, is written first (a 408 to a client that had started a request).
 */
export class SpreadCloser {
  private readonly waiting: { socket: Socket; answer: Buffer | null }[] = [];
  private scheduled = false;

  constructor(
    private readonly batch = 64,
    private readonly later: Later = setImmediate,
  ) {}

  close(socket: Socket, answer: Buffer | null = null): void {
    this.waiting.push({ socket, answer });
    if (this.scheduled) return;
    this.scheduled = true;
    this.later(() => this.drain());
  }

  /** Sockets waiting for their turn. */
  get pending(): number {
    return this.waiting.length;
  }

  private drain(): void {
    this.scheduled = false;
    for (const { socket, answer } of this.waiting.splice(0, this.batch)) {
      if (socket.destroyed) continue;
      if (answer && socket.writable) socket.write(answer);
      // no error given: destroying with one makes node build its stack trace, per socket
      socket.destroy();
    }
    if (this.waiting.length > 0) {
      this.scheduled = true;
      this.later(() => this.drain());
    }
  }
}

/**
 * A new connection must send its first byte within `limits.firstByteTimeoutMs`; one that stays
 * silent is closed without an answer (it asked nothing), by one sweep every `timeoutCheckMs` rather
 * than a timer per connection, through `closer`. Node's own headers timeout (a first byte came,
 * the headers did not finish) stays: the sweep only closes connections that never spoke, before
 * Node would time them out (each with an error built for it, all at once).
 * Returns the sweep, for tests that drive it with their own clock.
 */
export function closeSilentConnections(
  server: Server,
  limits: HttpLimits,
  closer: SpreadCloser,
  clock: () => number = () => performance.now(),
): { sweep: () => void; stop: () => void } {
  // in order of arrival, so the sweep stops at the first one still young
  const silent = new Map<Socket, number>();
  server.on('connection', (socket: Socket) => {
    if (socket.destroyed) return;
    silent.set(socket, clock());
    socket.once('close', () => silent.delete(socket));
  });
  const sweep = () => {
    const now = clock();
    for (const [socket, since] of silent) {
      if (socket.bytesRead > 0 || socket.destroyed) {
        silent.delete(socket);
        continue;
      }
      if (now - since < limits.firstByteTimeoutMs) break;
      silent.delete(socket);
      closer.close(socket);
    }
  };
  const timer = setInterval(sweep, limits.timeoutCheckMs);
  timer.unref();
  server.once('close', () => clearInterval(timer));
  return { sweep, stop: () => clearInterval(timer) };
}

const TIMEOUT_BODY = '{"error":"Request Timeout","message":"Client Timeout","statusCode":408}';
const TIMEOUT_ANSWER = Buffer.from(`HTTP/1.1 408 Request Timeout\r\nContent-Length: ${TIMEOUT_BODY.length}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${TIMEOUT_BODY}`);

/**
 * The HTTP server's 'clientError' handler (Fastify's `clientErrorHandler`): a request that timed
 * out gets its 408 through `closer` (Node times out every late connection of a check at once);
 * any other error (a malformed request, headers too large) is answered at once as Fastify does.
 */
export function clientErrorHandler(closer: SpreadCloser) {
  return (error: NodeJS.ErrnoException, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      closer.close(socket, socket.bytesRead > 0 ? TIMEOUT_ANSWER : null);
      return;
    }
    const [status, text, message] =
      error.code === 'HPE_HEADER_OVERFLOW' ? [431, 'Request Header Fields Too Large', 'Exceeded maximum allowed HTTP header size'] : [400, 'Bad Request', 'Client Error'];
    const body = `{"error":"${text}","message":"${message}","statusCode":${status}}`;
    if (socket.writable) socket.write(`HTTP/1.1 ${status} ${text}\r\nContent-Length: ${body.length}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${body}`);
    socket.destroy();
  };
}

import type { Server, Socket } from 'node:net';
import type { HttpLimits } from '../config';

/**
 * The HTTP port's caps on open connections (issue 10: 23,000 idle connections used up the process's
 * file descriptors): in total, and per client address unless a trusted proxy makes every
 * connection come from one address (the proxy then has to cap them). Over a cap a new connection is
 * closed as soon as it is accepted, before it is read; `dropped` counts them.
 */
export function capConnections(server: Server, limits: HttpLimits, perAddress: boolean): { open: (address: string) => number; dropped: () => number } {
  let dropped = 0;
  server.maxConnections = limits.maxConnections;
  server.on('drop', () => {
    dropped += 1;
  });
  const open = new Map<string, number>();
  if (perAddress) {
    // before http's own listener, so a refused socket is never parsed
    server.prependListener('connection', (socket: Socket) => {
      const address = socket.remoteAddress ?? '';
      const count = open.get(address) ?? 0;
      if (count >= limits.maxConnectionsPerAddress) {
        dropped += 1;
        socket.destroy();
        return;
      }
      open.set(address, count + 1);
      socket.once('close', () => {
        const left = (open.get(address) ?? 1) - 1;
        if (left > 0) open.set(address, left);
        else open.delete(address);
      });
    });
  }
  return { open: (address) => open.get(address) ?? 0, dropped: () => dropped };
}

/** Runs `fn` on a later turn of the event loop, after the I/O waiting now (setImmediate; tests pass their own). */
export type Later = (fn: () => void) => void;

/**
 * Closes sockets a batch per turn of the event loop (issue 10, 23,000 idle connections: the four
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

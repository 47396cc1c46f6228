import type { IncomingMessage, ServerResponse } from 'node:http';
import { AUTH_ERRORS } from '../../src/protocol/auth';
import type { RegisterRateLimit } from '../config';
import { errorAnswer } from './errors';

/**
 * Requests refused before Fastify sees them (50 parallel sign-up loops: about 2,000
 * refused sign-ups a second, each routed, its body read, parsed and validated, then refused through
 * an error, the error handler, the answer's schema and the security headers' hooks, kept the one
 * server thread so busy that another player's auth/me took 50 ms instead of 8). Here a refusal is
 * decided from the method, the path and the client address alone, before the body is read, and
 * answered with bytes made once at start, `refusalDelayMs` later: the 50 loops then ask 50 times a
 * second rather than 2,000 (nginx's limit_req delays excess requests the same way).
 */

/** Counts per key in fixed windows: `max` in `windowMs` from a key's first count; `clock` in ms. */
export class FixedWindows {
  private readonly windows = new Map<string, { count: number; endsAt: number }>();
  private pruneAt = 1024;

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly clock: () => number,
  ) {}

  /** Counts one for `key`; false when its window is already full (nothing is counted then). */
  take(key: string): boolean {
    const now = this.clock();
    let window = this.windows.get(key);
    if (!window || now >= window.endsAt) {
      if (this.windows.size >= this.pruneAt) this.prune(now);
      window = { count: 0, endsAt: now + this.windowMs };
      this.windows.set(key, window);
    }
    if (window.count >= this.max) return false;
    window.count += 1;
    return true;
  }

  /** Keys with a window still open. */
  get size(): number {
    return this.windows.size;
  }

  /** Forgets the windows that ended (a fresh one is the same), so the map does not grow with every address ever seen. */
  private prune(now: number): void {
    for (const [key, window] of this.windows) if (now >= window.endsAt) this.windows.delete(key);
    this.pruneAt = Math.max(1024, this.windows.size * 2);
  }
}

/**
 * The client address the per-address limits use, as Fastify's `request.ip` gives it (the login
 * limits use that): the TCP peer, or behind a trusted proxy the first X-Forwarded-For entry.
 */
export function requestAddress(req: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const header = req.headers['x-forwarded-for'];
    const first = (Array.isArray(header) ? header[0] : header)?.split(',')[0]?.trim();
    if (first) return first;
  }
  return req.socket.remoteAddress ?? 'unknown';
}

/**
 * The headers every API answer carries (@fastify/helmet and @fastify/cors, see security-headers.ts),
 * for an answer that never reaches them: a JSON error needs no source at all, so its policy allows
 * none and forbids framing.
 */
function refusalHeaders(body: Buffer, tls: boolean): Record<string, string | number> {
  return {
    'access-control-allow-origin': '*',
    'content-security-policy': "default-src 'none';frame-ancestors 'none'",
    'content-type': 'application/json; charset=utf-8',
    'content-length': body.length,
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-site',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'no-referrer',
    ...(tls ? { 'strict-transport-security': 'max-age=31536000' } : {}),
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'DENY',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
  };
}

export interface GateOptions {
  signUps: RegisterRateLimit;
  trustProxy: boolean;
  tls: boolean;
  /** Milliseconds (the sign-up windows). */
  clock: () => number;
  /** A refusal is answered this long after the request came (HttpLimits.refusalDelayMs); 0: at once. */
  refusalDelayMs: number;
}

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

const SIGN_UP_PATH = '/auth/register';

/**
 * Wraps Fastify's request handler: a sign-up (POST /auth/register) from an address that has used
 * its `signUps.perAddress` for the window is answered 429 (AUTH_ERRORS.tooManySignUps, the route's
 * own answer shape) here, `refusalDelayMs` later, its body never read; every sign-up under the limit
 * is counted and goes on to the route, as does every other request.
 */
export function gateRequests(handler: RequestHandler, options: GateOptions): RequestHandler {
  const signUps = new FixedWindows(options.signUps.perAddress, options.signUps.windowMs, options.clock);
  const body = Buffer.from(JSON.stringify(errorAnswer('status', AUTH_ERRORS.tooManySignUps)));
  const headers = refusalHeaders(body, options.tls);
  // a body that is not small is not worth reading to the end to keep the connection: closed after the answer
  const closing = { ...headers, connection: 'close' };
  const refuse = (req: IncomingMessage, res: ServerResponse) => {
    if (res.destroyed) return;
    res.writeHead(429, hasLargeBody(req) ? closing : headers);
    res.end(body);
  };
  return (req, res) => {
    if (req.method === 'POST' && isSignUp(req.url ?? '') && !signUps.take(requestAddress(req, options.trustProxy))) {
      // otherwise the unread body is discarded by Node once the answer is sent; the connection stays usable
      if (options.refusalDelayMs > 0) setTimeout(refuse, options.refusalDelayMs, req, res).unref();
      else refuse(req, res);
      return;
    }
    handler(req, res);
  };
}

/** Bodies above this are not drained to keep a refused request's connection alive. */
const SMALL_BODY = 16 * 1024;

function hasLargeBody(req: IncomingMessage): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = Number(req.headers['content-length'] ?? 0);
  return !(length <= SMALL_BODY);
}

function isSignUp(url: string): boolean {
  return url.startsWith(SIGN_UP_PATH) && (url.length === SIGN_UP_PATH.length || url[SIGN_UP_PATH.length] === '?');
}

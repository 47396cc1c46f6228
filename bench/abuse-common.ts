/**
 * Shared by the abuse benchmark's processes (bench/abuse.bench.ts and its children): HTTP calls
 * from a chosen loopback address, the attacks' specifications, and the child's stdin loop.
 */
import http from 'node:http';

/**
 * Loopback addresses the processes speak from (Linux routes all of 127/8 to lo), so the server's
 * per-address limits tell them apart: the attacker is not the victim.
 */
export const ADDRESSES = {
  attacker: '127.0.0.1',
  victim: '127.0.0.2',
  setup: '127.0.0.3',
  rival: '127.0.0.4',
} as const;

export interface HttpAnswer {
  status: number;
  body: Record<string, unknown>;
  text: string;
}

/** One JSON request from `localAddress`; rejects on a network error or after `timeoutMs`. */
export function httpJson(
  base: string,
  method: 'GET' | 'POST',
  path: string,
  options: { body?: unknown; token?: string; localAddress: string; agent?: http.Agent; timeoutMs?: number },
): Promise<HttpAnswer> {
  const url = new URL(path, base);
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        localAddress: options.localAddress,
        agent: options.agent ?? false,
        headers: {
          ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        },
        timeout: options.timeoutMs ?? 10_000,
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.once('end', () => {
          let body: Record<string, unknown> = {};
          try {
            body = JSON.parse(text) as Record<string, unknown>;
          } catch {
            // not JSON
          }
          resolve({ status: response.statusCode ?? 0, body, text });
        });
        response.once('error', reject);
      },
    );
    request.once('timeout', () => request.destroy(new Error(`no answer within ${options.timeoutMs ?? 10_000} ms`)));
    request.once('error', reject);
    request.end(payload);
  });
}

/** What one attacker child does (abuse-attacker-child.ts); every attack stops by itself after `seconds`. */
export type AttackSpec =
  | { kind: 'anon-writers'; auctionUrl: string; sockets: number; seconds: number }
  | { kind: 'anon-raw-writers'; auctionUrl: string; sockets: number; seconds: number }
  | { kind: 'bid-flood'; auctionUrl: string; token: string; sockets: number; perSocketPerS: number; itemId: number; amount: number; seconds: number }
  | { kind: 'auth-flood'; auctionUrl: string; token: string; sockets: number; perSocketPerS: number; seconds: number }
  | { kind: 'xlsx-bomb'; httpUrl: string; token: string; files: string[]; seconds: number; maxUploads: number }
  | { kind: 'idle-tcp'; httpUrl: string; connections: number; addresses: string[]; seconds: number }
  | { kind: 'register-loops'; httpUrl: string; loops: number; seconds: number; maxPerLoop: number };

/** What an attacker child reports: counts by what happened (sent, answered, closed by the server…). */
export type AttackReport = Record<string, number | string>;

/** Calls `onLine` for every line on stdin. */
export function readLines(onLine: (line: string) => void): void {
  let input = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk: string) => {
    input += chunk;
    for (let at = input.indexOf('\n'); at >= 0; at = input.indexOf('\n')) {
      const line = input.slice(0, at).trim();
      input = input.slice(at + 1);
      if (line) onLine(line);
    }
  });
}

export const reply = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

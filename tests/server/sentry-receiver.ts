import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** A stand-in for Sentry's ingest: what the server reports, kept whole for the tests to read. */

export interface Received {
  /** The envelope as it came (every byte that left the server), to check nothing personal is in it. */
  raw: string;
  event: SentryEvent;
}

export interface SentryEvent {
  level?: string;
  message?: string;
  exception?: { values: { type?: string; value?: string }[] };
  tags?: Record<string, string>;
  extra?: Record<string, unknown>;
  user?: Record<string, unknown>;
  request?: unknown;
}

/** Stands in for Sentry: takes envelopes on /api/<project>/envelope/ and keeps their events. */
export class EnvelopeReceiver {
  readonly received: Received[] = [];
  private waiters: { match: (r: Received) => boolean; resolve: (r: Received) => void }[] = [];
  private readonly server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const raw = (request.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body).toString('utf8');
      // an envelope: a header line, then for each item its header line and its payload line
      const lines = raw.split('\n').filter((line) => line.length > 0);
      for (let i = 1; i + 1 < lines.length; i += 2) {
        const header = JSON.parse(lines[i]) as { type?: string };
        if (header.type === 'event') this.take({ raw, event: JSON.parse(lines[i + 1]) as SentryEvent });
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://publickey@127.0.0.1:${(this.server.address() as AddressInfo).port}/1`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private take(received: Received) {
    this.received.push(received);
    const waiter = this.waiters.find((w) => w.match(received));
    if (waiter) {
      this.waiters = this.waiters.filter((w) => w !== waiter);
      waiter.resolve(received);
    }
  }

  /** The first event (already here, or when it arrives) that matches. */
  next(match: (event: SentryEvent) => boolean): Promise<Received> {
    const found = this.received.find((r) => match(r.event));
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => this.waiters.push({ match: (r) => match(r.event), resolve }));
  }
}

import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the stand-in answers one request: a status (with a body and headers, e.g. a 429's), no answer at all, or a dropped connection. */
export type Answer = { status: number; body?: unknown; headers?: Record<string, string> } | 'hang' | 'drop';

export interface Received<Body> {
  /** The request's path, as the subclass reads it (pathOf). */
  path: string;
  auth: string;
  body: Body;
}

/**
 * A stand-in for one of Discord's HTTP APIs that fails as Discord does. Each request is answered
 * as the test scripted (`script`, in order), else 200 with what the subclass makes of it
 * (`delivered`, whose body a scripted one replaces); while `down`, every connection is refused. `received` holds every request, the
 * ones that failed included. Tests await `receivedCount(n)` instead of sleeping.
 */
export abstract class DiscordStandIn<Body extends object> {
  readonly received: Received<Body>[] = [];
  readonly script: Answer[] = [];
  /** Every connection refused while set. */
  down = false;
  origin = '';
  private readonly hung = new Set<http.ServerResponse>();
  private readonly waiters: (() => void)[] = [];
  private readonly server = http.createServer((request, response) => {
    if (this.down) return void request.socket.destroy();
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      const entry: Received<Body> = { path: this.pathOf(request.url ?? ''), auth: String(request.headers.authorization), body: JSON.parse(text || '{}') as Body };
      this.received.push(entry);
      for (const wake of this.waiters.splice(0)) wake();
      const answer = this.script.shift() ?? { status: 200 };
      if (answer === 'drop') return void request.socket.destroy();
      if (answer === 'hang') return void this.hung.add(response);
      // a 200 is delivered whatever body the script gives it (a script may set its headers, say)
      const made = answer.status === 200 ? this.delivered(entry) : {};
      response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(JSON.stringify(answer.body ?? made));
    });
  });

  /** A request answered 200: what Discord would have done with it, and the body it answers. */
  protected abstract delivered(request: Received<Body>): unknown;

  /** The path a request is filed under: without its query. */
  protected pathOf(url: string): string {
    return url.replace(/\?.*$/, '');
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    for (const r of this.hung) r.socket?.destroy();
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** Resolves once `n` requests in all have arrived. */
  async receivedCount(n: number): Promise<void> {
    while (this.received.length < n) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  reset(): void {
    this.received.length = 0;
    this.script.length = 0;
    this.down = false;
  }
}

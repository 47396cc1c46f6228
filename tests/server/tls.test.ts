import https from 'node:https';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SOCKET_LIMITS } from '../../server/sockets/limits';
import { TestSocket, startTestServer } from './helpers';

// A self-signed certificate for localhost/127.0.0.1, for this test only.
const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');

function httpsGet(url: string): Promise<{ status: number; text: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { rejectUnauthorized: false }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
      })
      .on('error', reject);
  });
}

describe('TLS_CERT + TLS_KEY', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    server = await startTestServer({
      tlsCert: path.join(fixtures, 'tls-cert.pem'),
      tlsKey: path.join(fixtures, 'tls-key.pem'),
      socketLimits: { ...DEFAULT_SOCKET_LIMITS, headersTimeoutMs: 200 },
    });
  });
  afterAll(() => server.close());

  it('serves https and wss on all three ports', async () => {
    expect(server.httpUrl).toMatch(/^https:/);
    expect(server.auctionUrl).toMatch(/^wss:/);
    expect(server.userUrl).toMatch(/^wss:/);
    const answer = await httpsGet(`${server.httpUrl}/openapi.json`);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text).openapi).toMatch(/^3\./);
    for (const url of [server.auctionUrl, server.userUrl]) {
      const socket = await TestSocket.open(url, { rejectUnauthorized: false });
      socket.send({ type: 'GET_STATUS' });
      expect(await socket.next()).toEqual({ type: 'ERROR', error_type: 'UNAUTHENTICATED' });
      socket.close();
    }
  });

  it('keeps a wss connection open past the time a connection has to ask for its upgrade', async () => {
    const socket = await TestSocket.open(server.auctionUrl, { rejectUnauthorized: false });
    expect(await socket.quiet(500)).toBe(true);
    socket.send({ type: 'GET_STATUS' });
    expect(await socket.next()).toEqual({ type: 'ERROR', error_type: 'UNAUTHENTICATED' });
    expect(socket.isOpen).toBe(true);
    socket.close();
  });

  it('tells browsers to stay on https (HSTS, upgrade-insecure-requests), and the sockets in connect-src are wss', async () => {
    const answer = await httpsGet(`${server.httpUrl}/`);
    expect(answer.headers['strict-transport-security']).toBe('max-age=31536000');
    const policy = String(answer.headers['content-security-policy']);
    expect(policy).toContain('upgrade-insecure-requests');
    expect(policy).toContain(`wss://127.0.0.1:${new URL(server.auctionUrl).port}`);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_ERRORS } from '../../src/protocol/auth';
import { call, register, startTestServer, PASSWORD } from './helpers';

describe('login rate limit', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    server = await startTestServer({ loginRateLimit: { perEmail: 3, perAddress: 6, windowMs: 60_000 } });
  });
  afterAll(() => server.close());

  const tooMany = { result: false, token: null, error: AUTH_ERRORS.tooManyAttempts };

  it('limits the attempts for one email, even with the right password, whatever the case', async () => {
    const account = await register(server);
    for (let i = 0; i < 3; i++) {
      const answer = await call(server, 'POST', '/auth/login', { body: { email: account.email, password: 'Wrong-pass1' } });
      expect(answer.status).toBe(401);
    }
    const blocked = await call(server, 'POST', '/auth/login', { body: { email: account.email.toUpperCase(), password: PASSWORD } });
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual(tooMany);
  });

  it('limits the attempts from one address across emails', async () => {
    // 4 attempts so far from this address; 2 more are allowed
    for (let i = 0; i < 2; i++) {
      const answer = await call(server, 'POST', '/auth/login', { body: { email: `someone${i}@example.com`, password: PASSWORD } });
      expect(answer.status).toBe(401);
    }
    const blocked = await call(server, 'POST', '/auth/login', { body: { email: 'fresh@example.com', password: PASSWORD } });
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual(tooMany);
  });
});

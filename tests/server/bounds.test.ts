import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DURATION_S, MAX_EXTEND_WINDOW_S, MAX_EXTENSIONS, MAX_TIME_MS, STORE_ERRORS, storeItem } from '../../src/protocol/store';
import { POINTS_ERRORS } from '../../src/protocol/points';
import { itemBody } from './auction-helpers';
import { call, leadershipServer, startTestServer } from './helpers';

let server: Awaited<ReturnType<typeof startTestServer>>;
let admin: { token: string };

beforeAll(async () => {
  ({ server, admin } = await leadershipServer());
});
afterAll(() => server.close());

describe('every time a client sends is bounded, so every derived time stays a safe integer', () => {
  it('refuses a start beyond 2100 (9007199254740991 made endsAt unsafe and broke Store Management for good)', async () => {
    for (const startsAt of [9007199254740991, MAX_TIME_MS + 1]) {
      const answer = await call(server, 'POST', '/store/items', { token: admin.token, body: itemBody({ startsAt }) });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ result: false, error: STORE_ERRORS.startsAt });
    }
    const items = await call(server, 'GET', '/store/items', { token: admin.token });
    expect(items.body.items).toEqual([]);
  });

  it('takes the latest start with the longest timing, and every item of the list still fits the contract', async () => {
    const answer = await call(server, 'POST', '/store/items', {
      token: admin.token,
      body: itemBody({ startsAt: MAX_TIME_MS, duration: MAX_DURATION_S, extendWindow: MAX_EXTEND_WINDOW_S, maxExtensions: MAX_EXTENSIONS }),
    });
    expect(answer.status).toBe(200);
    const item = answer.body.item as { endsAt: number };
    expect(item.endsAt).toBe(MAX_TIME_MS + MAX_DURATION_S * 1000);
    // with every extension on top it is still far inside the safe integers
    expect(Number.isSafeInteger(item.endsAt + MAX_EXTENSIONS * MAX_EXTEND_WINDOW_S * 1000)).toBe(true);
    const list = await call(server, 'GET', '/store/items', { token: admin.token });
    for (const listed of list.body.items as unknown[]) expect(storeItem.safeParse(listed).success).toBe(true);
  });

  it('bounds the start of a copy, the edited start, the history times and the page', async () => {
    const item = (await call(server, 'POST', '/store/items', { token: admin.token, body: itemBody({ startsAt: MAX_TIME_MS - 1 }) })).body.item as { itemId: number };
    const copy = await call(server, 'POST', `/store/items/${item.itemId}/duplicate`, { token: admin.token, body: { startsAt: Number.MAX_SAFE_INTEGER } });
    expect(copy.body).toEqual({ result: false, error: STORE_ERRORS.startsAt });
    const edit = await call(server, 'POST', `/store/items/${item.itemId}`, { token: admin.token, body: { startsAt: MAX_TIME_MS + 1 } });
    expect(edit.body).toEqual({ result: false, error: STORE_ERRORS.startsAt });
    const history = await call(server, 'GET', `/store/history?to=${Number.MAX_SAFE_INTEGER}`, { token: admin.token });
    expect(history.body).toEqual({ result: false, error: STORE_ERRORS.badTime });
    const page = await call(server, 'GET', `/store/items?page=${Number.MAX_SAFE_INTEGER}`, { token: admin.token });
    expect(page.body).toEqual({ result: false, error: STORE_ERRORS.badPage });
    const ledgerPage = await call(server, 'GET', `/points/transactions?page=${Number.MAX_SAFE_INTEGER}`, { token: admin.token });
    expect(ledgerPage.body).toEqual({ result: false, error: POINTS_ERRORS.badPage });
    const ledgerTime = await call(server, 'GET', `/points/transactions?from=${Number.MAX_SAFE_INTEGER}`, { token: admin.token });
    expect(ledgerTime.body).toEqual({ result: false, error: POINTS_ERRORS.badTime });
  });
});

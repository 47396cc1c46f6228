import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHttp } from '../../src/api/http';
import { createStoreApi, setReportDropped } from '../../src/api/store';
import { createStoreOfficeApi } from '../../src/api/store-office';

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

function item(itemId: number, overrides: Record<string, unknown> = {}) {
  return {
    itemId,
    itemName: `Item ${itemId}`,
    description: '',
    imageUrl: null,
    type: 'auction',
    state: 'scheduled',
    start_price: 10,
    minIncrement: 1,
    amount: 10,
    username: 'server',
    startsAt: 1_800_000_000_000,
    endsAt: 1_800_000_060_000,
    timer: 60,
    timestamp: 1_700_000_000_000,
    extendWindow: 0,
    maxExtensions: 0,
    extensions: 0,
    eligibility: {},
    ...overrides,
  };
}

/** The one REST core as the app makes it (its fetch is the stubbed global). */
const http = () => createHttp('http://kingdom.test/', { token: () => 'token', unauthorized: () => {} });

afterEach(() => {
  vi.unstubAllGlobals();
  setReportDropped(() => {});
});

describe('store lists are read item by item', () => {
  it('leaves out an item the contract does not match (an unsafe endsAt) and reports it, keeping the rest', async () => {
    const reports: [string, string[]][] = [];
    setReportDropped((what, dropped) => reports.push([what, dropped]));
    vi.stubGlobal('fetch', async () => json({ result: true, items: [item(1), item(2, { startsAt: 9007199254740991, endsAt: 9007199254740991 + 60_000 }), item(3)], page: 1, pageSize: 500, total: 3 }));
    const items = await createStoreApi(http()).listItems();
    expect(items.map((i) => i.itemId)).toEqual([1, 3]);
    expect(reports).toHaveLength(1);
    expect(reports[0][0]).toBe('store item(s)');
    expect(reports[0][1]).toEqual([expect.stringMatching(/^2 \((startsAt|endsAt): /)]);
  });

  it('reports nothing when every item is good', async () => {
    const reports: unknown[] = [];
    setReportDropped((...args) => reports.push(args));
    vi.stubGlobal('fetch', async () => json({ result: true, items: [item(1), item(2)], page: 1, pageSize: 500, total: 2 }));
    expect(await createStoreApi(http()).listItems()).toHaveLength(2);
    expect(reports).toEqual([]);
  });

  it('does the same for the sales history', async () => {
    const reports: [string, string[]][] = [];
    setReportDropped((what, dropped) => reports.push([what, dropped]));
    const sale = (itemId: number, at: unknown) => ({ itemId, itemName: 'x', username: 'alice', amount: 5, at });
    vi.stubGlobal('fetch', async () => json({ result: true, sales: [sale(1, 1), sale(2, 'soon'), sale(3, 3)], page: 1, pageSize: 50, total: 3 }));
    const answer = await createStoreOfficeApi(http()).myHistory();
    expect(answer.sales.map((s) => s.itemId)).toEqual([1, 3]);
    expect(reports.map(([what]) => what)).toEqual(['sale(s)']);
  });

  it('still refuses an answer whose list is not a list at all', async () => {
    vi.stubGlobal('fetch', async () => json({ result: true, items: 'nope', page: 1, pageSize: 500, total: 1 }));
    await expect(createStoreApi(http()).listItems()).rejects.toThrow();
  });
});

import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { ApiError } from '../../src/api/client';
import { answer, csvBlob, dayEnd, dayStart, params } from '../../src/api/rest';

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('the back-office REST helpers', () => {
  const schema = z.object({ result: z.literal(true), n: z.int() });

  it('returns an answer that fits its schema', async () => {
    await expect(answer(json({ result: true, n: 3 }), schema)).resolves.toEqual({ result: true, n: 3 });
  });

  it("throws the server's own text when it refuses", async () => {
    const refused = answer(json({ result: false, error: 'This would take the balance below the points reserved by leading bids.' }, 409), schema);
    await expect(refused).rejects.toThrow(new ApiError('This would take the balance below the points reserved by leading bids.', 409));
  });

  it('names the status when the answer is unreadable', async () => {
    await expect(answer(new Response('<html>', { status: 502, statusText: 'Bad Gateway' }), schema)).rejects.toThrow('502 Bad Gateway');
    await expect(answer(json({ result: true, n: 'x' }), schema)).rejects.toThrow('The server sent an answer this app cannot read.');
  });

  it('leaves empty filters out of the query', () => {
    expect(params({ username: '', kind: 'grant', actor: undefined, from: 0, to: null, page: 2 })).toEqual({ kind: 'grant', from: '0', page: '2' });
  });

  it('turns calendar days into an inclusive range of local epoch ms', () => {
    const from = dayStart('2026-03-01')!;
    const to = dayEnd('2026-03-01')!;
    expect(new Date(from).getHours()).toBe(0);
    expect(new Date(from).getDate()).toBe(1);
    expect(to - from).toBeGreaterThanOrEqual(23 * 3600_000 - 1); // a day, even across a clock change
    expect(new Date(to + 1).getDate()).toBe(2);
    expect(dayStart('')).toBeUndefined();
    expect(dayEnd('')).toBeUndefined();
  });

  it('reads a CSV download and its file name, or the refusal', async () => {
    const ok = new Response('a,b\n1,2\n', { headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="transactions-2026.csv"' } });
    const { blob, filename } = await csvBlob(ok);
    expect(filename).toBe('transactions-2026.csv');
    expect(await blob.text()).toBe('a,b\n1,2\n');
    await expect(csvBlob(json({ result: false, error: 'Forbidden for your rank.' }, 403))).rejects.toThrow('Forbidden for your rank.');
  });
});

import { once } from 'node:events';
import writeXlsxFile from 'write-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Invalid, Unavailable } from '../../server/errors';
import { WorkerPool } from '../../server/workers/pool';
import { HTTP_ERRORS } from '../../src/protocol/http';
import { bidCreated, bidder, createItem, sendBid } from './auction-helpers';
import { upload } from './back-office-helpers';
import { call, signedIn, startTestServer } from './helpers';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const STATS = ['Power', 'Killpoints', 'Deads', 'T1 Kills', 'T2 Kills', 'T3 Kills', 'T4 Kills', 'T5 Kills', 'Rss Gathered', 'Rss Assistance', 'Helps'];

let nextGovernor = 70_000_000;
/** A scanner's workbook: `governors` rows of 60 columns (the known ones, then columns the importer ignores). */
async function workbook(governors: number): Promise<Buffer> {
  const header = ['ID', 'Name', 'Alliance', ...STATS];
  while (header.length < 60) header.push(`Extra ${header.length}`);
  const rows: { value: string | number }[][] = [header.map((value) => ({ value }))];
  for (let g = 0; g < governors; g++) {
    const row: { value: string | number }[] = [{ value: nextGovernor++ }, { value: `Governor ${g}` }, { value: `A${g % 40}` }];
    for (let c = 3; c < 60; c++) row.push({ value: (g * 7919 + c * 104_729) % 1_000_000_000 });
    rows.push(row);
  }
  return writeXlsxFile(rows as never).toBuffer();
}

const csv = () => `ID,Name,Power\n${nextGovernor++},Small,1000\n`;

describe('scan files are read in a worker thread behind a bounded queue', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let admin: Awaited<ReturnType<typeof signedIn>>;
  let big: Buffer;
  beforeAll(async () => {
    // written before the server starts: a long write between two requests would find a kept-alive connection closed
    big = await workbook(8_000);
    // one thread, nothing waiting: a second file while one is read is refused at once
    server = await startTestServer({ fileReaders: { size: 1, maxQueue: 0, maxMemoryMb: 256 } });
    admin = await signedIn(server, 'admin');
  }, 60_000);
  afterAll(() => server.close());

  const preview = (bytes: string | Uint8Array, name: string) => upload(server, '/scans/preview', admin.token, bytes, name, name.endsWith('.xlsx') ? XLSX : 'text/csv');

  it('answers other requests and bids while a large workbook is read; a file over the queue is a 503 with a sentence; the queue goes on after', async () => {
    const player = await bidder(server, admin.token, 10_000, 'reader');
    const item = await createItem(server, admin.token);

    const order: string[] = [];
    const started = once(server.readers.events, 'start');
    const reading = preview(big, 'big.xlsx').then((answer) => {
      order.push('big preview');
      return answer;
    });
    const first = await Promise.race([started.then(() => 'a thread reads it'), reading.then(() => 'answered')]);
    expect(first, 'the workbook is read by a thread').toBe('a thread reads it');

    // everything below is answered while the workbook is still being read
    for (let i = 0; i < 5; i++) {
      const me = await call(server, 'POST', '/auth/me', { token: player.token });
      expect(me.status, me.text).toBe(200);
      order.push('rest');
    }
    const bid = bidCreated(player.auction, item.itemId, 100, player.username);
    sendBid(player.auction, item.itemId, 100);
    await bid;
    order.push('bid');
    const refused = await preview(csv(), 'small.csv');
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({ result: false, error: HTTP_ERRORS.readersBusy });
    const bulk = await upload(server, '/points/bulk/preview', admin.token, 'player,amount,reason\nreader,1,x\n', 'bulk.csv', 'text/csv');
    expect(bulk.status).toBe(503);
    expect(bulk.body).toEqual({ result: false, error: HTTP_ERRORS.readersBusy });
    order.push('busy');

    const answer = await reading;
    expect(answer.status, answer.text).toBe(200);
    const read = answer.body.preview as { valid: number; rows: number; columns: { found: { stat: string }[]; ignored: string[] } };
    expect(read.valid).toBe(8_000);
    expect(read.rows).toBe(8_000);
    expect(read.columns.found.map((c) => c.stat)).toContain('t5Kills');
    expect(read.columns.ignored).toHaveLength(60 - 3 - STATS.length);
    expect(order).toEqual(['rest', 'rest', 'rest', 'rest', 'rest', 'bid', 'busy', 'big preview']);

    // the thread is free again
    const after = await preview(csv(), 'after.csv');
    expect(after.status, after.text).toBe(200);
    expect(server.readers.pending).toBe(0);
  }, 180_000);

  it("a file's own refusal comes back from the thread as the same sentence", async () => {
    const answer = await preview('Name,Power\nNo id,1\n', 'no-id.csv');
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/governor id/);
  }, 60_000);
});

describe('a thread that runs out of memory', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let admin: Awaited<ReturnType<typeof signedIn>>;
  let huge: Buffer;
  beforeAll(async () => {
    // 60 governors whose names are 400,000 characters each: 24 MB of text a thread must keep (the sheet is
    // read as a stream, so rows of numbers fill a heap only slowly: 6,000 governors × 60 columns fit in 20 MB)
    const rows = [[{ value: 'ID' }, { value: 'Name' }]];
    for (let g = 0; g < 60; g++) rows.push([{ value: String(nextGovernor++) }, { value: `${g} ${'n'.repeat(400_000)}` }]);
    huge = await writeXlsxFile(rows as never).toBuffer();
    // enough heap to start a thread and read a small file, far too little for those names
    server = await startTestServer({ fileReaders: { size: 1, maxQueue: 2, maxMemoryMb: 20 } });
    admin = await signedIn(server, 'admin');
  }, 60_000);
  afterAll(() => server.close());

  it('refuses the file with a sentence (400), and the next file is read by a new thread', async () => {
    const answer = await upload(server, '/scans/preview', admin.token, huge, 'huge.xlsx', XLSX);
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body).toEqual({ result: false, error: HTTP_ERRORS.readOutOfMemory });
    const next = await upload(server, '/scans/preview', admin.token, csv(), 'next.csv', 'text/csv');
    expect(next.status, next.text).toBe(200);
  }, 180_000);
});

describe('the worker pool', () => {
  const pool = () =>
    new WorkerPool<{ do: 'answer' | 'refuse' | 'parts' | 'exit' | 'throw' }, string, number>({
      size: 1,
      maxQueue: 1,
      maxMemoryMb: 64,
      module: new URL('./fixtures/stopping-worker.ts', import.meta.url),
      refuse: { busy: () => new Unavailable('busy'), outOfMemory: () => new Invalid('too big'), stopped: () => new Unavailable('stopped') },
    });

  it('a thread that stops fails its job with the sentence, and the job behind it runs on a new thread', async () => {
    const workers = pool();
    try {
      const stopping = workers.run({ do: 'exit' });
      const behind = workers.run({ do: 'answer' });
      await expect(workers.run({ do: 'answer' })).rejects.toEqual(new Unavailable('busy'));
      await expect(stopping).rejects.toEqual(new Unavailable('stopped'));
      await expect(behind).resolves.toBe('done');
      expect(workers.pending).toBe(0);
    } finally {
      await workers.close();
    }
  }, 60_000);

  it("a domain refusal keeps its kind and sentence; parts come in order before the answer; closing fails what runs", async () => {
    const workers = pool();
    try {
      await expect(workers.run({ do: 'refuse' })).rejects.toEqual(new Invalid('This file is refused.'));
      await expect(workers.run({ do: 'throw' })).rejects.toThrow(/a bug/);
      const parts: number[] = [];
      await expect(workers.run({ do: 'parts' }, { onPart: (part) => parts.push(part) })).resolves.toBe('done');
      expect(parts).toEqual([1, 2, 3]);
      const started = once(workers.events, 'start');
      const running = workers.run({ do: 'parts' });
      await started;
      const failed = expect(running).rejects.toEqual(new Unavailable('stopped'));
      await workers.close();
      await failed;
    } finally {
      await workers.close();
    }
  }, 60_000);
});

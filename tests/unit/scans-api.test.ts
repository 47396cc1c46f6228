import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/api/client';
import { createHttp } from '../../src/api/http';
import { createScansApi, type UploadProgress } from '../../src/api/scans';

/** A scripted XMLHttpRequest: records what is sent, then plays upload progress and an answer. */
class FakeXhr {
  static last: FakeXhr | undefined;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  status = 0;
  responseText = '';
  timeout = 0;
  upload: { onprogress?: (e: { lengthComputable: boolean; loaded: number; total: number }) => void; onload?: () => void } = {};
  onload?: () => void;
  onerror?: () => void;
  ontimeout?: () => void;
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.body = body;
  }
  /** Sends the bytes in steps, then answers. */
  play(status: number, body: unknown) {
    for (const loaded of [0, 2_500, 5_000]) this.upload.onprogress?.({ lengthComputable: true, loaded, total: 5_000 });
    this.upload.onload?.();
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
  FakeXhr.last = undefined;
});

/** The scans API on the one REST core, signed in as "tok"; counts the 401s it reports. */
function scansApi() {
  const session = { signedOut: 0 };
  const http = createHttp('http://api.test/', { token: () => 'tok', unauthorized: () => session.signedOut++ });
  return { api: createScansApi(http), session };
}

/** ky runs its hooks before the request leaves: the XHR opens a moment after the call. */
async function sent(): Promise<FakeXhr> {
  await vi.waitFor(() => expect(FakeXhr.last).toBeDefined());
  return FakeXhr.last!;
}

const preview = {
  token: 't1',
  fileName: 'TOP300-2025-12-29-3328-[x].csv',
  sheet: null,
  takenAt: Date.UTC(2025, 11, 29),
  takenAtFrom: 'file-name',
  kind: 'kingdom',
  rows: 5000,
  valid: 5000,
  previousScan: null,
  columns: { found: [{ header: 'ID', stat: 'governorId' }], ignored: [] },
  governors: { new: [], renamed: [], changedAlliance: [] },
  errors: [],
  warnings: [],
};

describe('scan preview upload', () => {
  it('reports the bytes sent, then "reading" until the answer; takenAt goes before the file; the bearer token is sent', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const seen: UploadProgress[] = [];
    const file = new File(['ID\n1\n'], 'scan.csv', { type: 'text/csv' });
    const answer = scansApi().api.preview(file, Date.UTC(2025, 0, 2), (p) => seen.push(p));
    const xhr = await sent();
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('http://api.test/scans/preview');
    expect(xhr.headers.Authorization).toBe('Bearer tok');
    expect([...xhr.body!.keys()]).toEqual(['takenAt', 'file']);
    expect(xhr.body!.get('takenAt')).toBe(String(Date.UTC(2025, 0, 2)));
    xhr.play(200, { result: true, preview });
    await expect(answer).resolves.toMatchObject({ token: 't1', rows: 5000 });
    expect(seen).toEqual([
      { phase: 'sending', fraction: 0 },
      { phase: 'sending', fraction: 0 },
      { phase: 'sending', fraction: 0.5 },
      { phase: 'sending', fraction: 1 },
      { phase: 'reading' },
    ]);
  });

  it('no takenAt: only the file is sent', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    void scansApi().api.preview(new File(['x'], 'a.csv'), null).catch(() => undefined);
    expect([...(await sent()).body!.keys()]).toEqual(['file']);
  });

  it("a refusal carries the server's text and status (the same file twice names its scan)", async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const answer = scansApi().api.preview(new File(['x'], 'a.csv'), null);
    const text = 'This file was already imported: it is scan #3 of 2025-12-29T00:00:00.000Z. Nothing was imported.';
    (await sent()).play(409, { result: false, error: text });
    const error = await answer.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe(text);
    expect((error as ApiError).status).toBe(409);
  });

  it('a 401 on the upload signs out the same way as any other call (the REST core sees it)', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const { api, session } = scansApi();
    const answer = api.preview(new File(['x'], 'a.csv'), null);
    (await sent()).play(401, { result: false, error: 'Your session has ended.' });
    await expect(answer).rejects.toThrow('Your session has ended.');
    expect(session.signedOut).toBe(1);
  });

  it('an answer that is not a preview is an error, not a preview', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const answer = scansApi().api.preview(new File(['x'], 'a.csv'), null);
    (await sent()).play(200, { result: true, preview: { token: 1 } });
    await expect(answer).rejects.toThrow('The server sent an answer this app cannot read.');
  });
});

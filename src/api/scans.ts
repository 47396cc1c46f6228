import * as z from 'zod/mini';
import {
  allianceRow,
  governorDetail,
  governorRow,
  kingdomSummary,
  playerLink,
  scan,
  scanPreview,
  series,
  type AllianceRow,
  type GovernorDetail,
  type GovernorRow,
  type GovernorSort,
  type GovernorsFilter,
  type KingdomSummary,
  type MetricScope,
  type PlayerLink,
  type Scan,
  type ScanPreview,
  type Series,
} from '../protocol/scans';
import { ApiError } from './client';
import { answer, bearer, csvBlob, params, restClient } from './rest';

/** Governors and scans (DESIGN.md, "Governors and scans"): import, list, the kingdom's numbers, a governor's history, series. */
export type { AllianceRow, GovernorDetail, GovernorRow, GovernorSort, KingdomSummary, MetricScope, PlayerLink, Scan, ScanPreview, Series };

const previewAnswer = z.object({ result: z.literal(true), preview: scanPreview });
const applyAnswer = z.object({ result: z.literal(true), scan });
const scansAnswer = z.object({ result: z.literal(true), scans: z.array(scan), total: z.int(), page: z.int(), pageSize: z.int() });
const okAnswer = z.object({ result: z.literal(true) });
const summaryAnswer = z.object({ result: z.literal(true), ...kingdomSummary.shape });
const governorsAnswer = z.object({
  result: z.literal(true),
  scan: z.nullable(scan),
  compare: z.nullable(scan),
  total: z.int(),
  page: z.int(),
  pageSize: z.int(),
  governors: z.array(governorRow),
});
const governorAnswer = z.object({ result: z.literal(true), governor: governorDetail });
const alliancesAnswer = z.object({ result: z.literal(true), scan: z.nullable(scan), alliances: z.array(allianceRow) });
const seriesAnswer = z.object({ result: z.literal(true), ...series.shape });
const failure = z.object({ result: z.literal(false), error: z.string() });
const allianceSaved = z.object({ result: z.literal(true), alliance: z.object({ tag: z.string(), name: z.string(), ours: z.boolean() }) });
const linksAnswer = z.object({ result: z.literal(true), total: z.int(), page: z.int(), pageSize: z.int(), links: z.array(playerLink) });
const linkAnswer = z.object({ result: z.literal(true), link: playerLink });

export type GovernorsPage = z.infer<typeof governorsAnswer>;

/** The governors table's query (GET /governors and /governors.csv): the protocol's filters, the page aside. */
export type GovernorFilters = Omit<GovernorsFilter, 'page' | 'pageSize'>;

/** Where an upload stands: bytes sent (0..1), then "reading" until the server answers. */
export type UploadProgress = { phase: 'sending'; fraction: number } | { phase: 'reading' };

/** An HTTP error that carries the status (a 404 "never scanned" reads differently from a failure). */
export class StatusError extends ApiError {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

const filterParams = (f: GovernorFilters) =>
  params({ scan: f.scan, compare: f.compare, alliance: f.alliance?.trim(), q: f.q?.trim(), sort: f.sort, order: f.order, gain: f.gain ? 1 : undefined });

export interface ScansApi {
  preview(token: string, file: File, takenAt: number | null, onProgress?: (p: UploadProgress) => void): Promise<ScanPreview>;
  apply(token: string, body: { token: string; takenAt?: number; skipInvalid?: boolean }): Promise<Scan>;
  list(token: string, page?: number): Promise<z.infer<typeof scansAnswer>>;
  remove(token: string, scanId: number): Promise<void>;
  summary(token: string, scanId?: number, compare?: number): Promise<KingdomSummary>;
  governors(token: string, filters: GovernorFilters, page: number, pageSize: number): Promise<GovernorsPage>;
  governorsCsv(token: string, filters: GovernorFilters): Promise<{ blob: Blob; filename: string | null }>;
  governor(token: string, governorId: number): Promise<GovernorDetail>;
  alliances(token: string, scanId?: number): Promise<AllianceRow[]>;
  saveAlliance(token: string, tag: string, body: { name?: string; ours?: boolean }): Promise<{ tag: string; name: string; ours: boolean }>;
  playerIds(token: string, q: string, page: number): Promise<z.infer<typeof linksAnswer>>;
  link(token: string, governorId: number, body: { username: string; verified?: boolean }): Promise<PlayerLink>;
  unlink(token: string, governorId: number): Promise<void>;
  series(token: string, scope: MetricScope, key: string | undefined, stats: readonly string[]): Promise<Series>;
}

/**
 * The preview is sent with XMLHttpRequest, not fetch: only XHR reports upload progress, and a
 * 5,000-row file should show it. Once the bytes are sent the server reads the file: "reading".
 */
function uploadWithProgress(url: string, token: string, form: FormData, onProgress?: (p: UploadProgress) => void): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.timeout = 180_000;
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress?.({ phase: 'sending', fraction: e.total === 0 ? 1 : e.loaded / e.total });
    };
    xhr.upload.onload = () => onProgress?.({ phase: 'reading' });
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => reject(new ApiError('The file could not be sent: check the connection and try again.'));
    xhr.ontimeout = () => reject(new ApiError('The server took too long to read the file.'));
    onProgress?.({ phase: 'sending', fraction: 0 });
    xhr.send(form);
  });
}

export function createScansApi(baseUrl: string): ScansApi {
  const client = restClient(baseUrl);
  return {
    async preview(token, file, takenAt, onProgress) {
      const form = new FormData();
      // the server reads fields before the file: takenAt goes first
      if (takenAt !== null) form.append('takenAt', String(takenAt));
      form.append('file', file, file.name);
      const { status, body } = await uploadWithProgress(`${baseUrl}scans/preview`, token, form, onProgress);
      const ok = previewAnswer.safeParse(body);
      if (ok.success && status < 400) return ok.data.preview;
      const bad = failure.safeParse(body);
      throw new StatusError(bad.success ? bad.data.error : status < 400 ? 'The server sent an answer this app cannot read.' : `${status}`, status);
    },
    async apply(token, body) {
      return (await answer(await client.post('scans/apply', { headers: bearer(token), json: body, timeout: 120_000 }), applyAnswer)).scan;
    },
    async list(token, page = 1) {
      return answer(await client.get('scans', { headers: bearer(token), searchParams: { page: String(page) } }), scansAnswer);
    },
    async remove(token, scanId) {
      await answer(await client.delete(`scans/${scanId}`, { headers: bearer(token), timeout: 60_000 }), okAnswer);
    },
    async summary(token, scanId, compare) {
      const { result: _, ...summary } = await answer(await client.get('kingdom/summary', { headers: bearer(token), searchParams: params({ scan: scanId, compare }) }), summaryAnswer);
      return summary;
    },
    async governors(token, filters, page, pageSize) {
      return answer(
        await client.get('governors', { headers: bearer(token), searchParams: { ...filterParams(filters), page: String(page), pageSize: String(pageSize) } }),
        governorsAnswer,
      );
    },
    async governorsCsv(token, filters) {
      return csvBlob(await client.get('governors.csv', { headers: bearer(token), searchParams: filterParams(filters), timeout: 120_000 }));
    },
    async governor(token, governorId) {
      const response = await client.get(`governors/${governorId}`, { headers: bearer(token) });
      try {
        return (await answer(response, governorAnswer)).governor;
      } catch (error) {
        throw new StatusError((error as Error).message, response.status);
      }
    },
    async alliances(token, scanId) {
      return (await answer(await client.get('alliances', { headers: bearer(token), searchParams: params({ scan: scanId }) }), alliancesAnswer)).alliances;
    },
    async saveAlliance(token, tag, body) {
      return (await answer(await client.put(`alliances/${encodeURIComponent(tag)}`, { headers: bearer(token), json: body }), allianceSaved)).alliance;
    },
    async playerIds(token, q, page) {
      return answer(await client.get('player-ids', { headers: bearer(token), searchParams: params({ q: q.trim() || undefined, page }) }), linksAnswer);
    },
    async link(token, governorId, body) {
      return (await answer(await client.put(`player-ids/${governorId}`, { headers: bearer(token), json: body }), linkAnswer)).link;
    },
    async unlink(token, governorId) {
      await answer(await client.delete(`player-ids/${governorId}`, { headers: bearer(token) }), okAnswer);
    },
    async series(token, scope, key, stats) {
      const { result: _, ...s } = await answer(
        await client.get('metrics/series', { headers: bearer(token), searchParams: params({ scope, key, stats: stats.join(',') }) }),
        seriesAnswer,
      );
      return s;
    },
  };
}

let instance: ScansApi | undefined;
/** Made on first use by the (lazy) statistics pages, so the sign-in bundle does not carry it. */
export function scansApi(baseUrl: () => string): ScansApi {
  instance ??= createScansApi(baseUrl());
  return instance;
}

import * as z from 'zod/mini';
import {
  allianceRow,
  governorDetail,
  governorRow,
  kingdomSummary,
  ownGovernor,
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
  type OwnGovernor,
  type PlayerLink,
  type Scan,
  type ScanPreview,
  type Series,
} from '../protocol/scans';
import { ApiError } from './client';
import { TimeoutError, type KyInstance } from 'ky';
import { answer, csvBlob, params, type ExportFile } from './rest';

/** Governors and scans: import, list, the kingdom's numbers, a governor's history, series. */
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
const ownGovernorsAnswer = z.object({ result: z.literal(true), governors: z.array(ownGovernor) });
const alliancesAnswer = z.object({ result: z.literal(true), scan: z.nullable(scan), alliances: z.array(allianceRow), unaffiliated: z.nullable(allianceRow) });
const seriesAnswer = z.object({ result: z.literal(true), ...series.shape });
const allianceSaved = z.object({ result: z.literal(true), alliance: z.object({ tag: z.string(), name: z.string(), ours: z.boolean() }) });
const linksAnswer = z.object({ result: z.literal(true), total: z.int(), page: z.int(), pageSize: z.int(), links: z.array(playerLink) });
const linkAnswer = z.object({ result: z.literal(true), link: playerLink });

export type GovernorsPage = z.infer<typeof governorsAnswer>;

/** The governors table's query (GET /governors and /governors.csv): the protocol's filters, the page aside. */
export type GovernorFilters = Omit<GovernorsFilter, 'page' | 'pageSize'>;

/** Where an upload stands: bytes sent (0..1), then "reading" until the server answers. */
export type UploadProgress = { phase: 'sending'; fraction: number } | { phase: 'reading' };

const filterParams = (f: GovernorFilters) =>
  params({ scan: f.scan, compare: f.compare, alliance: f.alliance?.trim(), q: f.q?.trim(), sort: f.sort, order: f.order, gain: f.gain ? 1 : undefined });

export interface ScansApi {
  preview(file: File, takenAt: number | null, onProgress?: (p: UploadProgress) => void): Promise<ScanPreview>;
  apply(body: { token: string; takenAt?: number; skipInvalid?: boolean }): Promise<Scan>;
  /** The preview at another time, compared again with the scan before it (POST scans/preview/compare). */
  compare(token: string, takenAt: number): Promise<ScanPreview>;
  list(page?: number): Promise<z.infer<typeof scansAnswer>>;
  remove(scanId: number): Promise<void>;
  /** A scan's date corrected (PATCH scans/:scanId); a 409 names paid automatic points it would make overlap, `confirm` saves anyway. */
  redate(scanId: number, takenAt: number, confirm: boolean): Promise<Scan>;
  summary(scanId?: number, compare?: number): Promise<KingdomSummary>;
  governors(filters: GovernorFilters, page: number, pageSize: number): Promise<GovernorsPage>;
  governorsFile(filters: GovernorFilters, file: ExportFile): Promise<{ blob: Blob; filename: string | null }>;
  governor(governorId: number): Promise<GovernorDetail>;
  /** The signed-in account's governors, main first (GET governors/mine). */
  ownGovernors(): Promise<OwnGovernor[]>;
  alliances(scanId?: number): Promise<AllianceRow[]>;
  /** The alliances of a scan and, apart, the sums of its governors in no alliance. */
  allianceSums(scanId?: number): Promise<{ alliances: AllianceRow[]; unaffiliated: AllianceRow | null }>;
  saveAlliance(tag: string, body: { name?: string; ours?: boolean }): Promise<{ tag: string; name: string; ours: boolean }>;
  playerIds(q: string, page: number): Promise<z.infer<typeof linksAnswer>>;
  link(governorId: number, body: { username: string; verified?: boolean }): Promise<PlayerLink>;
  unlink(governorId: number): Promise<void>;
  series(scope: MetricScope, key: string | undefined, stats: readonly string[]): Promise<Series>;
}

/**
 * The preview is sent with XMLHttpRequest, not fetch: only XHR reports upload progress, and a
 * 5,000-row file should show it. It is still a call of the one REST core: ky runs its hooks (the
 * token, the 401 report) and hands the prepared request to this `fetch`, which sends the form
 * with XHR and answers with a Response. Once the bytes are sent the server reads the file: "reading".
 */
function xhrFetch(form: FormData, onProgress?: (p: UploadProgress) => void) {
  return (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', request.url);
      const authorization = request.headers.get('Authorization');
      if (authorization) xhr.setRequestHeader('Authorization', authorization);
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable) onProgress?.({ phase: 'sending', fraction: e.total === 0 ? 1 : e.loaded / e.total });
      };
      xhr.upload.onload = () => onProgress?.({ phase: 'reading' });
      xhr.onload = () => resolve(new Response(xhr.responseText, { status: xhr.status, headers: { 'content-type': 'application/json' } }));
      xhr.onerror = () => reject(new ApiError('The file could not be sent: check the connection and try again.'));
      request.signal?.addEventListener('abort', () => {
        xhr.abort();
        reject(new ApiError('The server took too long to read the file.'));
      });
      onProgress?.({ phase: 'sending', fraction: 0 });
      xhr.send(form);
    });
  };
}

/** A scan file is read on the server while the browser waits: minutes for a large one. */
const PREVIEW_TIMEOUT_MS = 180_000;

export function createScansApi(client: KyInstance): ScansApi {
  const allianceSums = async (scanId?: number) => {
    const { alliances, unaffiliated } = await answer(await client.get('alliances', { searchParams: params({ scan: scanId }) }), alliancesAnswer);
    return { alliances, unaffiliated };
  };
  return {
    async preview(file, takenAt, onProgress) {
      const form = new FormData();
      // takenAt goes first (the server reads a field before or after the file alike)
      if (takenAt !== null) form.append('takenAt', String(takenAt));
      form.append('file', file, file.name);
      const response = await client
        .post('scans/preview', { body: form, timeout: PREVIEW_TIMEOUT_MS, fetch: xhrFetch(form, onProgress) })
        .catch((error: unknown) => {
          throw error instanceof TimeoutError ? new ApiError('The server took too long to read the file.') : error;
        });
      return (await answer(response, previewAnswer)).preview;
    },
    async apply(body) {
      return (await answer(await client.post('scans/apply', { json: body, timeout: 120_000 }), applyAnswer)).scan;
    },
    async compare(token, takenAt) {
      return (await answer(await client.post('scans/preview/compare', { json: { token, takenAt }, timeout: 60_000 }), previewAnswer)).preview;
    },
    async list(page = 1) {
      return answer(await client.get('scans', { searchParams: { page: String(page) } }), scansAnswer);
    },
    async remove(scanId) {
      await answer(await client.delete(`scans/${scanId}`, { timeout: 60_000 }), okAnswer);
    },
    async redate(scanId, takenAt, confirm) {
      return (await answer(await client.patch(`scans/${scanId}`, { json: { takenAt, ...(confirm ? { confirm } : {}) }, timeout: 60_000 }), applyAnswer)).scan;
    },
    async summary(scanId, compare) {
      const { result: _, ...summary } = await answer(await client.get('kingdom/summary', { searchParams: params({ scan: scanId, compare }) }), summaryAnswer);
      return summary;
    },
    async governors(filters, page, pageSize) {
      return answer(
        await client.get('governors', { searchParams: { ...filterParams(filters), page: String(page), pageSize: String(pageSize) } }),
        governorsAnswer,
      );
    },
    async governorsFile(filters, file) {
      return csvBlob(await client.get(`governors.${file.format}`, { searchParams: { ...filterParams(filters), lang: file.lang }, timeout: 120_000 }));
    },
    async governor(governorId) {
      return (await answer(await client.get(`governors/${governorId}`), governorAnswer)).governor;
    },
    async ownGovernors() {
      return (await answer(await client.get('governors/mine'), ownGovernorsAnswer)).governors;
    },
    async alliances(scanId) {
      return (await allianceSums(scanId)).alliances;
    },
    allianceSums,
    async saveAlliance(tag, body) {
      return (await answer(await client.put(`alliances/${encodeURIComponent(tag)}`, { json: body }), allianceSaved)).alliance;
    },
    async playerIds(q, page) {
      return answer(await client.get('player-ids', { searchParams: params({ q: q.trim() || undefined, page }) }), linksAnswer);
    },
    async link(governorId, body) {
      return (await answer(await client.put(`player-ids/${governorId}`, { json: body }), linkAnswer)).link;
    },
    async unlink(governorId) {
      await answer(await client.delete(`player-ids/${governorId}`), okAnswer);
    },
    async series(scope, key, stats) {
      const { result: _, ...s } = await answer(
        await client.get('metrics/series', { searchParams: params({ scope, key, stats: stats.join(',') }) }),
        seriesAnswer,
      );
      return s;
    },
  };
}

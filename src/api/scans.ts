import {
  type GovernorDetail,
  type GovernorRow,
  type GovernorSort,
  type GovernorsFilter,
  type KingdomSummary,
  type Scan,
  type ScanPreview,
} from '../protocol/scans';
import {
  SCANS_API,
  scanPreviewAnswer,
  type AllianceRow,
  type MetricScope,
  type OwnGovernor,
  type PlayerLink,
  type Series,
} from '../protocol/scans-api';
import type { AnswerOf } from '../protocol/endpoint';
import { ApiError } from './client';
import { TimeoutError, type KyInstance } from 'ky';
import { call, keyOf, scopeOf } from './contract';
import { answer, csvBlob, params, type ExportFile } from './rest';

/** Governors and scans: import, list, the kingdom's numbers, a governor's history, series. */
export type { AllianceRow, GovernorDetail, GovernorRow, GovernorSort, KingdomSummary, MetricScope, PlayerLink, Scan, ScanPreview, Series };

export type GovernorsPage = AnswerOf<typeof SCANS_API.governors>;
export type ScansPage = AnswerOf<typeof SCANS_API.list>;
export type PlayerLinksPage = AnswerOf<typeof SCANS_API.playerIds>;

/** The governors table's query (GET /governors and /governors.csv): the protocol's filters, the page aside. */
export type GovernorFilters = Omit<GovernorsFilter, 'page' | 'pageSize'>;

/** Where an upload stands: bytes sent (0..1), then "reading" until the server answers. */
export type UploadProgress = { phase: 'sending'; fraction: number } | { phase: 'reading' };

const filterParams = (f: GovernorFilters) =>
  params({ scan: f.scan, compare: f.compare, alliance: f.alliance?.trim(), q: f.q?.trim(), sort: f.sort, order: f.order, gain: f.gain ? 1 : undefined });
const seriesParams = (scope: MetricScope, key: string | undefined, stats: readonly string[]) => params({ scope, key, stats: stats.join(',') });
const playerIdsParams = (q: string, page: number) => params({ q: q.trim() || undefined, page });

export interface ScansApi {
  preview(file: File, takenAt: number | null, onProgress?: (p: UploadProgress) => void): Promise<ScanPreview>;
  apply(body: { token: string; takenAt?: number; skipInvalid?: boolean }): Promise<Scan>;
  /** The preview at another time, compared again with the scan before it (POST scans/preview/compare). */
  compare(token: string, takenAt: number): Promise<ScanPreview>;
  list(page?: number): Promise<ScansPage>;
  remove(scanId: number): Promise<void>;
  /** A scan's date corrected (PATCH scans/:scanId); a 409 names paid automatic points it would make overlap, `confirm` saves anyway. */
  redate(scanId: number, takenAt: number, confirm: boolean): Promise<Scan>;
  summary(scanId?: number, compare?: number): Promise<KingdomSummary>;
  governors(filters: GovernorFilters, page: number, pageSize: number): Promise<GovernorsPage>;
  governorsFile(filters: GovernorFilters, file: ExportFile): Promise<{ blob: Blob; filename: string | null }>;
  governor(governorId: number): Promise<GovernorDetail>;
  /** The signed-in account's governors, main first (GET governors/mine). */
  ownGovernors(): Promise<OwnGovernor[]>;
  /** The alliances of a scan and, apart, the sums of its governors in no alliance. */
  allianceSums(scanId?: number): Promise<{ alliances: AllianceRow[]; unaffiliated: AllianceRow | null }>;
  saveAlliance(tag: string, body: { name?: string; ours?: boolean }): Promise<{ tag: string; name: string; ours: boolean }>;
  playerIds(q: string, page: number): Promise<PlayerLinksPage>;
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
  return {
    async preview(file, takenAt, onProgress) {
      const form = new FormData();
      // takenAt goes first (the server reads a field before or after the file alike)
      if (takenAt !== null) form.append('takenAt', String(takenAt));
      form.append('file', file, file.name);
      // a multipart upload, route-owned on the server: no contract to call through
      const response = await client
        .post('scans/preview', { body: form, timeout: PREVIEW_TIMEOUT_MS, fetch: xhrFetch(form, onProgress) })
        .catch((error: unknown) => {
          throw error instanceof TimeoutError ? new ApiError('The server took too long to read the file.') : error;
        });
      return (await answer(response, scanPreviewAnswer)).preview;
    },
    apply: async (body) => (await call(client, SCANS_API.apply, { body }, { timeout: 120_000 })).scan,
    async compare(token, takenAt) {
      // route-owned on the server (its answer is written a slice at a time), read with the preview's answer schema
      return (await answer(await client.post('scans/preview/compare', { json: { token, takenAt }, timeout: 60_000 }), scanPreviewAnswer)).preview;
    },
    list: (page = 1) => call(client, SCANS_API.list, { query: { page } }),
    remove: async (scanId) => void (await call(client, SCANS_API.remove, { params: { scanId } }, { timeout: 60_000 })),
    redate: async (scanId, takenAt, confirm) =>
      (await call(client, SCANS_API.redate, { params: { scanId }, body: { takenAt, ...(confirm ? { confirm } : {}) } }, { timeout: 60_000 })).scan,
    async summary(scanId, compare) {
      const { result: _, ...summary } = await call(client, SCANS_API.summary, { query: { scan: scanId, compare } });
      return summary;
    },
    governors: (filters, page, pageSize) => call(client, SCANS_API.governors, { query: { ...filterParams(filters), page, pageSize } }),
    async governorsFile(filters, file) {
      // CSV or XLSX, not JSON: route-owned on the server
      return csvBlob(await client.get(`governors.${file.format}`, { searchParams: { ...filterParams(filters), lang: file.lang }, timeout: 120_000 }));
    },
    governor: async (governorId) => (await call(client, SCANS_API.governor, { params: { governorId } })).governor,
    ownGovernors: async () => (await call(client, SCANS_API.ownGovernors)).governors,
    async allianceSums(scanId) {
      const { alliances, unaffiliated } = await call(client, SCANS_API.alliances, { query: { scan: scanId } });
      return { alliances, unaffiliated };
    },
    saveAlliance: async (tag, body) => (await call(client, SCANS_API.saveAlliance, { params: { tag }, body })).alliance,
    playerIds: (q, page) => call(client, SCANS_API.playerIds, { query: playerIdsParams(q, page) }),
    link: async (governorId, body) => (await call(client, SCANS_API.link, { params: { governorId }, body })).link,
    unlink: async (governorId) => void (await call(client, SCANS_API.unlink, { params: { governorId } })),
    async series(scope, key, stats) {
      const { result: _, ...s } = await call(client, SCANS_API.series, { query: seriesParams(scope, key, stats) });
      return s;
    },
  };
}

/** The scans' query keys: the scans list and a preview's compare; a scan's change refreshes `all` and `statsKeys.all`. */
export const scansKeys = {
  all: scopeOf(SCANS_API.list),
  list: (page: number) => keyOf(SCANS_API.list, { query: { page } }),
  /** A preview compared at another time (route-owned, so spelled here, under the scans' key). */
  compare: (token: string, takenAt: number | null) => ['scans', 'preview', 'compare', { token, takenAt }] as const,
} as const;

/** The numbers scans feed (summary, governors, alliances, series): every key under `all`, what an import or a scan's change refreshes. */
const stats = (key: readonly unknown[]): readonly unknown[] => ['stats', ...key];
export const statsKeys = {
  all: ['stats'] as const,
  summary: (scan?: number, compare?: number) => stats(keyOf(SCANS_API.summary, { query: { scan, compare } })),
  /** One page of governors. */
  governors: (filters: GovernorFilters, page: number, pageSize: number) => stats(keyOf(SCANS_API.governors, { query: { ...filterParams(filters), page, pageSize } })),
  /** The governors table's pages, loaded as it scrolls (an infinite query: its own key, without a page). */
  governorPages: (filters: GovernorFilters, pageSize: number) => [...stats(keyOf(SCANS_API.governors, { query: { ...filterParams(filters), pageSize } })), 'pages'] as const,
  governor: (governorId: number) => stats(keyOf(SCANS_API.governor, { params: { governorId } })),
  ownGovernors: stats(keyOf(SCANS_API.ownGovernors)),
  /** A scan's alliances and the unaffiliated sums (allianceSums). */
  alliances: (scan?: number) => stats(keyOf(SCANS_API.alliances, { query: { scan } })),
  /** Every scan's alliances: what naming an alliance refreshes. */
  alliancesAll: stats(keyOf(SCANS_API.alliances)),
  series: (scope: MetricScope, key: string | undefined, statNames: readonly string[]) => stats(keyOf(SCANS_API.series, { query: seriesParams(scope, key, statNames) })),
} as const;

/** The player ids page's keys: a link's change refreshes `all`. */
export const playerIdsKeys = {
  all: keyOf(SCANS_API.playerIds),
  page: (q: string, page: number) => keyOf(SCANS_API.playerIds, { query: playerIdsParams(q, page) }),
} as const;

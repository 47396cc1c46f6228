import type { KyInstance } from 'ky';
import {
  KVK_API,
  type AllianceTotal,
  type Arrival,
  type Bracket,
  type KvkStatus,
  type KvkWindow,
  type Mark,
  type MarkBody,
  type MarkRow,
  type MyKvk,
  type Season,
  type SeasonBody,
  type Standing,
  type StandingSort,
  type StandingsAnswer,
  type Weights,
} from '../protocol/kvk';
import { call, keyOf, scopeOf } from './contract';
import { csvBlob, params, type ExportFile } from './rest';

/** KvK: seasons, their standings and marks, and the caller's own progress. The server computes every figure. */
export type { AllianceTotal, Arrival, Bracket, KvkStatus, KvkWindow, Mark, MarkBody, MarkRow, MyKvk, Season, SeasonBody, Standing, StandingSort, StandingsAnswer, Weights };

/** The standings' query, the page aside: a window by name ("" for the whole season), filters, sort. */
export interface StandingsFilters {
  window?: string;
  alliance?: string;
  q?: string;
  status?: KvkStatus | '';
  sort?: StandingSort;
  order?: 'asc' | 'desc';
}

const filterParams = (f: StandingsFilters) => params({ window: f.window, alliance: f.alliance?.trim(), q: f.q?.trim(), status: f.status, sort: f.sort, order: f.order });
const standingsQuery = (f: StandingsFilters, page: number, pageSize: number) => ({ ...filterParams(f), page, pageSize });

export interface KvkApi {
  seasons(): Promise<Season[]>;
  create(body: SeasonBody): Promise<Season>;
  update(id: number, body: SeasonBody): Promise<Season>;
  standings(id: number, filters: StandingsFilters, page: number, pageSize: number): Promise<StandingsAnswer>;
  standingsFile(id: number, filters: StandingsFilters, file: ExportFile): Promise<{ blob: Blob; filename: string | null }>;
  marks(id: number): Promise<MarkRow[]>;
  mark(id: number, governorId: number, body: MarkBody): Promise<MarkRow>;
  unmark(id: number, governorId: number): Promise<void>;
  me(): Promise<MyKvk>;
}

export function createKvkApi(http: KyInstance): KvkApi {
  return {
    seasons: async () => (await call(http, KVK_API.seasons)).seasons,
    create: async (body) => (await call(http, KVK_API.create, { body })).season,
    update: async (id, body) => (await call(http, KVK_API.update, { params: { id }, body })).season,
    standings: (id, filters, page, pageSize) => call(http, KVK_API.standings, { params: { id }, query: standingsQuery(filters, page, pageSize) }),
    async standingsFile(id, filters, file) {
      return csvBlob(await http.get(`kvk/seasons/${id}/standings.${file.format}`, { searchParams: { ...filterParams(filters), lang: file.lang }, timeout: 120_000 }));
    },
    marks: async (id) => (await call(http, KVK_API.marks, { params: { id } })).marks,
    mark: async (id, governorId, body) => (await call(http, KVK_API.mark, { params: { id, governorId }, body })).mark,
    unmark: async (id, governorId) => void (await call(http, KVK_API.unmark, { params: { id, governorId } })),
    me: () => call(http, KVK_API.me),
  };
}

/** KvK's query keys: a page reads and invalidates these, never a key of its own. */
export const kvkKeys = {
  /** Everything KvK: what a season's or a mark's change refreshes. */
  all: scopeOf(KVK_API.seasons),
  seasons: keyOf(KVK_API.seasons),
  /** A page of a season's standings (season 0 while none is chosen: the query waits). */
  standings: (id: number | undefined, filters: StandingsFilters, page: number, pageSize: number) => keyOf(KVK_API.standings, { params: { id: id ?? 0 }, query: standingsQuery(filters, page, pageSize) }),
  marks: (id: number) => keyOf(KVK_API.marks, { params: { id } }),
  me: keyOf(KVK_API.me),
} as const;

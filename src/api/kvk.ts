import type { KyInstance } from 'ky';
import * as z from 'zod/mini';
import {
  markRow,
  myKvkAnswer,
  season,
  standingsAnswer,
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
import { answer, csvBlob, params, type ExportFile } from './rest';

/** KvK: seasons, their standings and marks, and the caller's own progress. The server computes every figure. */
export type { AllianceTotal, Arrival, Bracket, KvkStatus, KvkWindow, Mark, MarkBody, MarkRow, MyKvk, Season, SeasonBody, Standing, StandingSort, StandingsAnswer, Weights };

const seasonsAnswer = z.object({ result: z.literal(true), seasons: z.array(season) });
const seasonAnswer = z.object({ result: z.literal(true), season });
const marksAnswer = z.object({ result: z.literal(true), marks: z.array(markRow) });
const markAnswer = z.object({ result: z.literal(true), mark: markRow });
const okAnswer = z.object({ result: z.literal(true) });

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
  const s = (id: number) => `kvk/seasons/${id}`;
  return {
    async seasons() {
      return (await answer(await http.get('kvk/seasons'), seasonsAnswer)).seasons;
    },
    async create(body) {
      return (await answer(await http.post('kvk/seasons', { json: body }), seasonAnswer)).season;
    },
    async update(id, body) {
      return (await answer(await http.put(s(id), { json: body }), seasonAnswer)).season;
    },
    async standings(id, filters, page, pageSize) {
      return answer(await http.get(`${s(id)}/standings`, { searchParams: { ...filterParams(filters), page: String(page), pageSize: String(pageSize) } }), standingsAnswer);
    },
    async standingsFile(id, filters, file) {
      return csvBlob(await http.get(`${s(id)}/standings.${file.format}`, { searchParams: { ...filterParams(filters), lang: file.lang }, timeout: 120_000 }));
    },
    async marks(id) {
      return (await answer(await http.get(`${s(id)}/marks`), marksAnswer)).marks;
    },
    async mark(id, governorId, body) {
      return (await answer(await http.put(`${s(id)}/marks/${governorId}`, { json: body }), markAnswer)).mark;
    },
    async unmark(id, governorId) {
      await answer(await http.delete(`${s(id)}/marks/${governorId}`), okAnswer);
    },
    async me() {
      return answer(await http.get('kvk/me'), myKvkAnswer);
    },
  };
}

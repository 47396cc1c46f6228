import type { KyInstance } from 'ky';
import * as z from 'zod/mini';
import { AUTOMATIC_POINTS_API, type runsAnswer, type AppliedRun, type Award, type Rule, type RuleBody, type RulePreview, type RuleStat, type RunSummary, type Unlinked } from '../protocol/automatic-points';
import { KVK_API } from '../protocol/kvk';
import { call, keyOf, scopeOf } from './contract';

/** Automatic points: rules, a run's preview and apply, the runs so far. */
export type { AppliedRun, Award, Rule, RuleBody, RulePreview, RuleStat, RunSummary, Unlinked };

/** A KvK season as a DKP rule names it: its id and name. */
export interface SeasonChoice {
  id: number;
  name: string;
}

export interface AutomaticPointsApi {
  rules(): Promise<Rule[]>;
  create(body: RuleBody): Promise<Rule>;
  update(id: number, body: RuleBody): Promise<Rule>;
  remove(id: number): Promise<void>;
  preview(id: number, fromScanId: number, toScanId: number): Promise<RulePreview>;
  apply(id: number, token: string): Promise<AppliedRun>;
  runs(page?: number): Promise<z.infer<typeof runsAnswer>>;
  seasons(): Promise<SeasonChoice[]>;
}

export function createAutomaticPointsApi(http: KyInstance): AutomaticPointsApi {
  return {
    rules: async () => (await call(http, AUTOMATIC_POINTS_API.rules)).rules,
    create: async (body) => (await call(http, AUTOMATIC_POINTS_API.create, { body })).rule,
    update: async (id, body) => (await call(http, AUTOMATIC_POINTS_API.update, { params: { id }, body })).rule,
    remove: async (id) => void (await call(http, AUTOMATIC_POINTS_API.remove, { params: { id } })),
    preview: async (id, fromScanId, toScanId) => (await call(http, AUTOMATIC_POINTS_API.preview, { params: { id }, body: { fromScanId, toScanId } })).preview,
    apply: async (id, token) => (await call(http, AUTOMATIC_POINTS_API.apply, { params: { id }, body: { token } })).run,
    runs: (page = 1) => call(http, AUTOMATIC_POINTS_API.runs, { query: { page } }),
    seasons: async () => (await call(http, KVK_API.seasons)).seasons.map(({ id, name }) => ({ id, name })),
  };
}

/** Automatic points' query keys: a page reads and invalidates these, never a key of its own. */
export const automaticPointsKeys = {
  all: scopeOf(AUTOMATIC_POINTS_API.rules),
  rules: keyOf(AUTOMATIC_POINTS_API.rules),
  /** Every page of the runs. */
  runs: keyOf(AUTOMATIC_POINTS_API.runs),
  runsPage: (page: number) => keyOf(AUTOMATIC_POINTS_API.runs, { query: { page } }),
  /** The seasons a DKP rule may name: under KvK's seasons, so a change there refreshes them. */
  seasons: [...keyOf(KVK_API.seasons), 'choices'] as const,
} as const;

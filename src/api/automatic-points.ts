import type { KyInstance } from 'ky';
import * as z from 'zod/mini';
import { AUTOMATIC_POINTS_API, type runsAnswer, type AppliedRun, type Award, type Rule, type RuleBody, type RulePreview, type RuleStat, type RunSummary, type Unlinked } from '../protocol/automatic-points';
import { call, keyOf, scopeOf } from './contract';
import { answer } from './rest';

/** Automatic points: rules, a run's preview and apply, the runs so far. */
export type { AppliedRun, Award, Rule, RuleBody, RulePreview, RuleStat, RunSummary, Unlinked };

/** GET kvk/seasons, read for the seasons' ids and names only (a DKP rule names its season). */
const seasonsAnswer = z.object({ result: z.literal(true), seasons: z.array(z.object({ id: z.int(), name: z.string() })) });
export type SeasonChoice = z.infer<typeof seasonsAnswer>['seasons'][number];

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
    async seasons() {
      return (await answer(await http.get('kvk/seasons'), seasonsAnswer)).seasons;
    },
  };
}

/** Automatic points' query keys: a page reads and invalidates these, never a key of its own. */
export const automaticPointsKeys = {
  all: scopeOf(AUTOMATIC_POINTS_API.rules),
  rules: keyOf(AUTOMATIC_POINTS_API.rules),
  /** Every page of the runs. */
  runs: keyOf(AUTOMATIC_POINTS_API.runs),
  runsPage: (page: number) => keyOf(AUTOMATIC_POINTS_API.runs, { query: { page } }),
} as const;

import type { KyInstance } from 'ky';
import * as z from 'zod/mini';
import { appliedRun, rule, rulePreview, runSummary, type AppliedRun, type Award, type Rule, type RuleBody, type RulePreview, type RuleStat, type RunSummary, type Unlinked } from '../protocol/automatic-points';
import { answer } from './rest';

/** Automatic points: rules, a run's preview and apply, the runs so far. */
export type { AppliedRun, Award, Rule, RuleBody, RulePreview, RuleStat, RunSummary, Unlinked };

const rulesAnswer = z.object({ result: z.literal(true), rules: z.array(rule) });
const ruleAnswer = z.object({ result: z.literal(true), rule });
const okAnswer = z.object({ result: z.literal(true) });
const previewAnswer = z.object({ result: z.literal(true), preview: rulePreview });
const applyAnswer = z.object({ result: z.literal(true), run: appliedRun });
/** GET kvk/seasons, read for the seasons' ids and names only (a DKP rule names its season). */
const seasonsAnswer = z.object({ result: z.literal(true), seasons: z.array(z.object({ id: z.int(), name: z.string() })) });
export type SeasonChoice = z.infer<typeof seasonsAnswer>['seasons'][number];
const runsAnswer = z.object({ result: z.literal(true), runs: z.array(runSummary), total: z.int(), page: z.int(), pageSize: z.int() });

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
    async rules() {
      return (await answer(await http.get('points/rules'), rulesAnswer)).rules;
    },
    async create(body) {
      return (await answer(await http.post('points/rules', { json: body }), ruleAnswer)).rule;
    },
    async update(id, body) {
      return (await answer(await http.put(`points/rules/${id}`, { json: body }), ruleAnswer)).rule;
    },
    async remove(id) {
      await answer(await http.delete(`points/rules/${id}`), okAnswer);
    },
    async preview(id, fromScanId, toScanId) {
      return (await answer(await http.post(`points/rules/${id}/preview`, { json: { fromScanId, toScanId } }), previewAnswer)).preview;
    },
    async apply(id, token) {
      return (await answer(await http.post(`points/rules/${id}/apply`, { json: { token } }), applyAnswer)).run;
    },
    async runs(page = 1) {
      return answer(await http.get('points/runs', { searchParams: { page } }), runsAnswer);
    },
    async seasons() {
      return (await answer(await http.get('kvk/seasons'), seasonsAnswer)).seasons;
    },
  };
}

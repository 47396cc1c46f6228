import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { Invalid, TooMany } from '../../errors';
import * as z from 'zod/mini';
import { appliedRun, applyBody, previewBody, rule, RULE_ERRORS, ruleBody, rulePreview, ruleShapeError, runsQuery, runSummary } from '../../../src/protocol/automatic-points';
import type { AppContext } from '../../context';
import { createRule, deleteRule, findRule, listRules, listRuns, RULE_STAT_LIST, updateRule, type RuleInput } from '../../points/automatic';
import { authOf, requireRank } from '../guards';
import { BEARER } from '../openapi';
import { pathId, resultErrors, resultTrue } from '../schemas';

/** A malformed rule id is a 400 with its text. */
const idParams = z.object({ id: pathId(RULE_ERRORS.badRuleId) });

/** A rule's body as the schema validated it, with the checks across fields (a DKP rule names its season). */
function ruleInput(body: z.output<typeof ruleBody>): RuleInput {
  const shape = ruleShapeError(body);
  if (shape) throw new Invalid(shape);
  return body;
}

/** Automatic points: rules, a run's preview and its apply, the runs so far. */
export function automaticPointsRoutes(ctx: AppContext) {
  return async (root: FastifyInstance) => {
    const app = root.withTypeProvider<ZodTypeProvider>();
    const actorOf = (request: FastifyRequest) => ({ id: authOf(request).user.id, name: authOf(request).user.username });
    const ruleAnswer = resultTrue({ rule });
    // a preview reads two scans (up to 25,000 governors each): at most 30 a minute per account
    const previews = app.createRateLimit({ max: 30, timeWindow: 60_000, keyGenerator: (request) => `rule-preview:${request.auth?.user.id ?? request.ip}` });
    const previewLimit = async (request: FastifyRequest) => {
      const answer = await previews(request);
      if (!answer.isAllowed && answer.isExceeded) throw new TooMany(RULE_ERRORS.tooManyPreviews);
    };

    app.get(
      '/points/rules',
      {
        preValidation: requireRank(ctx, 'council+admin'),
        schema: { summary: 'The automatic points rules', tags: ['points'], security: BEARER, response: { 200: resultTrue({ rules: z.array(rule) }), ...resultErrors(401, 403) } },
      },
      async () => ({ result: true as const, rules: await listRules(ctx.db) }),
    );

    app.post(
      '/points/rules',
      {
        preValidation: requireRank(ctx, 'council+admin'),
        schema: {
          summary: `A rule: points paid per "per" of a stat's gain between two scans (stat: ${RULE_STAT_LIST}; dkp names its KvK season), capped per governor when cap is set; auto: run whenever a scan arrives`,
          tags: ['points'],
          security: BEARER,
          body: ruleBody,
          response: { 200: ruleAnswer, ...resultErrors(400, 401, 403, 409) },
        },
      },
      async (request) => ({ result: true as const, rule: await createRule(ctx.db, ruleInput(request.body), actorOf(request), ctx.now()) }),
    );

    app.put(
      '/points/rules/:id',
      {
        preValidation: requireRank(ctx, 'council+admin'),
        schema: { summary: 'Change a rule (previews made before no longer apply)', tags: ['points'], security: BEARER, params: idParams, body: ruleBody, response: { 200: ruleAnswer, ...resultErrors(400, 401, 403, 404) } },
      },
      async (request) => {
        const id = request.params.id;
        return { result: true as const, rule: await updateRule(ctx.db, id, ruleInput(request.body), actorOf(request), ctx.now()) };
      },
    );

    app.delete(
      '/points/rules/:id',
      {
        preValidation: requireRank(ctx, 'council+admin'),
        schema: { summary: 'Delete a rule (its runs and ledger entries stay)', tags: ['points'], security: BEARER, params: idParams, response: { 200: resultTrue({}), ...resultErrors(400, 401, 403, 404) } },
      },
      async (request) => {
        await deleteRule(ctx.db, request.params.id, actorOf(request), ctx.now());
        return { result: true as const };
      },
    );

    app.post(
      '/points/rules/:id/preview',
      {
        preValidation: [requireRank(ctx, 'council+admin'), previewLimit],
        schema: {
          summary:
            'Preview a run of the rule over two scans: points per governor and the account linked to it (verified or only claimed), governors with no account apart, the total. Nothing is booked; the token applies it within 10 minutes, once, for the account that made it. A run already applied is refused (409).',
          tags: ['points'],
          security: BEARER,
          params: idParams,
          body: previewBody,
          response: { 200: resultTrue({ preview: rulePreview }), ...resultErrors(400, 401, 403, 404, 409, 429) },
        },
      },
      async (request) => {
        const id = request.params.id;
        const body = request.body;
        return { result: true as const, preview: await ctx.automatic.preview(id, body.fromScanId, body.toScanId, authOf(request).user.id) };
      },
    );

    app.post(
      '/points/rules/:id/apply',
      {
        preValidation: requireRank(ctx, 'council+admin'),
        schema: {
          summary:
            'Apply a previewed run: one ledger entry of kind automatic per governor paid (naming the rule and the scans), all or nothing, and each paid player hears VIRTUAL_BALANCE_UPDATE. One rule over one pair of scans applies at most once, ever: a second apply is refused (409).',
          tags: ['points'],
          security: BEARER,
          params: idParams,
          body: applyBody,
          response: { 200: resultTrue({ run: appliedRun }), ...resultErrors(400, 401, 403, 404, 409) },
        },
      },
      async (request) => {
        const id = request.params.id;
        const { token } = request.body;
        await findRule(ctx.db, id);
        return { result: true as const, run: await ctx.automatic.apply(id, token, actorOf(request)) };
      },
    );

    app.get(
      '/points/runs',
      {
        preValidation: requireRank(ctx, 'council+admin'),
        schema: {
          summary: 'Runs of automatic points rules, newest first, 50 a page',
          tags: ['points'],
          security: BEARER,
          querystring: runsQuery,
          response: { 200: resultTrue({ runs: z.array(runSummary), total: z.int(), page: z.int(), pageSize: z.int() }), ...resultErrors(400, 401, 403) },
        },
      },
      async (request) => {
        return { result: true as const, ...(await listRuns(ctx.db, request.query.page ?? 1)) };
      },
    );
  };
}

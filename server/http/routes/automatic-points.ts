import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Invalid, TooMany } from '../../errors';
import * as z from 'zod/mini';
import { AUTOMATIC_POINTS_API, RULE_ERRORS, type ruleBody, ruleShapeError } from '../../../src/protocol/automatic-points';
import type { AppContext } from '../../context';
import { createRule, deleteRule, findRule, listRules, listRuns, updateRule, type RuleInput } from '../../points/automatic';
import { authOf, requireRank } from '../guards';
import { serve } from '../contract';

/** A rule's body as the schema validated it, with the checks across fields (a DKP rule names its season). */
function ruleInput(body: z.output<typeof ruleBody>): RuleInput {
  const shape = ruleShapeError(body);
  if (shape) throw new Invalid(shape);
  return body;
}

/** Automatic points: rules, a run's preview and its apply, the runs so far. */
export function automaticPointsRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const actorOf = (request: FastifyRequest) => ({ id: authOf(request).user.id, name: authOf(request).user.username });
    // a preview reads two scans (up to 25,000 governors each): at most 30 a minute per account
    const previews = app.createRateLimit({ max: 30, timeWindow: 60_000, keyGenerator: (request) => `rule-preview:${request.auth?.user.id ?? request.ip}` });
    const previewLimit = async (request: FastifyRequest) => {
      const answer = await previews(request);
      if (!answer.isAllowed && answer.isExceeded) throw new TooMany(RULE_ERRORS.tooManyPreviews);
    };

    const leadership = { preValidation: requireRank(ctx, 'council+admin') };
    serve(app, AUTOMATIC_POINTS_API.rules, leadership, async () => ({ result: true as const, rules: await listRules(ctx.db) }));

    serve(app, AUTOMATIC_POINTS_API.create, leadership, async (request) => ({ result: true as const, rule: await createRule(ctx.db, ruleInput(request.body), actorOf(request), ctx.now()) }));

    serve(app, AUTOMATIC_POINTS_API.update, leadership, async (request) => {
      const id = request.params.id;
      return { result: true as const, rule: await updateRule(ctx.db, id, ruleInput(request.body), actorOf(request), ctx.now()) };
    });

    serve(app, AUTOMATIC_POINTS_API.remove, leadership, async (request) => {
      await deleteRule(ctx.db, request.params.id, actorOf(request), ctx.now());
      return { result: true as const };
    });

    serve(app, AUTOMATIC_POINTS_API.preview, { preValidation: [requireRank(ctx, 'council+admin'), previewLimit] }, async (request) => {
      const id = request.params.id;
      const body = request.body;
      return { result: true as const, preview: await ctx.automatic.preview(id, body.fromScanId, body.toScanId, authOf(request).user.id) };
    });

    serve(app, AUTOMATIC_POINTS_API.apply, leadership, async (request) => {
      const id = request.params.id;
      const { token } = request.body;
      await findRule(ctx.db, id);
      return { result: true as const, run: await ctx.automatic.apply(id, token, actorOf(request)) };
    });

    serve(app, AUTOMATIC_POINTS_API.runs, leadership, async (request) => {
      return { result: true as const, ...(await listRuns(ctx.db, request.query.page ?? 1)) };
    });
  };
}

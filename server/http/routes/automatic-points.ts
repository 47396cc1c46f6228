import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Invalid, TooMany } from '../../errors';
import { z } from 'zod';
import { appliedRun, applyBody, previewBody, rule, RULE_ERRORS, ruleBody, rulePreview, ruleShapeError, runSummary } from '../../../src/protocol/automatic-points';
import type { AppContext } from '../../context';
import { AutomaticPoints, automaticPointsFor, createRule, deleteRule, findRule, listRules, listRuns, RULE_STAT_LIST, updateRule, type RuleInput } from '../../points/automatic';
import { parseBody } from '../errors';
import { authOf, requireRank } from '../guards';
import { BEARER, jsonSchema, resultError } from '../openapi';

const errors = (...codes: number[]) => Object.fromEntries(codes.map((code) => [code, jsonSchema(resultError)]));
const idParams = { type: 'object', properties: { id: { type: 'string' } } };

function ruleIdOf(request: FastifyRequest): number {
  const value = (request.params as { id: string }).id;
  if (!/^\d{1,15}$/.test(value) || Number(value) < 1) throw new Invalid(RULE_ERRORS.badRuleId);
  return Number(value);
}

function ruleInput(raw: unknown): RuleInput {
  const body = parseBody(ruleBody, raw);
  const shape = ruleShapeError(body);
  if (shape) throw new Invalid(shape);
  return body;
}

/** The service of this server's database: made once, shared with the scans' import (rules that run by themselves). */
export function automaticPointsOf(ctx: AppContext): AutomaticPoints {
  // booked through the points service: the engine's queue, then the balances to the user sockets
  return automaticPointsFor(ctx.db, () => new AutomaticPoints(ctx.db, ctx.points, ctx.now, ctx.log))!;
}

/** Automatic points (DESIGN.md, "Automatic points"): rules, a run's preview and its apply, the runs so far. */
export function automaticPointsRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const service = automaticPointsOf(ctx);
    const actorOf = (request: FastifyRequest) => ({ id: authOf(request).user.id, name: authOf(request).user.username });
    const ruleAnswer = jsonSchema(z.object({ result: z.literal(true), rule }));
    // a preview reads two scans (up to 25,000 governors each): at most 30 a minute per account
    const previews = app.createRateLimit({ max: 30, timeWindow: 60_000, keyGenerator: (request) => `rule-preview:${request.auth?.user.id ?? request.ip}` });
    const previewLimit = async (request: FastifyRequest) => {
      const answer = await previews(request);
      if (!answer.isAllowed && answer.isExceeded) throw new TooMany(RULE_ERRORS.tooManyPreviews);
    };

    app.get(
      '/points/rules',
      {
        preHandler: requireRank(ctx, 'council+admin'),
        schema: { summary: 'The automatic points rules', tags: ['points'], security: BEARER, response: { 200: jsonSchema(z.object({ result: z.literal(true), rules: z.array(rule) })), ...errors(401, 403) } },
      },
      async () => ({ result: true, rules: await listRules(ctx.db) }),
    );

    app.post(
      '/points/rules',
      {
        preHandler: requireRank(ctx, 'council+admin'),
        schema: {
          summary: `A rule: points paid per "per" of a stat's gain between two scans (stat: ${RULE_STAT_LIST}; dkp names its KvK season), capped per governor when cap is set; auto: run whenever a scan arrives`,
          tags: ['points'],
          security: BEARER,
          body: jsonSchema(ruleBody, 'input'),
          response: { 200: ruleAnswer, ...errors(400, 401, 403, 409) },
        },
      },
      async (request) => ({ result: true, rule: await createRule(ctx.db, ruleInput(request.body), actorOf(request), ctx.now()) }),
    );

    app.put(
      '/points/rules/:id',
      {
        preHandler: requireRank(ctx, 'council+admin'),
        schema: { summary: 'Change a rule (previews made before no longer apply)', tags: ['points'], security: BEARER, params: idParams, body: jsonSchema(ruleBody, 'input'), response: { 200: ruleAnswer, ...errors(400, 401, 403, 404) } },
      },
      async (request) => {
        const id = ruleIdOf(request);
        return { result: true, rule: await updateRule(ctx.db, id, ruleInput(request.body), actorOf(request), ctx.now()) };
      },
    );

    app.delete(
      '/points/rules/:id',
      {
        preHandler: requireRank(ctx, 'council+admin'),
        schema: { summary: 'Delete a rule (its runs and ledger entries stay)', tags: ['points'], security: BEARER, params: idParams, response: { 200: jsonSchema(z.object({ result: z.literal(true) })), ...errors(400, 401, 403, 404) } },
      },
      async (request) => {
        await deleteRule(ctx.db, ruleIdOf(request), actorOf(request), ctx.now());
        return { result: true };
      },
    );

    app.post(
      '/points/rules/:id/preview',
      {
        preHandler: [requireRank(ctx, 'council+admin'), previewLimit],
        schema: {
          summary:
            'Preview a run of the rule over two scans: points per governor and the account linked to it (verified or only claimed), governors with no account apart, the total. Nothing is booked; the token applies it within 10 minutes, once, for the account that made it. A run already applied is refused (409).',
          tags: ['points'],
          security: BEARER,
          params: idParams,
          body: jsonSchema(previewBody, 'input'),
          response: { 200: jsonSchema(z.object({ result: z.literal(true), preview: rulePreview })), ...errors(400, 401, 403, 404, 409, 429) },
        },
      },
      async (request) => {
        const id = ruleIdOf(request);
        const body = parseBody(previewBody, request.body);
        return { result: true, preview: await service.preview(id, body.fromScanId, body.toScanId, authOf(request).user.id) };
      },
    );

    app.post(
      '/points/rules/:id/apply',
      {
        preHandler: requireRank(ctx, 'council+admin'),
        schema: {
          summary:
            'Apply a previewed run: one ledger entry of kind automatic per governor paid (naming the rule and the scans), all or nothing, and each paid player hears VIRTUAL_BALANCE_UPDATE. One rule over one pair of scans applies at most once, ever: a second apply is refused (409).',
          tags: ['points'],
          security: BEARER,
          params: idParams,
          body: jsonSchema(applyBody, 'input'),
          response: { 200: jsonSchema(z.object({ result: z.literal(true), run: appliedRun })), ...errors(400, 401, 403, 404, 409) },
        },
      },
      async (request) => {
        const id = ruleIdOf(request);
        const { token } = parseBody(applyBody, request.body);
        await findRule(ctx.db, id);
        return { result: true, run: await service.apply(id, token, actorOf(request)) };
      },
    );

    app.get(
      '/points/runs',
      {
        preHandler: requireRank(ctx, 'council+admin'),
        schema: {
          summary: 'Runs of automatic points rules, newest first, 50 a page',
          tags: ['points'],
          security: BEARER,
          querystring: { type: 'object', properties: { page: { type: 'string' } } },
          response: { 200: jsonSchema(z.object({ result: z.literal(true), runs: z.array(runSummary), total: z.int(), page: z.int(), pageSize: z.int() })), ...errors(400, 401, 403) },
        },
      },
      async (request) => {
        const raw = (request.query as { page?: string } | undefined)?.page;
        const page = raw === undefined || raw === '' ? 1 : Number(raw);
        if (!Number.isInteger(page) || page < 1 || page > 1_000_000) throw new Invalid('The page must be a whole number from 1.');
        return { result: true, ...(await listRuns(ctx.db, page)) };
      },
    );
  };
}

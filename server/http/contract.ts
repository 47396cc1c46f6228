import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import * as z from 'zod/mini';
import type { AnyEndpoint, AnswerOf } from '../../src/protocol/endpoint';
import { BEARER } from './openapi';
import { resultErrors } from './schemas';

type Out<S> = S extends z.core.$ZodType ? z.output<S> : undefined;
type ParamsOut<E extends AnyEndpoint> = E['params'] extends Record<string, z.core.$ZodType> ? { [K in keyof E['params']]: z.output<E['params'][K]> } : Record<string, never>;

/** A request to an endpoint, its path parts, query and body typed (and already validated) by its contract. */
export type ContractRequest<E extends AnyEndpoint> = FastifyRequest<{ Params: ParamsOut<E>; Querystring: Out<E['query']>; Body: Out<E['body']> }>;

/** What a route adds to its contract: who may call it (preValidation), its budget (config.rateLimit), a body limit. */
export type ServeOptions = Pick<RouteShorthandOptions, 'preValidation' | 'config' | 'bodyLimit' | 'onRequest' | 'preHandler' | 'exposeHeadRoute'>;

/**
 * Registers a route from its contract (src/protocol/endpoint.ts): method, path, the schemas that
 * validate, type and document it, and its error answers come from the contract; the route brings
 * its guard, its budget and its handler, which stays thin.
 */
export function serve<const E extends AnyEndpoint>(
  app: FastifyInstance,
  e: E,
  options: ServeOptions,
  handler: (request: ContractRequest<E>, reply: FastifyReply) => Promise<AnswerOf<E>>,
): void {
  app.route({
    method: e.method,
    url: `/${e.path}`,
    ...options,
    // a refusal in the route's own envelope (the error handler writes it: server/http/errors.ts)
    ...(e.refusal ? { config: { ...options.config, answer: e.refusal.envelope } } : {}),
    schema: {
      summary: e.summary,
      ...(e.description ? { description: e.description } : {}),
      tags: [e.tag],
      ...(e.open ? {} : { security: BEARER }),
      ...(e.params ? { params: z.object(e.params) } : {}),
      ...(e.query ? { querystring: e.query } : {}),
      ...(e.body ? { body: e.body } : {}),
      response: { 200: e.answer, ...(e.refusal ? Object.fromEntries(e.errors.map((status) => [status, e.refusal!.schema])) : resultErrors(...e.errors)) },
    },
    handler: handler as (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  });
}

import type { SwaggerTransform } from '@fastify/swagger';
import type { FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify';
import * as z from 'zod/mini';
import { AUTH_ERRORS, firstIssue } from '../../src/protocol/auth';
import { hasNul, HTTP_ERRORS, NAMES_NOTHING, pathId } from '../../src/protocol/http';
import { optionalBody, resultTrue } from '../../src/protocol/endpoint';
import { Invalid, NotFound } from '../errors';
import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * One zod schema per route part validates it, types it (fastify-type-provider-zod) and documents it
 * (OpenAPI at /openapi.json and /docs). The protocol's schemas (`zod/mini`, shared with the client)
 * are used as they are; a refusal reads the schema's own text, as the specification fixes it.
 *
 * Every route's body, query, path and headers are zod schemas: a plain JSON schema there is refused
 * when the route is registered (it would validate nothing). Answers that are not JSON (CSV) keep a
 * plain response schema, which documents only.
 */

type AnySchema = z.core.$ZodType;

function isZod(schema: unknown): schema is AnySchema {
  return schema instanceof z.core.$ZodType;
}

/** What a failed part reads as: a 400 with the first issue's text, or a 404 for a path id that says so (pathId). */
function refusal(httpPart: string | undefined, error: z.core.$ZodError): Error {
  const text = firstIssue(error);
  const issue = error.issues[0] as { params?: Record<string, unknown> } | undefined;
  return httpPart === 'params' && issue?.params?.[NAMES_NOTHING] === true ? new NotFound(text) : new Invalid(text);
}

/** The one schema for every path id (src/protocol/http.ts). */
export { pathId };

/**
 * Fastify's validator compiler. The body must be a JSON object (else AUTH_ERRORS.invalidBody, as
 * `parseBody` answers); a route whose body may be left out says so with `optionalBody(schema)`.
 * Every part that fails answers 400 with the first issue's text, but a path id made by
 * `pathId(text, { notFound: true })` that fails names nothing: 404 with its text.
 */
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart, method, url }) => {
  // every route validates from the protocol's zod schemas: a plain JSON schema here would validate nothing
  if (!isZod(schema)) throw new PlainSchema(`${method} ${url}`, httpPart ?? 'unknown part');
  const mayBeEmpty = httpPart === 'body' && schema._zod.def.type === 'default';
  return (data: unknown) => {
    // Fastify hands an absent body over as null
    const absent = data === null || data === undefined;
    if (httpPart === 'body' && !(absent && mayBeEmpty) && (typeof data !== 'object' || data === null || Array.isArray(data))) {
      return { error: new Invalid(AUTH_ERRORS.invalidBody) };
    }
    // one place for every route: PostgreSQL cannot store a NUL, and no text of ours needs one
    if (holdsNul(data)) return { error: new Invalid(HTTP_ERRORS.nulCharacter) };
    const result = z.safeParse(schema, absent ? (httpPart === 'body' ? undefined : {}) : data);
    return result.success ? { value: result.data } : { error: refusal(httpPart, result.error) };
  };
};

/** A NUL in any string of a parsed body, query, path or headers (keys included); bounded by the body limit. */
function holdsNul(data: unknown): boolean {
  if (typeof data === 'string') return hasNul(data);
  if (typeof data !== 'object' || data === null) return false;
  if (Array.isArray(data)) return data.some(holdsNul);
  return Object.entries(data).some(([key, value]) => hasNul(key) || holdsNul(value));
}

/** A route that passes a plain JSON schema for its body, query, path or headers: refused when it is registered. */
export class PlainSchema extends Error {
  constructor(route: string, part: string) {
    super(`${route}: the ${part} schema must be a protocol zod schema (a plain JSON schema validates nothing)`);
    this.name = 'PlainSchema';
  }
}

/** A body that may be left out (src/protocol/endpoint.ts). */
export { optionalBody };

/** An answer that does not match its route's schema: a bug, answered 500 (never a half-checked answer). */
export class AnswerMismatch extends Error {
  constructor(
    readonly route: string,
    readonly issues: unknown,
  ) {
    super(`the answer of ${route} does not match its schema`);
    this.name = 'AnswerMismatch';
  }
}

/**
 * Fastify's serializer compiler: a success answer is encoded by its zod schema (checked, and only
 * the fields the schema names go out, so a row's private columns cannot leak); error answers
 * (built in one place, build-app.ts) and plain JSON schemas go out as they are.
 */
export const serializerCompiler: FastifySerializerCompiler<unknown> = ({ schema, method, url, httpStatus }) => {
  const status = Number(httpStatus);
  if (!isZod(schema) || !(status >= 200 && status < 300)) return (data) => JSON.stringify(data);
  return (data) => {
    const result = z.safeEncode(schema, data);
    if (!result.success) throw new AnswerMismatch(`${method} ${url}`, result.error.issues);
    return JSON.stringify(result.data);
  };
};

/** Data encoded by its schema as serializerCompiler does (checked; only the fields it names kept): a mismatch is a bug, a 500. */
export function encodeAnswer<S extends AnySchema>(schema: S, data: unknown, route: string): z.output<S> {
  const result = z.safeEncode(schema, data as never);
  if (!result.success) throw new AnswerMismatch(route, result.error.issues);
  return result.data as z.output<S>;
}

/**
 * A long list of an answer encoded item by item as encodeAnswer does, 1,000 items between two turns
 * of the event loop: checking 25,000 governors of a scan preview at once held up every bid for
 * a quarter of a second.
 */
export async function encodeListInSlices<S extends AnySchema>(item: S, list: readonly unknown[], route: string): Promise<z.output<S>[]> {
  const slice = z.array(item);
  const out: z.output<S>[] = [];
  for (let at = 0; at < list.length; at += 1000) {
    out.push(...(encodeAnswer(slice, list.slice(at, at + 1000), route) as z.output<S>[]));
    if (at + 1000 < list.length) await nextTurn();
  }
  return out;
}

/** A protocol zod schema as OpenAPI 3.0 JSON schema (what a client sends: 'input'; what it gets: 'output'). */
export function jsonSchema(schema: AnySchema, io: 'input' | 'output' = 'output'): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, target: 'openapi-3.0', unrepresentable: 'any' });
  return rest;
}

const INPUT_PARTS = ['body', 'querystring', 'params', 'headers'] as const;

/** @fastify/swagger's transform: zod schemas become JSON schema in the document; plain ones stay. */
export const openApiTransform: SwaggerTransform = ({ schema, url }) => {
  if (!schema) return { schema, url };
  const parts = schema as Record<string, unknown>;
  const out: Record<string, unknown> = { ...parts };
  for (const part of INPUT_PARTS) {
    const given = parts[part];
    if (isZod(given)) out[part] = jsonSchema(given, 'input');
  }
  const response = parts.response as Record<string, unknown> | undefined;
  if (response) {
    out.response = Object.fromEntries(Object.entries(response).map(([code, s]) => [code, isZod(s) ? jsonSchema(s, 'output') : s]));
  }
  return { schema: out, url };
};

// ── answer envelopes (the wire contract's shapes) ───────────────────────────────────────────

/** `{ result: true, ...fields }` (src/protocol/endpoint.ts). */
export { resultTrue };

/** `{ result: false, error }`. */
export const resultError = z.object({ result: z.literal(false), error: z.string() });
/** `{ status: 'error', error }` (auth/register, auth/logout). */
export const statusError = z.object({ status: z.literal('error'), error: z.string() });

/** The documented error answers of a `{ result }` route, by status. */
export function resultErrors<const C extends readonly number[]>(...codes: C): { [K in C[number]]: typeof resultError } {
  return Object.fromEntries(codes.map((code) => [code, resultError])) as { [K in C[number]]: typeof resultError };
}

/** A page of a list: `{ result: true, <name>: [...], page, pageSize, total }`. */
export function pageOf<N extends string, T extends AnySchema>(name: N, item: T) {
  return z.object({ result: z.literal(true), ...({ [name]: z.array(item) } as { [K in N]: z.ZodMiniArray<T> }), page: z.int(), pageSize: z.int(), total: z.int() });
}

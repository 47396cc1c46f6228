import type { KyInstance, Options } from 'ky';
import type * as z from 'zod/mini';
import { pathOf, type AnswerOf, type AnyEndpoint, type BodyOf, type ParamsOf, type QueryOf } from '../protocol/endpoint';
import { answer, params } from './rest';

/**
 * Calls derived from the endpoints' contracts (src/protocol/endpoint.ts): the path filled from its
 * parts, the query without its empty values, the body as JSON, and the answer read by the one answer
 * reader against the contract's schema. Each API module builds its calls on `call` and names its
 * query keys with `keyOf`, so a page never spells a path, an envelope or a key.
 */

type Part<K extends string, T> = T extends undefined ? { [P in K]?: undefined } : { [P in K]: T };
/** What a call of an endpoint takes: its path parts, query and body, each only when it has them. */
export type CallInput<E extends AnyEndpoint> = Part<'params', ParamsOf<E>> & Partial<Part<'query', QueryOf<E>>> & Part<'body', BodyOf<E>>;

type Inputless<E extends AnyEndpoint> = ParamsOf<E> extends undefined ? (BodyOf<E> extends undefined ? true : false) : false;

export function call<E extends AnyEndpoint>(
  client: KyInstance,
  e: E,
  ...[input, options]: Inputless<E> extends true ? [input?: CallInput<E>, options?: Options] : [input: CallInput<E>, options?: Options]
): Promise<AnswerOf<E>> {
  const given = (input ?? {}) as { params?: Record<string, string | number>; query?: Record<string, string | number | boolean | null | undefined>; body?: unknown };
  const query = given.query ? params(given.query) : undefined;
  return client(pathOf(e, given.params), {
    ...options,
    method: e.method.toLowerCase(),
    ...(given.body !== undefined ? { json: given.body } : {}),
    ...(query && Object.keys(query).length > 0 ? { searchParams: query } : {}),
  }).then((response) => answer(response, e.answer) as Promise<AnswerOf<E>>);
}

/**
 * An endpoint whose answer the client reads with a schema of its own, its path, query and body
 * still the contract's: a list read item by item (src/api/store.ts tolerantList), so one item the
 * contract does not match is one missing row, never a page that cannot load.
 */
export function withAnswer<E extends AnyEndpoint, S extends z.core.$ZodType>(e: E, answer: S): Omit<E, 'answer'> & { answer: S } {
  return { ...e, answer };
}

/**
 * An endpoint's query key: the parts of its path (a path part's value in its place), then its query
 * when it has one. Keys nest as paths do, so the key of a group (`scopeOf`) covers every call under it.
 */
export function keyOf<E extends AnyEndpoint>(e: E, input?: { params?: ParamsOf<E>; query?: QueryOf<E> }): readonly unknown[] {
  const parts = pathOf(e, input?.params as Record<string, string | number> | undefined).split('/');
  const query = input?.query ? params(input.query as Record<string, string | number | boolean | null | undefined>) : null;
  return query && Object.keys(query).length > 0 ? [...parts, query] : parts;
}

/** The key that covers every query of an endpoint's group (its tag): what a change there invalidates. */
export const scopeOf = (e: AnyEndpoint): readonly unknown[] => [e.tag];

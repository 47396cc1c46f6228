import * as z from 'zod/mini';

/**
 * One contract per REST endpoint: its method, its path (`:name` for a path part), the schemas of
 * its path parts, query, body and success answer, the error statuses it documents, and what it does
 * (its OpenAPI summary). The server registers the route from it (server/http/contract.ts: validation,
 * types and documentation from these schemas) and the client derives its call and its query key
 * from it (src/api/contract.ts), so neither spells a path, an envelope or a key by hand.
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Schema = z.core.$ZodType;
type ParamsShape = Record<string, Schema>;

export interface Endpoint<
  M extends Method = Method,
  P extends string = string,
  Params extends ParamsShape | undefined = ParamsShape | undefined,
  Query extends Schema | undefined = Schema | undefined,
  Body extends Schema | undefined = Schema | undefined,
  Answer extends Schema = Schema,
> {
  method: M;
  /** Relative to the API's root, without a leading slash: `discord/outbox/:id/retry`. */
  path: P;
  /** One schema per `:name` of the path (src/protocol/http.ts `pathId` for ids). */
  params?: Params;
  query?: Query;
  body?: Body;
  /** The 200 answer. */
  answer: Answer;
  /** Error statuses it may answer (each `{result:false, error}`, or `refusal`), documented. */
  errors: readonly number[];
  /**
   * The sign-in routes' own refusal envelope, where it is not `{result:false, error}`: `status`
   * (`{status:'error', error}`), `login` (`{result:false, token:null, error}`) or `me`
   * (`{result:false, user:null, error}`), and its schema.
   */
  refusal?: { envelope: 'status' | 'login' | 'me'; schema: Schema };
  summary: string;
  /** More than the summary says (its limits), in the documentation. */
  description?: string;
  /** Its group in the API's documentation; also the first part of its query keys. */
  tag: string;
  /** Anyone may call it (no bearer token documented). */
  open?: boolean;
}

export type AnyEndpoint = Endpoint<Method, string, ParamsShape | undefined, Schema | undefined, Schema | undefined, Schema>;

/** Declares an endpoint, keeping its literal types. */
export const endpoint = <const E extends AnyEndpoint>(e: E): E => e;

/** `{ result: true, ...fields }`: the success envelope of every `{result}` route, written once. */
export function resultTrue<S extends z.core.$ZodLooseShape>(shape: S) {
  return z.object({ result: z.literal(true), ...shape });
}
/** `{ result: true }` alone. */
export const okAnswer = resultTrue({});

/** A body that may be left out: it counts as `{}` (an edit that changes nothing, a copy that starts now). */
export function optionalBody<T extends z.core.$ZodType<object>>(schema: T) {
  return z._default(schema, {} as z.core.util.NoUndefined<z.core.output<T>>);
}

/** The path parts' values an endpoint's path names, as a caller gives them. */
export type ParamsOf<E extends AnyEndpoint> = E['params'] extends ParamsShape ? { [K in keyof E['params']]: string | number } : undefined;
export type BodyOf<E extends AnyEndpoint> = E['body'] extends Schema ? z.input<E['body']> : undefined;
/** A query as a caller gives it: values as they read (an empty one is left out). */
export type QueryOf<E extends AnyEndpoint> = E['query'] extends Schema ? { [K in keyof z.output<E['query']>]?: string | number | boolean | null } : undefined;
export type AnswerOf<E extends AnyEndpoint> = z.output<E['answer']>;

/** The endpoint's path with its parts filled in (each encoded). */
export function pathOf(e: Pick<AnyEndpoint, 'path'>, params?: Record<string, string | number>): string {
  return e.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`${e.path}: no value for :${name}`);
    return encodeURIComponent(String(value));
  });
}

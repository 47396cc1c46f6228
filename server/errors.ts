/**
 * Domain errors: what went wrong, in the words the person reads (the protocol's texts), without
 * HTTP. Domain code (auction, points, scans, users, kingdom) throws these; one place,
 * server/http/errors.ts, turns them into a status and the route's answer shape, and the socket
 * servers into their own frames. A new kind of refusal is a new subclass here plus one line there.
 */
export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind;
}

export type DomainErrorKind = 'invalid' | 'unauthenticated' | 'forbidden' | 'not-found' | 'conflict' | 'too-many' | 'unavailable' | 'upstream';

/** The request itself is wrong (a field, a filter, a file): nothing was done. */
export class Invalid extends DomainError {
  readonly kind = 'invalid';
}

/** No live session. */
export class Unauthenticated extends DomainError {
  readonly kind = 'unauthenticated';
}

/** A session without the rank for this. */
export class Forbidden extends DomainError {
  readonly kind = 'forbidden';
}

/** What the request names does not exist (an item, a player, a scan, a group). */
export class NotFound extends DomainError {
  readonly kind = 'not-found';
}

/** The request is well formed but the state forbids it now (taken, started, already applied, below reserved). */
export class Conflict extends DomainError {
  readonly kind = 'conflict';
}

/** Too many attempts in a window: try later. */
export class TooMany extends DomainError {
  readonly kind = 'too-many';
}

/** The server cannot take this now (a full queue): try again in a moment; nothing was done. */
export class Unavailable extends DomainError {
  readonly kind = 'unavailable';
}

/** An outside service (Discord) refused or failed what this request asked of it; the text says what to fix. */
export class Upstream extends DomainError {
  readonly kind = 'upstream';
}

/** The same kind of refusal with another text (a bulk row's line in front of the ledger's reason). */
export function restated(error: DomainError, message: string): DomainError {
  const Kind = error.constructor as new (message: string) => DomainError;
  return new Kind(message);
}

const KINDS: Record<DomainErrorKind, new (message: string) => DomainError> = {
  invalid: Invalid,
  unauthenticated: Unauthenticated,
  forbidden: Forbidden,
  'not-found': NotFound,
  conflict: Conflict,
  'too-many': TooMany,
  unavailable: Unavailable,
  upstream: Upstream,
};

/** The domain error of a kind, with its text: one thrown in a worker thread, rebuilt on the main thread. */
export function errorOfKind(kind: DomainErrorKind, message: string): DomainError {
  return new (KINDS[kind] ?? Invalid)(message);
}

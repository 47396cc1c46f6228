import { Observable, map } from 'rxjs';
import { compileAccept } from '../protocol/fast-accept';
import { serverMsg, type ServerMsg } from '../protocol/socket';

/** A frame turned into a typed event. A bad frame is a typed protocol error, never an exception. */
export type ProtocolEvent =
  | { type: 'message'; msg: ServerMsg }
  | { type: 'protocol-error'; reason: 'json' | 'schema' | 'binary'; raw: string; detail?: string };

const MAX_RAW_KEPT = 500;

/** Frames exactly as the contract has them pass without zod's copy; anything else is zod's to judge. */
const acceptsServerMsg = compileAccept(serverMsg);

export function normalise(frame: unknown): ProtocolEvent {
  if (typeof frame !== 'string') {
    return { type: 'protocol-error', reason: 'binary', raw: '' };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(frame);
  } catch {
    return { type: 'protocol-error', reason: 'json', raw: frame.slice(0, MAX_RAW_KEPT) };
  }
  return normaliseParsed(parsed, frame);
}

/**
 * The second half of `normalise`, for a frame already parsed (a replayed log line): schema → typed
 * event. `raw` is the frame's text when there is one; otherwise it is made only for an error.
 */
export function normaliseParsed(parsed: unknown, raw?: string): ProtocolEvent {
  if (acceptsServerMsg(parsed)) return { type: 'message', msg: parsed as ServerMsg };
  const result = serverMsg.safeParse(parsed);
  if (!result.success) {
    const issue = innermost(result.error.issues[0]);
    return {
      type: 'protocol-error',
      reason: 'schema',
      raw: (raw ?? JSON.stringify(parsed) ?? '').slice(0, MAX_RAW_KEPT),
      detail: issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : undefined,
    };
  }
  return { type: 'message', msg: result.data };
}

type Issue = { path: PropertyKey[]; message: string; code?: string; errors?: Issue[][] };

/**
 * The issue to name: inside a union none of whose forms fits (a bid, or a sealed item's masked
 * bid), the first issue of the form that came closest (the fewest issues), on its full path.
 */
function innermost(issue: Issue | undefined): Issue | undefined {
  if (!issue || issue.code !== 'invalid_union' || !issue.errors?.length) return issue;
  const closest = issue.errors.reduce((best, errors) => (errors.length < best.length ? errors : best));
  const inner = innermost(closest[0]);
  return inner ? { ...inner, path: [...issue.path, ...inner.path] } : issue;
}

/** The RxJS operator form: raw frames in, typed events out. */
export function normaliseFrames() {
  return (source: Observable<unknown>): Observable<ProtocolEvent> => source.pipe(map(normalise));
}

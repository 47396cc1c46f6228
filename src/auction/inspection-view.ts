import type { AnyActorRef } from 'xstate';
import type { InspectedEvent, TrackedActor } from './inspection';

/** What the inspection panel shows of one live actor. */
export interface InspectedActor {
  sessionId: string;
  id: string;
  systemId: string | null;
  parent: string | null;
  status: string;
  value: string;
  context: string;
  events: InspectedEvent[];
}

const SUMMARY_LENGTH = 160;

function isActorRef(value: unknown): value is AnyActorRef {
  return typeof value === 'object' && value !== null && 'sessionId' in value && typeof (value as AnyActorRef).send === 'function';
}

/** Secrets never reach the panel: a session token, a socket's access_token, a password. */
const SECRET_KEY = /token|password|secret/i;
const HIDDEN = '«hidden»';

function short(value: unknown, depth = 0): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 39)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'function') return 'ƒ';
  if (isActorRef(value)) return `→${value.id}`;
  if (Array.isArray(value)) return depth > 0 ? `[${value.length}]` : `[${value.length}: ${value.slice(0, 3).map((v) => short(v, depth + 1)).join(', ')}${value.length > 3 ? ', …' : ''}]`;
  if (typeof value === 'object') {
    const keys = Object.keys(value);
    if (depth > 0) return `{${keys.length}}`;
    return `{${keys.map((k) => `${k}: ${SECRET_KEY.test(k) ? HIDDEN : short((value as Record<string, unknown>)[k], depth + 1)}`).join(', ')}}`;
  }
  return typeof value;
}

/** A context in one line: each key with its value, collections by size, actors by id. */
export function summarise(context: unknown): string {
  const text = short(context);
  return text.length > SUMMARY_LENGTH ? `${text.slice(0, SUMMARY_LENGTH - 1)}…` : text;
}

/** Events that carry a run of frames: only the first few are written out, then how many more. */
const ITEMS_WRITTEN = 3;

/** An event in one line (160 characters at most), its secrets hidden and actor refs left out. */
export function summariseEvent(event: unknown): string {
  const text = JSON.stringify(event, (key, value: unknown) => {
    if (typeof value === 'function') return 'ƒ';
    if (key === 'actorRef') return undefined;
    if (key && SECRET_KEY.test(key)) return HIDDEN;
    if (Array.isArray(value) && value.length > ITEMS_WRITTEN) return [...value.slice(0, ITEMS_WRITTEN), `…${value.length - ITEMS_WRITTEN} more`];
    return value;
  });
  return text && text.length > SUMMARY_LENGTH ? `${text.slice(0, SUMMARY_LENGTH - 1)}…` : (text ?? '');
}

export function stateValue(snapshot: unknown): string {
  const s = snapshot as { value?: unknown; status?: string } | undefined;
  if (s && 'value' in s && s.value !== undefined) return typeof s.value === 'string' ? s.value : JSON.stringify(s.value);
  return s?.status ?? '?';
}

/** A tracked actor as the panel shows it: its ids, state value, context summary and last events, newest first. */
export function describeActor({ ref, events }: TrackedActor): InspectedActor {
  const snapshot = ref.getSnapshot() as { status: string; context?: unknown };
  return {
    sessionId: ref.sessionId,
    // the root has no id of its own (x:0): its machine's id says what it is
    id: /^x:\d+$/.test(ref.id) ? ((ref as { logic?: { id?: string } }).logic?.id ?? ref.id) : ref.id,
    systemId: (ref as { systemId?: string }).systemId ?? null,
    parent: (ref as { _parent?: AnyActorRef })._parent?.id ?? null,
    status: snapshot.status,
    value: stateValue(snapshot),
    context: snapshot.context === undefined ? '' : summarise(snapshot.context),
    events: events.slice().reverse(),
  };
}

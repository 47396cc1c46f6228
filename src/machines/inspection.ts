import type { AnyActorRef, InspectionEvent } from 'xstate';

/**
 * What the in-app inspection panel shows, collected offline from createActor's `inspect` option:
 * every live actor (spawned item actors included), its state value, a short summary of its
 * context and its last 20 events. Kept cheap, since it sees every event of the running app:
 * it only stores references; summaries are made when the panel asks.
 */
export const EVENTS_KEPT = 20;

export interface InspectedEvent {
  type: string;
  /** The actor that sent it, when another actor did. */
  from: string | null;
  at: number;
  event: unknown;
}

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

interface Tracked {
  ref: AnyActorRef;
  events: InspectedEvent[];
}

const SUMMARY_LENGTH = 160;

function isActorRef(value: unknown): value is AnyActorRef {
  return typeof value === 'object' && value !== null && 'sessionId' in value && typeof (value as AnyActorRef).send === 'function';
}

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
    return `{${keys.map((k) => `${k}: ${short((value as Record<string, unknown>)[k], depth + 1)}`).join(', ')}}`;
  }
  return typeof value;
}

/** A context in one line: each key with its value, collections by size, actors by id. */
export function summarise(context: unknown): string {
  const text = short(context);
  return text.length > SUMMARY_LENGTH ? `${text.slice(0, SUMMARY_LENGTH - 1)}…` : text;
}

export function stateValue(snapshot: unknown): string {
  const s = snapshot as { value?: unknown; status?: string } | undefined;
  if (s && 'value' in s && s.value !== undefined) return typeof s.value === 'string' ? s.value : JSON.stringify(s.value);
  return s?.status ?? '?';
}

export interface Inspection {
  /** Give this to createActor's `inspect` option. */
  inspect(event: InspectionEvent): void;
  /** Every live actor, in the order they were created. */
  actors(): InspectedActor[];
  /** Also pass every inspection event to `observer` (the Stately inspector); events so far first. */
  forward(observer: (event: InspectionEvent) => void): void;
}

export function createInspection(options: { now?: () => number; keep?: number; buffer?: boolean } = {}): Inspection {
  const now = options.now ?? Date.now;
  const keep = options.keep ?? EVENTS_KEPT;
  const tracked = new Map<string, Tracked>();
  // events kept for an inspector that loads later, when asked to
  let early: InspectionEvent[] | null = options.buffer ? [] : null;
  let observer: ((event: InspectionEvent) => void) | null = null;
  let sinceSweep = 0;

  function sweep() {
    sinceSweep = 0;
    for (const [id, t] of tracked) if (t.ref.getSnapshot().status !== 'active') tracked.delete(id);
  }

  return {
    inspect(event) {
      early?.push(event);
      observer?.(event);
      if (event.type === '@xstate.actor') {
        tracked.set(event.actorRef.sessionId, { ref: event.actorRef as AnyActorRef, events: [] });
        if (++sinceSweep > 500) sweep();
      } else if (event.type === '@xstate.event') {
        const t = tracked.get(event.actorRef.sessionId);
        if (!t) return;
        const type = (event.event as { type?: unknown }).type;
        t.events.push({ type: typeof type === 'string' ? type : '?', from: (event.sourceRef as AnyActorRef | undefined)?.id ?? null, at: now(), event: event.event });
        if (t.events.length > keep) t.events.shift();
      }
    },
    actors() {
      sweep();
      return [...tracked.values()].map(({ ref, events }) => {
        const snapshot = ref.getSnapshot() as { status: string; context?: unknown };
        return {
          sessionId: ref.sessionId,
          id: ref.id,
          systemId: (ref as { systemId?: string }).systemId ?? null,
          parent: (ref as { _parent?: AnyActorRef })._parent?.id ?? null,
          status: snapshot.status,
          value: stateValue(snapshot),
          context: snapshot.context === undefined ? '' : summarise(snapshot.context),
          events: events.slice().reverse(),
        };
      });
    },
    forward(next) {
      observer = next;
      const past = early ?? [];
      early = null;
      for (const event of past) next(event);
    },
  };
}

import type { AnyActorRef, InspectionEvent } from 'xstate';

/**
 * What the in-app inspection panel shows, collected offline from createActor's `inspect` option:
 * every live actor (spawned item actors included) and its last 20 events. Kept small and cheap,
 * since it is in every page and sees every event of the running app: it only stores references;
 * the panel (inspection-view.ts, loaded with it) reads state values and summarises contexts.
 */
export const EVENTS_KEPT = 20;

export interface InspectedEvent {
  type: string;
  /** The actor that sent it, when another actor did. */
  from: string | null;
  at: number;
  event: unknown;
}

/** One live actor as collected: a reference and its last events (the panel summarises it). */
export interface TrackedActor {
  ref: AnyActorRef;
  events: InspectedEvent[];
}

export interface Inspection {
  /** Give this to createActor's `inspect` option. */
  inspect(event: InspectionEvent): void;
  /** Every live actor, in the order they were created. */
  actors(): TrackedActor[];
  /** Also pass every inspection event to `observer` (the Stately inspector); events so far first. */
  forward(observer: (event: InspectionEvent) => void): void;
}

export function createInspection(options: { now?: () => number; keep?: number; buffer?: boolean } = {}): Inspection {
  const now = options.now ?? Date.now;
  const keep = options.keep ?? EVENTS_KEPT;
  const tracked = new Map<string, TrackedActor>();
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
      return [...tracked.values()];
    },
    forward(next) {
      observer = next;
      const past = early ?? [];
      early = null;
      for (const event of past) next(event);
    },
  };
}

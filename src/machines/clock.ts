/**
 * Time in the machines comes only from the actor system's clock: the clock given to createActor
 * (a SimulatedClock in tests, the replay's clock in a replay, `liveClock` in the app). XState's
 * clock interface only sets and clears timeouts; ours also tells the time.
 */
export interface Clock {
  setTimeout(fn: (...args: unknown[]) => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
  now(): number;
}

/** The browser's (or Node's) own clock, for the live app. */
export const liveClock: Clock = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
  now: () => Date.now(),
};

/** The actor system's time (a system started without a clock of ours runs on real time). */
export function clockNow(system: unknown): number {
  const clock = (system as { _clock?: Partial<Clock> } | undefined)?._clock;
  return typeof clock?.now === 'function' ? clock.now() : Date.now();
}

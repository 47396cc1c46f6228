import { describe, expect, it } from 'vitest';
import { PassLoop } from '../../server/events/pass-loop';

/** A pass that waits until the test lets it end. */
function gatedPasses() {
  const gates: (() => void)[] = [];
  let started = 0;
  const pass = () => {
    started += 1;
    return new Promise<void>((resolve) => gates.push(resolve));
  };
  return { pass, gates, started: () => started };
}

describe('PassLoop', () => {
  it('folds the wakes during a pass into one more pass after it', async () => {
    const p = gatedPasses();
    const loop = new PassLoop(p.pass, { pollMs: 60_000, paused: false, onError: () => undefined });
    loop.wake();
    loop.wake();
    loop.wake();
    expect(p.started()).toBe(1);
    p.gates.shift()?.();
    await Promise.resolve();
    await new Promise(setImmediate);
    expect(p.started()).toBe(2);
    p.gates.shift()?.();
    await loop.idle();
    expect(p.started()).toBe(2);
    await loop.stop();
  });

  it('runs nothing when paused or stopped, and goes on after a pass that threw', async () => {
    let runs = 0;
    const errors: unknown[] = [];
    const paused = new PassLoop(async () => void (runs += 1), { pollMs: 60_000, paused: true, onError: (e) => errors.push(e) });
    paused.wake();
    await paused.idle();
    expect(runs).toBe(0);

    const failing = new PassLoop(
      async () => {
        runs += 1;
        throw new Error('boom');
      },
      { pollMs: 60_000, paused: false, onError: (e) => errors.push(e) },
    );
    failing.wake();
    await failing.idle();
    failing.wake();
    await failing.idle();
    expect(runs).toBe(2);
    expect(errors).toHaveLength(2);
    await failing.stop();
    expect(failing.stopped).toBe(true);
    failing.wake();
    await failing.idle();
    expect(runs).toBe(2);
  });
});

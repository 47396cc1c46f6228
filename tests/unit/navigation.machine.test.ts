import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor } from 'xstate';
import { navigationMachine } from '../../src/machines/navigation.machine';

function start() {
  const actor = createActor(navigationMachine, { clock: new SimulatedClock() }).start();
  return { actor, state: () => actor.getSnapshot().value };
}

describe('navigation machine', () => {
  it('starts collapsed', () => {
    expect(start().state()).toBe('collapsed');
  });

  it('TOGGLE expands and collapses again', () => {
    const t = start();
    t.actor.send({ type: 'TOGGLE' });
    expect(t.state()).toBe('expanded');
    t.actor.send({ type: 'TOGGLE' });
    expect(t.state()).toBe('collapsed');
  });

  it('OPEN expands, CLOSE collapses, each idempotent', () => {
    const t = start();
    t.actor.send({ type: 'OPEN' });
    t.actor.send({ type: 'OPEN' });
    expect(t.state()).toBe('expanded');
    t.actor.send({ type: 'CLOSE' });
    t.actor.send({ type: 'CLOSE' });
    expect(t.state()).toBe('collapsed');
  });

  it('a route change collapses an expanded menu', () => {
    const t = start();
    t.actor.send({ type: 'TOGGLE' });
    t.actor.send({ type: 'ROUTE_CHANGED', path: '/store' });
    expect(t.state()).toBe('collapsed');
  });

  it('a route change leaves a collapsed menu collapsed', () => {
    const t = start();
    t.actor.send({ type: 'ROUTE_CHANGED', path: '/' });
    expect(t.state()).toBe('collapsed');
  });
});

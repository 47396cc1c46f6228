import { setup } from 'xstate';

/** The drawer menu on narrow screens: collapsed or expanded; every route change collapses it. */
export type NavigationEvent = { type: 'TOGGLE' } | { type: 'OPEN' } | { type: 'CLOSE' } | { type: 'ROUTE_CHANGED'; path: string };

export const navigationMachine = setup({
  types: { events: {} as NavigationEvent },
}).createMachine({
  id: 'navigation',
  initial: 'collapsed',
  states: {
    collapsed: { on: { TOGGLE: 'expanded', OPEN: 'expanded' } },
    expanded: { on: { TOGGLE: 'collapsed', CLOSE: 'collapsed', ROUTE_CHANGED: 'collapsed' } },
  },
});

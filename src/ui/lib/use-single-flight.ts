import { useRef } from 'react';

interface Mutation<V> {
  mutate: (variables: V, options?: { onSettled?: () => void }) => void;
}

/**
 * A mutation's `mutate` that ignores a call while one of its calls is running: a double-click's
 * second click comes before React has re-rendered the button disabled, and would send the same
 * action twice (a season created twice, a bulk award's second apply refused over the first's
 * success). The flag is a ref, set at once, not state.
 */
export function useSingleFlight<V>(mutation: Mutation<V>): (variables: V) => void {
  const running = useRef(false);
  return (variables) => {
    if (running.current) return;
    running.current = true;
    mutation.mutate(variables, {
      onSettled: () => {
        running.current = false;
      },
    });
  };
}

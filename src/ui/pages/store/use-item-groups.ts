import { useSelector } from '@xstate/react';
import { useEffect, useMemo, useReducer } from 'react';
import type { BoardActor, ItemRef } from '../../../machines/board.machine';

/**
 * The board's items split into live (creation order, so cards never jump) and finished (most
 * recent first). It re-renders when an item starts or finishes, not on every bid: cards follow
 * their own item actor.
 */
export function useItemGroups(board: BoardActor): { live: ItemRef[]; finished: ItemRef[] } {
  const items = useSelector(board, (s) => s.context.items);
  const [version, bump] = useReducer((n: number) => n + 1, 0);

  useEffect(() => {
    const refs = Object.values(items);
    const phaseKey = () => refs.map((r) => (r.getSnapshot().matches('finished') ? 'f' : r.getSnapshot().matches('live') ? 'l' : 'n')).join('');
    let key = phaseKey();
    const subscriptions = refs.map((ref) =>
      ref.subscribe(() => {
        const next = phaseKey();
        if (next !== key) {
          key = next;
          bump();
        }
      }),
    );
    bump();
    return () => subscriptions.forEach((s) => s.unsubscribe());
  }, [items]);

  return useMemo(() => {
    void version;
    const refs = Object.values(items);
    const live = refs.filter((r) => r.getSnapshot().matches('live')).sort((a, b) => a.getSnapshot().context.itemId - b.getSnapshot().context.itemId);
    const finished = refs
      .filter((r) => r.getSnapshot().matches('finished'))
      .sort((a, b) => b.getSnapshot().context.endsAt - a.getSnapshot().context.endsAt);
    return { live, finished };
  }, [items, version]);
}

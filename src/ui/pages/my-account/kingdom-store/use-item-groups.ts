import { useSelector } from '@xstate/react';
import type { BoardActor, ItemRef } from '../../../../machines/board.machine';
import { sameRefs, selectFinished, selectLive, serverTime } from '../../../../machines/board.machine';
import { useChild } from '../../../app-context';
import { useNow } from '../../../lib/use-now';

/**
 * The board's items split into live (in id order, so cards never jump) and finished (most recently
 * finished first), as the board keeps them: cards follow their own item actor.
 */
export function useItemGroups(board: BoardActor): { live: ItemRef[]; finished: ItemRef[] } {
  // both lists change only when an item starts, finishes or leaves the board: not on every bid
  const live = useSelector(board, selectLive, sameRefs);
  const finished = useSelector(board, selectFinished, sameRefs);
  return { live, finished };
}

/** Server time as the board estimates it (the actor system's clock plus the board's offset), refreshed every second. */
export function useServerNow(): number {
  const offset = useSelector(useChild('board'), (s) => s.context.serverOffset);
  return serverTime({ serverOffset: offset }, useNow());
}

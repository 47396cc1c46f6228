import { useSelector } from '@xstate/react';
import type { BoardActor, BoardContext, ItemRef } from '../../../machines/board.machine';
import { serverTime } from '../../../machines/board.machine';
import { useChild } from '../../app-context';
import { useNow } from '../../lib/use-now';

/** Both lists change only when an item starts, finishes or leaves the board: not on every bid. */
const sameRefs = (a: ItemRef[], b: ItemRef[]) => a.length === b.length && a.every((ref, i) => ref === b[i]);

const liveRefs = ({ items, live }: BoardContext) => live.flatMap((id) => items[String(id)] ?? []);
const finishedRefs = ({ items, finished }: BoardContext) => finished.flatMap((id) => items[String(id)] ?? []);

/**
 * The board's items split into live (in id order, so cards never jump) and finished (most recently
 * finished first), as the board keeps them: cards follow their own item actor.
 */
export function useItemGroups(board: BoardActor): { live: ItemRef[]; finished: ItemRef[] } {
  const live = useSelector(board, (s) => liveRefs(s.context), sameRefs);
  const finished = useSelector(board, (s) => finishedRefs(s.context), sameRefs);
  return { live, finished };
}

/** Server time as the board estimates it (the actor system's clock plus the board's offset), refreshed every second. */
export function useServerNow(): number {
  const offset = useSelector(useChild('board'), (s) => s.context.serverOffset);
  return serverTime({ serverOffset: offset }, useNow());
}

import { SimulatedClock, createActor, fromPromise, setup } from 'xstate';
import type { OutgoingFrame, ServerMsg } from '../../../src/protocol/socket';
import type { StoreItem } from '../../../src/protocol/store';
import { boardMachine, type BoardActor, type BoardOutEvent } from '../../../src/machines/board.machine';

/**
 * A board under test: spawned by a stand-in parent (the board talks to its parent with
 * BOARD.SEND), on a simulated clock: the actor system's clock, which the board reads.
 */
const harness = setup({
  types: { events: {} as BoardOutEvent },
  actors: { board: boardMachine },
  actions: { record: (_, _frame: OutgoingFrame) => {} },
}).createMachine({
  id: 'harness',
  invoke: { id: 'board', src: 'board' },
  on: { 'BOARD.SEND': { actions: { type: 'record', params: ({ event }) => event.frame } } },
});

/**
 * `fetchUpcoming`: what the board's fetch of the upcoming items answers (the REST call the app
 * provides); by default it fails, as the board's own default does.
 */
export function startBoard(options: { localStart?: number; fetchUpcoming?: () => Promise<StoreItem[]> } = {}) {
  const clock = new SimulatedClock();
  if (options.localStart) clock.set(options.localStart);
  const sent: OutgoingFrame[] = [];
  let requests = 0;
  const fetchUpcoming = options.fetchUpcoming;
  const machine = harness.provide({
    actions: { record: (_, frame) => void sent.push(frame) },
    ...(fetchUpcoming ? { actors: { board: boardMachine.provide({ actors: { fetchUpcoming: fromPromise(() => fetchUpcoming()) } }) } } : {}),
  });
  const parent = createActor(machine, { clock }).start();
  const board = parent.getSnapshot().children.board as BoardActor;
  return {
    clock,
    parent,
    board,
    sent,
    ctx: () => board.getSnapshot().context,
    server: (msg: ServerMsg) => board.send({ type: 'SERVER', frames: [{ event: { type: 'message', msg } }] }),
    /** A bid as the bid box places it: with a fresh request id (req-1, req-2, …). */
    bid: (itemId: number | string, amount: number) => board.send({ type: 'PLACE_BID', itemId, amount, requestId: `req-${++requests}` }),
    item: (itemId: number) => board.getSnapshot().context.items[String(itemId)],
    project: () => projectBoard(board),
  };
}

/** The plain-object board a player sees: what two folds of one log must agree on. */
export function projectBoard(board: BoardActor) {
  const { connected, latestBids, items } = board.getSnapshot().context;
  return {
    connected,
    latestBids: latestBids.map((b) => ({ ...b })),
    items: Object.fromEntries(
      Object.keys(items)
        .sort()
        .map((key) => {
          const snapshot = items[key].getSnapshot();
          const { itemId, itemName, amount, username, endsAt } = snapshot.context;
          return [key, { itemId, itemName, amount, username, state: snapshot.value, endsAt }];
        }),
    ),
  };
}

/** One line of a recorded auction log: a server frame `t` ms (local clock) after the start. */
export interface LogEntry {
  t: number;
  msg: ServerMsg;
}

/**
 * Folds a recorded log into a fresh board, as the replayer does: the clock moves to each frame's
 * time, the frame goes in; at the end the clock moves to `until`.
 */
export function fold(log: LogEntry[], options: { until: number; localStart?: number; connected?: boolean }) {
  const localStart = options.localStart ?? 0;
  const t = startBoard({ localStart });
  if (options.connected) t.board.send({ type: 'CONNECTED', connected: true });
  for (const entry of log) {
    t.clock.set(localStart + entry.t);
    t.server(entry.msg);
  }
  t.clock.set(localStart + options.until);
  return t;
}

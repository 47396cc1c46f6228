import { enqueueActions, setup, type ActorRefFrom } from 'xstate';
import type { Channel } from '../protocol/socket';
import { boardEventFor, boardMachine, type BoardOutEvent } from './board.machine';
import { connectionMachine, connectionWith, type ConnectionOutEvent, type CreateSocket } from './connection.machine';

/**
 * The root of a replay: the live app's connection machines (one per socket) and board machine,
 * wired as the app machine wires them, with the sockets replaced by the recorded log. What the
 * log's frames do to the board, its connected flag included, is what they did live. Auth,
 * notifications and sounds are left out: they do not shape the board.
 */

export const REPLAY_TOKEN = 'replay';
export const replayUrl = (channel: Channel) => `replay://${channel}`;

export const replayMachine = setup({
  types: {
    context: {} as {
      connections: Record<Channel, ActorRefFrom<typeof connectionMachine>>;
      board: ActorRefFrom<typeof boardMachine>;
    },
    events: {} as ConnectionOutEvent | BoardOutEvent,
  },
  actors: { connection: connectionMachine, board: boardMachine },
  actions: {
    /** The board hears what it heard live; whether the sockets are connected is the connections' own state. */
    tellBoard: enqueueActions(({ context, event, enqueue }) => {
      if (event.type === 'BOARD.SEND') return;
      const toBoard = boardEventFor(event);
      if (toBoard) enqueue.sendTo(context.board, toBoard);
    }),
  },
}).createMachine({
  id: 'replay',
  context: ({ spawn }) => ({
    connections: {
      auction: spawn('connection', {
        id: 'connection.auction',
        systemId: 'connection.auction',
        input: { channel: 'auction', url: replayUrl('auction'), token: REPLAY_TOKEN },
      }),
      user: spawn('connection', {
        id: 'connection.user',
        systemId: 'connection.user',
        input: { channel: 'user', url: replayUrl('user'), token: REPLAY_TOKEN },
      }),
    },
    // a replay never sends a bid: the recorded ones are in the log as they were sent
    board: spawn('board', { id: 'board', systemId: 'board' }),
  }),
  on: {
    'CONNECTION.STATUS': { actions: 'tellBoard' },
    'CONNECTION.MESSAGES': { actions: 'tellBoard' },
  },
});

export type ReplayActor = ActorRefFrom<typeof replayMachine>;

/** A replay's machines with their sockets made by `createSocket` (the log plays into them). */
export const replayWith = (createSocket: CreateSocket) => replayMachine.provide({ actors: { connection: connectionWith(createSocket) } });

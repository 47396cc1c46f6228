import { assign, enqueueActions, fromCallback, sendParent, sendTo, setup } from 'xstate';
import type { Channel, ClientFrame, ServerMsg } from '../protocol/socket';
import { MSG } from '../protocol/socket';
import type { ProtocolEvent } from '../streams/normalise';
import type { SocketHandle } from '../streams/socket';

/**
 * One socket's connection: connecting → authenticating → connected → disconnected → retry with
 * backoff. It authenticates with the token it was given, forwards every server message to its
 * parent and reconnects after a drop. Time comes only from the actor system's clock.
 */
export interface ConnectionInput {
  channel: Channel;
  url: string;
  token: string | null;
  createSocket: (url: string) => SocketHandle;
}

export type ConnectionEvent =
  | { type: 'TOKEN'; token: string | null }
  | { type: 'SEND'; frame: ClientFrame }
  | { type: 'RETRY_NOW' }
  | { type: 'SOCKET_OPEN' }
  | { type: 'SOCKET_CLOSE'; code: number }
  | { type: 'SOCKET_EVENT'; event: ProtocolEvent };

/** What a connection tells its parent. */
export type ConnectionOutEvent =
  | { type: 'CONNECTION.MESSAGE'; channel: Channel; msg: ServerMsg }
  | { type: 'CONNECTION.PROTOCOL_ERROR'; channel: Channel; event: Extract<ProtocolEvent, { type: 'protocol-error' }> }
  | { type: 'CONNECTION.STATUS'; channel: Channel; connected: boolean }
  | { type: 'CONNECTION.UNAUTHORIZED'; channel: Channel };

export const BACKOFF_BASE_MS = 1000;
export const BACKOFF_MAX_MS = 30_000;
/** A server that opens the socket but never answers AUTHENTICATION is treated as a drop. */
export const AUTH_TIMEOUT_MS = 10_000;
/** The server closes with this code when a token is not (or no longer) valid. */
export const CLOSE_UNAUTHORIZED = 4401;

export function backoffDelay(attempt: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempt - 1));
}

const socketActor = fromCallback<
  { type: 'SEND'; frame: ClientFrame },
  { url: string; createSocket: (url: string) => SocketHandle }
>(({ input, sendBack, receive }) => {
  const handle = input.createSocket(input.url);
  const subscription = handle.events$.subscribe((ev) => {
    if (ev.kind === 'open') sendBack({ type: 'SOCKET_OPEN' });
    else if (ev.kind === 'close') sendBack({ type: 'SOCKET_CLOSE', code: ev.code });
    else sendBack({ type: 'SOCKET_EVENT', event: ev.event });
  });
  receive((event) => {
    handle.send(event.frame);
  });
  return () => subscription.unsubscribe();
});

function isAuthenticatedAnswer(channel: Channel, msg: ServerMsg): boolean {
  return channel === 'auction' ? msg.type === MSG.HISTORY : msg.type === MSG.STATUS;
}

function isUnauthenticated(event: ConnectionEvent): boolean {
  return (
    event.type === 'SOCKET_EVENT' &&
    event.event.type === 'message' &&
    event.event.msg.type === MSG.ERROR &&
    event.event.msg.error_type === 'UNAUTHENTICATED'
  );
}

export const connectionMachine = setup({
  types: {
    input: {} as ConnectionInput,
    context: {} as ConnectionInput & { attempt: number; lastCloseCode: number | null },
    events: {} as ConnectionEvent,
  },
  actors: { socket: socketActor },
  delays: {
    backoff: ({ context }) => backoffDelay(context.attempt),
  },
  guards: {
    hasToken: ({ context }) => context.token !== null,
    tokenGiven: ({ event }) => event.type === 'TOKEN' && event.token !== null,
    authenticatedAnswer: ({ context, event }) =>
      event.type === 'SOCKET_EVENT' && event.event.type === 'message' && isAuthenticatedAnswer(context.channel, event.event.msg),
    unauthenticated: ({ event }) => isUnauthenticated(event),
    closedUnauthorized: ({ event }) => event.type === 'SOCKET_CLOSE' && event.code === CLOSE_UNAUTHORIZED,
  },
  actions: {
    forward: sendParent(({ context, event }): ConnectionOutEvent => {
      if (event.type !== 'SOCKET_EVENT') throw new Error('forward needs a socket event');
      return event.event.type === 'message'
        ? { type: 'CONNECTION.MESSAGE', channel: context.channel, msg: event.event.msg }
        : { type: 'CONNECTION.PROTOCOL_ERROR', channel: context.channel, event: event.event };
    }),
    announceConnected: sendParent(({ context }): ConnectionOutEvent => ({ type: 'CONNECTION.STATUS', channel: context.channel, connected: true })),
    announceDisconnected: sendParent(({ context }): ConnectionOutEvent => ({ type: 'CONNECTION.STATUS', channel: context.channel, connected: false })),
    announceUnauthorized: sendParent(({ context }): ConnectionOutEvent => ({ type: 'CONNECTION.UNAUTHORIZED', channel: context.channel })),
    authenticate: sendTo('socket', ({ context }) => ({
      type: 'SEND' as const,
      frame: { type: MSG.AUTHENTICATION, access_token: `Bearer ${context.token}` },
    })),
    requestStatus: sendTo('socket', () => ({ type: 'SEND' as const, frame: { type: MSG.GET_STATUS } })),
    sendFrame: sendTo('socket', ({ event }) => {
      if (event.type !== 'SEND') throw new Error('sendFrame needs SEND');
      return { type: 'SEND' as const, frame: event.frame };
    }),
    setToken: assign({ token: ({ event }) => (event.type === 'TOKEN' ? event.token : null) }),
    countAttempt: assign({ attempt: ({ context }) => context.attempt + 1 }),
    resetAttempts: assign({ attempt: 0 }),
    rememberClose: assign({ lastCloseCode: ({ event }) => (event.type === 'SOCKET_CLOSE' ? event.code : null) }),
  },
}).createMachine({
  id: 'connection',
  context: ({ input }) => ({ ...input, attempt: 0, lastCloseCode: null }),
  initial: 'idle',
  on: {
    TOKEN: [
      { guard: 'tokenGiven', target: '.online', reenter: true, actions: ['setToken', 'resetAttempts'] },
      { target: '.idle', actions: ['setToken', 'resetAttempts'] },
    ],
  },
  states: {
    idle: {
      always: { guard: 'hasToken', target: 'online' },
    },
    online: {
      invoke: {
        id: 'socket',
        src: 'socket',
        input: ({ context }) => ({ url: context.url, createSocket: context.createSocket }),
      },
      on: {
        SOCKET_CLOSE: [
          { guard: 'closedUnauthorized', target: 'unauthorized', actions: 'rememberClose' },
          { target: 'disconnected', actions: 'rememberClose' },
        ],
      },
      initial: 'connecting',
      states: {
        connecting: {
          on: { SOCKET_OPEN: 'authenticating' },
        },
        authenticating: {
          entry: enqueueActions(({ context, enqueue }) => {
            enqueue('authenticate');
            if (context.channel === 'user') enqueue('requestStatus');
          }),
          after: { [AUTH_TIMEOUT_MS]: '#connection.disconnected' },
          on: {
            SEND: { actions: 'sendFrame' },
            SOCKET_EVENT: [
              { guard: 'unauthenticated', target: '#connection.unauthorized', actions: 'forward' },
              { guard: 'authenticatedAnswer', target: 'connected', actions: 'forward' },
              { actions: 'forward' },
            ],
          },
        },
        connected: {
          entry: ['resetAttempts', 'announceConnected'],
          exit: 'announceDisconnected',
          on: {
            SEND: { actions: 'sendFrame' },
            SOCKET_EVENT: { actions: 'forward' },
          },
        },
      },
    },
    disconnected: {
      entry: 'countAttempt',
      after: { backoff: 'online' },
      on: { RETRY_NOW: 'online' },
    },
    /** The server refused the token: no retry until a new token comes. */
    unauthorized: {
      entry: 'announceUnauthorized',
    },
  },
});

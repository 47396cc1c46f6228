import { assertEvent, assign, enqueueActions, fromCallback, sendParent, sendTo, setup } from 'xstate';
import type { Channel, OutgoingFrame, ServerMsg } from '../protocol/socket';
import { MSG } from '../protocol/socket';
import type { ProtocolEvent } from '../streams/normalise';
import type { Frame, SocketHandle } from '../streams/socket';

/**
 * One socket's connection: connecting → authenticating → connected → disconnected → retry with
 * backoff. It authenticates with the token it was given, forwards every server message to its
 * parent and reconnects after a drop. Time comes only from the actor system's clock. The auction
 * and user sockets use it as it is; another socket (the admins' bot watch, bot-watch.machine.ts)
 * provides its own socket, its "authenticated" answer and its refusal through `.provide()`.
 */
/** The sockets a connection may be: the app's two, and the bot watch. */
export type ConnectionChannel = Channel | 'bots';

export interface ConnectionInput {
  channel: ConnectionChannel;
  url: string;
  token: string | null;
}

/** Opens a socket for a URL: the live factory (streams/socket.ts), a replay's, or a test's. */
export type CreateSocket = (url: string) => SocketHandle;

export type ConnectionEvent =
  | { type: 'TOKEN'; token: string | null }
  | { type: 'SEND'; frame: OutgoingFrame }
  | { type: 'RETRY_NOW' }
  | { type: 'SOCKET_OPEN' }
  | { type: 'SOCKET_CLOSE'; code: number }
  | { type: 'SOCKET_FRAMES'; frames: readonly Frame[] }
  /** One of a batch's frames, taken on its own while the connection is not yet authenticated. */
  | { type: 'SOCKET_FRAME'; frame: Frame };

/** A frame that is a server message; `at` is the local time it arrived when that is not now (a replayed frame). */
export type MessageFrame = Frame & { event: Extract<ProtocolEvent, { type: 'message' }> };

const isMessageFrame = (frame: Frame): frame is MessageFrame => frame.event.type === 'message';

/** What a connection tells its parent. */
export type ConnectionOutEvent =
  /** Messages in the order they came: one live, a run of them in a replay. */
  | { type: 'CONNECTION.MESSAGES'; channel: ConnectionChannel; frames: readonly MessageFrame[] }
  /** Frames that were not valid messages (not JSON, not text, or not the contract), in order. */
  | { type: 'CONNECTION.PROTOCOL_ERRORS'; channel: ConnectionChannel; errors: readonly Extract<ProtocolEvent, { type: 'protocol-error' }>[] }
  | { type: 'CONNECTION.STATUS'; channel: ConnectionChannel; connected: boolean }
  | { type: 'CONNECTION.UNAUTHORIZED'; channel: ConnectionChannel };

export const BACKOFF_BASE_MS = 1000;
export const BACKOFF_MAX_MS = 30_000;
/** A server that opens the socket but never answers AUTHENTICATION is treated as a drop. */
export const AUTH_TIMEOUT_MS = 10_000;
/** The server closes with this code when a token is not (or no longer) valid. */
export const CLOSE_UNAUTHORIZED = 4401;

export function backoffDelay(attempt: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempt - 1));
}

/** The socket as an actor, over a socket factory (given through `.provide()`, so no function lives in context). */
export const socketActor = (createSocket: CreateSocket) =>
  fromCallback<{ type: 'SEND'; frame: OutgoingFrame }, { url: string }>(({ input, sendBack, receive }) => {
  const handle = createSocket(input.url);
  const subscription = handle.events$.subscribe((ev) => {
    if (ev.kind === 'open') sendBack({ type: 'SOCKET_OPEN' });
    else if (ev.kind === 'close') sendBack({ type: 'SOCKET_CLOSE', code: ev.code });
    else sendBack({ type: 'SOCKET_FRAMES', frames: ev.frames });
  });
  receive((event) => {
    handle.send(event.frame);
  });
  return () => subscription.unsubscribe();
  });

function isAuthenticatedAnswer(channel: ConnectionChannel, msg: ServerMsg): boolean {
  return channel === 'auction' ? msg.type === MSG.HISTORY : msg.type === MSG.STATUS;
}

function isUnauthenticated(event: ConnectionEvent): boolean {
  if (event.type !== 'SOCKET_FRAME') return false;
  const { event: frame } = event.frame;
  return frame.type === 'message' && frame.msg.type === MSG.ERROR && frame.msg.error_type === 'UNAUTHENTICATED';
}

/**
 * Messages go to the parent together, in their order (the frames themselves, not copies), then
 * the protocol errors together: what a bad frame says does not depend on the messages around it.
 */
function forwardFrames(channel: ConnectionChannel, frames: readonly Frame[], send: (event: ConnectionOutEvent) => void) {
  const messages = frames.every(isMessageFrame) ? frames : frames.filter(isMessageFrame);
  if (messages.length > 0) send({ type: 'CONNECTION.MESSAGES', channel, frames: messages });
  if (messages.length === frames.length) return;
  const errors: Extract<ProtocolEvent, { type: 'protocol-error' }>[] = [];
  for (const { event } of frames) if (event.type === 'protocol-error') errors.push(event);
  send({ type: 'CONNECTION.PROTOCOL_ERRORS', channel, errors });
}

export const connectionMachine = setup({
  types: {
    input: {} as ConnectionInput,
    context: {} as ConnectionInput & { attempt: number; lastCloseCode: number | null },
    events: {} as ConnectionEvent,
  },
  actors: {
    socket: socketActor(() => {
      throw new Error('connection: no socket factory (provide one with connectionWith)');
    }),
  },
  delays: {
    backoff: ({ context }) => backoffDelay(context.attempt),
  },
  guards: {
    hasToken: ({ context }) => context.token !== null,
    tokenGiven: ({ event }) => event.type === 'TOKEN' && event.token !== null,
    authenticatedAnswer: ({ context, event }) =>
      event.type === 'SOCKET_FRAME' && event.frame.event.type === 'message' && isAuthenticatedAnswer(context.channel, event.frame.event.msg),
    unauthenticated: ({ event }) => isUnauthenticated(event),
    closedUnauthorized: ({ event }) => event.type === 'SOCKET_CLOSE' && event.code === CLOSE_UNAUTHORIZED,
  },
  actions: {
    forward: enqueueActions(({ context, event, enqueue }) => {
      const frames = event.type === 'SOCKET_FRAMES' ? event.frames : event.type === 'SOCKET_FRAME' ? [event.frame] : [];
      forwardFrames(context.channel, frames, (out) => enqueue.sendParent(out));
    }),
    /** Before the server's answer every frame may change the state: one at a time, in order. */
    oneByOne: enqueueActions(({ event, enqueue }) => {
      if (event.type !== 'SOCKET_FRAMES') return;
      for (const frame of event.frames) enqueue.raise({ type: 'SOCKET_FRAME', frame });
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
      assertEvent(event, 'SEND');
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
        input: ({ context }) => ({ url: context.url }),
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
            SOCKET_FRAMES: { actions: 'oneByOne' },
            SOCKET_FRAME: [
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
            SOCKET_FRAMES: { actions: 'forward' },
            SOCKET_FRAME: { actions: 'forward' },
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

/** The connection machine with its sockets made by `createSocket`. */
export const connectionWith = (createSocket: CreateSocket) => connectionMachine.provide({ actors: { socket: socketActor(createSocket) } });

/** Whether a connection's socket is open and authenticated: the one source of "connected" (the top bar, the bid box). */
export const isConnected = (snapshot: { matches: (value: { online: 'connected' }) => boolean }) => snapshot.matches({ online: 'connected' });

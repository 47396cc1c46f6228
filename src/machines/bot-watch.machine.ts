import { assign, fromCallback, sendTo, setup } from 'xstate';
import { BOT_CLOSE, BOT_MSG, LOG_LEVELS, type LogLevel, type WatchMsg } from '../protocol/bots';
import type { WatchFrame, WatchSocketHandle } from '../streams/bot-watch';
import { backoffDelay } from './connection.machine';
import { emptyMonitor, foldMonitor, type LineFilter, type MonitorState } from './bot-monitor';

/**
 * The admins' bot connection: connecting → authenticating → connected → disconnected → retry with
 * backoff (unauthorized stops it), folding every watch message into the monitor (bot-monitor.ts).
 * The pages' own choices live here too (pause, filter), so a session replays to what was seen.
 * Context is plain JSON; the socket is an actor provided by `botWatchMachineFor`; time comes only
 * from the actor system's clock (the backoff's delays).
 */
export interface BotWatchInput {
  url: string;
  token: string | null;
}

export interface BotWatchContext extends BotWatchInput {
  attempt: number;
  monitor: MonitorState;
  /** The seq of the last line shown when the monitor was paused; null while it follows. */
  pausedAt: number | null;
  filter: LineFilter;
  lastCloseCode: number | null;
}

export type BotWatchEvent =
  | { type: 'TOKEN'; token: string | null }
  | { type: 'RETRY_NOW' }
  | { type: 'PAUSE' }
  | { type: 'RESUME' }
  | { type: 'FILTER'; botId?: number | null; levels?: LogLevel[] }
  | { type: 'SOCKET_OPEN' }
  | { type: 'SOCKET_CLOSE'; code: number }
  | { type: 'SOCKET_FRAMES'; frames: readonly WatchFrame[] };

const messagesOf = (frames: readonly WatchFrame[]): WatchMsg[] => {
  const out: WatchMsg[] = [];
  for (const f of frames) if (f.event.type === 'message') out.push(f.event.msg);
  return out;
};

export const botWatchMachine = setup({
  types: {
    input: {} as BotWatchInput,
    context: {} as BotWatchContext,
    events: {} as BotWatchEvent,
  },
  actors: {
    // replaced by botWatchMachineFor with one that opens the real (or a replayed) socket
    socket: fromCallback<{ type: 'SEND'; token: string }, { url: string }>(() => undefined),
  },
  delays: { backoff: ({ context }) => backoffDelay(context.attempt) },
  guards: {
    hasToken: ({ context }) => context.token !== null,
    refused: ({ event }) => event.type === 'SOCKET_CLOSE' && (event.code === BOT_CLOSE.unauthorized || event.code === BOT_CLOSE.revoked),
    snapshot: ({ event }) => event.type === 'SOCKET_FRAMES' && messagesOf(event.frames).some((m) => m.type === BOT_MSG.BOTS_SNAPSHOT),
  },
  actions: {
    fold: assign({
      monitor: ({ context, event }) => (event.type === 'SOCKET_FRAMES' ? messagesOf(event.frames).reduce(foldMonitor, context.monitor) : context.monitor),
    }),
    authenticate: sendTo('socket', ({ context }) => ({ type: 'SEND' as const, token: context.token ?? '' })),
    notReady: assign({ monitor: ({ context }) => ({ ...context.monitor, ready: false }) }),
    countAttempt: assign({ attempt: ({ context }) => context.attempt + 1 }),
    resetAttempts: assign({ attempt: 0 }),
    rememberClose: assign({ lastCloseCode: ({ event }) => (event.type === 'SOCKET_CLOSE' ? event.code : null) }),
  },
}).createMachine({
  id: 'botWatch',
  context: ({ input }) => ({
    ...input,
    attempt: 0,
    monitor: emptyMonitor(),
    pausedAt: null,
    filter: { botId: null, levels: [...LOG_LEVELS] },
    lastCloseCode: null,
  }),
  initial: 'idle',
  on: {
    TOKEN: { target: '.idle', reenter: true, actions: [assign({ token: ({ event }) => event.token }), 'resetAttempts'] },
    PAUSE: { actions: assign({ pausedAt: ({ context }) => context.pausedAt ?? (context.monitor.lines.at(-1)?.seq ?? 0) }) },
    RESUME: { actions: assign({ pausedAt: null }) },
    FILTER: {
      actions: assign({
        filter: ({ context, event }) => ({
          botId: event.botId === undefined ? context.filter.botId : event.botId,
          levels: event.levels ?? context.filter.levels,
        }),
      }),
    },
  },
  states: {
    idle: { always: { guard: 'hasToken', target: 'online' } },
    online: {
      invoke: { id: 'socket', src: 'socket', input: ({ context }) => ({ url: context.url }) },
      exit: 'notReady',
      on: {
        SOCKET_CLOSE: [
          { guard: 'refused', target: 'unauthorized', actions: 'rememberClose' },
          { target: 'disconnected', actions: 'rememberClose' },
        ],
      },
      initial: 'connecting',
      states: {
        connecting: { on: { SOCKET_OPEN: 'authenticating' } },
        authenticating: {
          entry: 'authenticate',
          on: {
            SOCKET_FRAMES: [{ guard: 'snapshot', target: 'connected', actions: 'fold' }, { actions: 'fold' }],
          },
        },
        connected: {
          entry: 'resetAttempts',
          on: { SOCKET_FRAMES: { actions: 'fold' } },
        },
      },
    },
    disconnected: {
      entry: 'countAttempt',
      after: { backoff: 'online' },
      on: { RETRY_NOW: 'online' },
    },
    unauthorized: {
      on: { RETRY_NOW: 'online' },
    },
  },
});

/** The machine with its socket: `createSocket` opens the watch socket (the real one, mock-socket's, or a replay). */
export function botWatchMachineFor(createSocket: (url: string) => WatchSocketHandle) {
  return botWatchMachine.provide({
    actors: {
      socket: fromCallback<{ type: 'SEND'; token: string }, { url: string }>(({ input, sendBack, receive }) => {
        const handle = createSocket(input.url);
        const subscription = handle.events$.subscribe((ev) => {
          if (ev.kind === 'open') sendBack({ type: 'SOCKET_OPEN' });
          else if (ev.kind === 'close') sendBack({ type: 'SOCKET_CLOSE', code: ev.code });
          else sendBack({ type: 'SOCKET_FRAMES', frames: ev.frames });
        });
        receive((event) => {
          handle.send({ type: 'AUTHENTICATION', access_token: `Bearer ${event.token}` });
        });
        return () => subscription.unsubscribe();
      }),
    },
  });
}

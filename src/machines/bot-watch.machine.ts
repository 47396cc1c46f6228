import { assign, sendTo, setup } from 'xstate';
import { BOT_CLOSE, BOT_MSG, LOG_LEVELS, type LogLevel, type WatchMsg } from '../protocol/bots';
import type { WatchFrame, WatchSocketHandle } from '../streams/bot-watch';
import { connectionMachine, socketActor, type ConnectionOutEvent, type CreateSocket } from './connection.machine';
import { emptyMonitor, foldMonitor, type LineFilter, type MonitorState } from './bot-monitor';

/**
 * The admins' bot watch: the app's connection machine (connection.machine.ts) on the watch socket,
 * with the watch's own "authenticated" answer (the bots' snapshot) and refusals (its close codes),
 * and every watch message folded into the monitor (bot-monitor.ts). Its states follow the
 * connection's: connecting, connected, disconnected (retrying with backoff), unauthorized (stopped
 * until a new token). The pages' own choices live here too (pause, filter), so a session replays
 * to what was seen. Context is plain JSON; the socket comes in through `botWatchMachineFor`.
 */
export interface BotWatchInput {
  url: string;
  token: string | null;
}

export interface BotWatchContext extends BotWatchInput {
  monitor: MonitorState;
  /** The seq of the last line shown when the monitor was paused; null while it follows. */
  pausedAt: number | null;
  filter: LineFilter;
}

export type BotWatchEvent =
  | { type: 'TOKEN'; token: string | null }
  | { type: 'RETRY_NOW' }
  | { type: 'PAUSE' }
  | { type: 'RESUME' }
  | { type: 'FILTER'; botId?: number | null; levels?: LogLevel[] }
  | ConnectionOutEvent;

/** The watch messages of a run of frames (the connection forwards only messages; on this socket they are the watch's). */
const messagesOf = (frames: readonly WatchFrame[]): WatchMsg[] => {
  const out: WatchMsg[] = [];
  for (const f of frames) if (f.event.type === 'message') out.push(f.event.msg);
  return out;
};

/** The connection machine on the watch socket: authenticated once the bots' snapshot comes, refused by the watch's close codes. */
export function watchConnectionFor(createSocket: (url: string) => WatchSocketHandle) {
  return connectionMachine.provide({
    actors: { socket: socketActor(createSocket as unknown as CreateSocket) },
    guards: {
      authenticatedAnswer: ({ event }) => event.type === 'SOCKET_FRAME' && messagesOf([event.frame as unknown as WatchFrame]).some((m) => m.type === BOT_MSG.BOTS_SNAPSHOT),
      // the watch refuses by closing, never by an ERROR frame
      unauthenticated: () => false,
      closedUnauthorized: ({ event }) => event.type === 'SOCKET_CLOSE' && (event.code === BOT_CLOSE.unauthorized || event.code === BOT_CLOSE.revoked),
    },
  });
}

export const botWatchMachine = setup({
  types: {
    input: {} as BotWatchInput,
    context: {} as BotWatchContext,
    events: {} as BotWatchEvent,
  },
  actors: {
    // replaced by botWatchMachineFor with the connection on the real (or a replayed) socket
    connection: connectionMachine,
  },
  guards: {
    hasToken: ({ context }) => context.token !== null,
    connected: ({ event }) => event.type === 'CONNECTION.STATUS' && event.connected,
  },
  actions: {
    fold: assign({
      monitor: ({ context, event }) => (event.type === 'CONNECTION.MESSAGES' ? messagesOf(event.frames as unknown as readonly WatchFrame[]).reduce(foldMonitor, context.monitor) : context.monitor),
    }),
    notReady: assign({ monitor: ({ context }) => ({ ...context.monitor, ready: false }) }),
  },
}).createMachine({
  id: 'botWatch',
  context: ({ input }) => ({
    ...input,
    monitor: emptyMonitor(),
    pausedAt: null,
    filter: { botId: null, levels: [...LOG_LEVELS] },
  }),
  invoke: { id: 'connection', src: 'connection', input: ({ context }) => ({ channel: 'bots' as const, url: context.url, token: context.token }) },
  initial: 'idle',
  on: {
    TOKEN: { target: '.idle', reenter: true, actions: [assign({ token: ({ event }) => event.token }), sendTo('connection', ({ event }) => event)] },
    RETRY_NOW: { actions: sendTo('connection', { type: 'RETRY_NOW' }) },
    'CONNECTION.MESSAGES': { actions: 'fold' },
    'CONNECTION.STATUS': [{ guard: 'connected', target: '.online.connected' }, { target: '.disconnected', actions: 'notReady' }],
    'CONNECTION.UNAUTHORIZED': { target: '.unauthorized', actions: 'notReady' },
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
      initial: 'connecting',
      states: {
        connecting: {},
        connected: {},
      },
    },
    /** The socket dropped: the connection retries with backoff. */
    disconnected: {},
    /** The server refused the token: nothing more until a new one. */
    unauthorized: {},
  },
});

/** The machine with its socket: `createSocket` opens the watch socket (the real one, mock-socket's, or a replay). */
export function botWatchMachineFor(createSocket: (url: string) => WatchSocketHandle) {
  return botWatchMachine.provide({ actors: { connection: watchConnectionFor(createSocket) } });
}

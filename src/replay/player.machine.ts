import { assign, fromCallback, sendTo, setup, type ActorRefFrom } from 'xstate';
import type { BoardView } from '../auction/board-view';
import { clockNow } from '../machines/clock';
import type { ParsedLog } from '../streams/log';
import { createReplayer, type Replayer } from './replay';

/**
 * The QA player (/qa/replay) as a machine: a loaded log is paused, playing or ended; play, pause,
 * step, seek and speed are events. While playing it moves the replay on every TICK_MS by the time
 * that passed on the actor system's clock times the speed (a background tab, whose timers are
 * slowed, still plays at the right pace, in bigger steps). The replay itself (its own machines on
 * its own simulated clock) lives in the `driver` actor; the player's context is plain data: where
 * the replay stands and the board it shows.
 */
export const SPEEDS = [0.25, 0.5, 1, 2, 4, 10, 50] as const;
export const TICK_MS = 16;

export interface PlayerContext {
  log: ParsedLog | null;
  fileName: string;
  /** Why the last file could not be read (its line, for a malformed log). */
  error: string | null;
  speed: number;
  /** Where the replay stands: ms since the log's start, and the index of the next entry. */
  time: number;
  position: number;
  duration: number;
  board: BoardView | null;
  /** The actor system's time at the last tick (while playing). */
  lastTick: number;
}

export type PlayerEvent =
  | { type: 'LOAD'; fileName: string; log: ParsedLog }
  | { type: 'LOAD_FAILED'; fileName: string; error: string }
  | { type: 'PLAY' }
  | { type: 'PAUSE' }
  | { type: 'STEP' }
  | { type: 'SEEK'; time: number }
  | { type: 'SPEED'; speed: number }
  /** From the driver: where the replay stands now. */
  | { type: 'PROGRESS'; time: number; position: number; board: BoardView };

export type DriverCommand = { type: 'STEP' } | { type: 'ADVANCE'; by: number } | { type: 'SEEK'; time: number };

/**
 * Owns one replay of the log: steps it, moves it on, seeks (going back is a fresh replay run up
 * to the moment; the fold is deterministic, so that is the same board) and says where it stands.
 */
export const replayDriver = fromCallback<DriverCommand, { log: ParsedLog }>(({ input, sendBack, receive }) => {
  let replayer: Replayer = createReplayer(input.log);
  const progress = () => sendBack({ type: 'PROGRESS', time: replayer.time, position: replayer.position, board: replayer.board() } satisfies PlayerEvent);
  progress();
  receive((command) => {
    if (command.type === 'STEP') replayer.step();
    else if (command.type === 'ADVANCE') replayer.advanceTo(replayer.time + command.by);
    else {
      if (command.time < replayer.time) {
        replayer.stop();
        replayer = createReplayer(input.log);
      }
      replayer.advanceTo(command.time);
    }
    progress();
  });
  return () => replayer.stop();
});

const ended = ({ context }: { context: PlayerContext }) => context.log !== null && context.position >= context.log.entries.length;

export const playerMachine = setup({
  types: {
    context: {} as PlayerContext,
    events: {} as PlayerEvent,
  },
  actors: { driver: replayDriver },
  guards: {
    ended,
    endedAfter: ({ context, event }) => event.type === 'PROGRESS' && context.log !== null && event.position >= context.log.entries.length,
    knownSpeed: ({ event }) => event.type === 'SPEED' && (SPEEDS as readonly number[]).includes(event.speed),
  },
  actions: {
    load: assign(({ event }) => {
      if (event.type !== 'LOAD') return {};
      const { entries } = event.log;
      return { log: event.log, fileName: event.fileName, error: null, time: 0, position: 0, duration: entries.length ? entries[entries.length - 1].t : 0, board: null };
    }),
    fail: assign(({ event }) => (event.type === 'LOAD_FAILED' ? { log: null, fileName: event.fileName, error: event.error, board: null, time: 0, position: 0, duration: 0 } : {})),
    // the replayer's clock may run past the last entry within its last tick; the log ends at its duration
    progress: assign(({ event, context }) => (event.type === 'PROGRESS' ? { time: Math.min(event.time, context.duration), position: event.position, board: event.board } : {})),
    setSpeed: assign({ speed: ({ context, event }) => (event.type === 'SPEED' ? event.speed : context.speed) }),
    markTick: assign({ lastTick: ({ system }) => clockNow(system) }),
    step: sendTo('driver', { type: 'STEP' } satisfies DriverCommand),
    seek: sendTo('driver', ({ event }): DriverCommand => ({ type: 'SEEK', time: event.type === 'SEEK' ? Math.max(0, event.time) : 0 })),
    advance: sendTo('driver', ({ context, system }): DriverCommand => ({ type: 'ADVANCE', by: (clockNow(system) - context.lastTick) * context.speed })),
  },
}).createMachine({
  id: 'player',
  context: { log: null, fileName: '', error: null, speed: 1, time: 0, position: 0, duration: 0, board: null, lastTick: 0 },
  initial: 'empty',
  on: {
    LOAD: { target: '.loaded', reenter: true, actions: 'load' },
    LOAD_FAILED: { target: '.empty', actions: 'fail' },
    SPEED: { guard: 'knownSpeed', actions: 'setSpeed' },
  },
  states: {
    empty: {},
    loaded: {
      invoke: { id: 'driver', src: 'driver', input: ({ context }) => ({ log: context.log as ParsedLog }) },
      initial: 'paused',
      on: {
        PROGRESS: { actions: 'progress' },
        STEP: { target: '.paused', actions: 'step' },
        SEEK: { target: '.paused', actions: 'seek' },
      },
      states: {
        paused: {
          on: { PLAY: { guard: ({ context }) => !ended({ context }), target: 'playing' } },
        },
        playing: {
          entry: 'markTick',
          on: {
            PAUSE: 'paused',
            PROGRESS: [
              { guard: 'endedAfter', target: 'paused', actions: 'progress' },
              { actions: 'progress' },
            ],
            // a new speed counts from now: the time played so far at the old one is played first
            SPEED: { guard: 'knownSpeed', actions: ['advance', 'markTick', 'setSpeed'] },
          },
          after: { [TICK_MS]: { target: 'playing', reenter: true, actions: 'advance' } },
        },
      },
    },
  },
});

export type PlayerActor = ActorRefFrom<typeof playerMachine>;
export const isPlaying = (snapshot: ReturnType<PlayerActor['getSnapshot']>) => snapshot.matches({ loaded: 'playing' });
export const isEnded = (snapshot: ReturnType<PlayerActor['getSnapshot']>) => ended(snapshot);

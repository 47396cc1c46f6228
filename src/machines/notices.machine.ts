import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import type { Notice, NoticesAnswer } from '../protocol/notices';

/**
 * The signed-in account's notices as the bell shows them: the unread count and the newest few.
 * Seeded by `GET notices` (page 1) when a user is known and again whenever the user socket
 * (re)connects, kept live by each `NOTICE` frame, and marked read with `POST notices/read`, whose
 * answer's count is the one kept. Requests come through `.provide()` (`fetchNotices`, `markRead`).
 */
export const NEWEST_KEPT = 10;

export interface NoticesContext {
  /** The newest notices, newest (highest id) first, at most NEWEST_KEPT. */
  notices: Notice[];
  unread: number;
  /** The last request's failure, when it failed (the count shown is the last known one). */
  error: string | null;
}

/** A notice as a NOTICE frame carries it: what the list holds, without `read` (a new one is unread). */
export type LiveNotice = Omit<Notice, 'read'>;

export type NoticesEvent =
  /** A user is signed in (or the user socket is back): ask the server for the list and the count. */
  | { type: 'LOAD' }
  /** Nobody is signed in: nothing is shown. */
  | { type: 'CLEAR' }
  | { type: 'NOTICE'; notice: LiveNotice }
  /** Every notice up to the newest one known is read. */
  | { type: 'MARK_READ' };

const EMPTY: NoticesContext = { notices: [], unread: 0, error: null };

const byNewest = (a: Notice, b: Notice) => b.id - a.id;

/** Only the contract's fields, so the context stays the plain data the protocol names. */
function plain(notice: LiveNotice, read: boolean): Notice {
  const { id, kind, at, itemId, itemName, amount } = notice;
  return { id, kind, at, read, ...(itemId === undefined ? {} : { itemId }), ...(itemName === undefined ? {} : { itemName }), ...(amount === undefined ? {} : { amount }) };
}

/** A live notice folded in: a new one goes in by its id and counts as unread; one already listed changes nothing. */
export function foldNotice(context: NoticesContext, notice: LiveNotice): NoticesContext {
  if (context.notices.some((n) => n.id === notice.id)) return context;
  const notices = [...context.notices, plain(notice, false)].sort(byNewest).slice(0, NEWEST_KEPT);
  return { ...context, notices, unread: context.unread + 1 };
}

/**
 * The server's page 1 with what arrived while it was asked: a notice newer than every one the
 * answer lists and not in it was made after the server read the list, so it is added (and counted)
 * on top of the answer; everything else is as the server says.
 */
export function foldAnswer(context: NoticesContext, answer: Pick<NoticesAnswer, 'notices' | 'unread'>): NoticesContext {
  const listed = new Set(answer.notices.map((n) => n.id));
  const top = answer.notices.reduce((max, n) => Math.max(max, n.id), 0);
  const later = context.notices.filter((n) => n.id > top && !listed.has(n.id));
  const notices = [...answer.notices.map((n) => plain(n, n.read)), ...later].sort(byNewest).slice(0, NEWEST_KEPT);
  return { notices, unread: answer.unread + later.filter((n) => !n.read).length, error: null };
}

/** Marked read up to `upTo` at once (the server's count replaces this one when it answers). */
function markedUpTo(context: NoticesContext, upTo: number): NoticesContext {
  const marked = context.notices.filter((n) => n.id <= upTo && !n.read).length;
  return {
    ...context,
    notices: context.notices.map((n) => (n.id <= upTo && !n.read ? { ...n, read: true } : n)),
    unread: Math.max(0, context.unread - marked),
  };
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

export const noticesMachine = setup({
  types: {
    context: {} as NoticesContext,
    events: {} as NoticesEvent,
  },
  actors: {
    fetchNotices: fromPromise<Pick<NoticesAnswer, 'notices' | 'unread'>, { page: number }>(async () => {
      throw new Error('fetchNotices is provided by the app');
    }),
    markRead: fromPromise<{ unread: number }, { upTo: number }>(async () => {
      throw new Error('markRead is provided by the app');
    }),
  },
  actions: {
    /** This tab marked notices read: the app tells its other tabs, which ask the server again. */
    announceRead: () => {},
  },
  guards: {
    somethingToMark: ({ context }) => context.notices.length > 0 && (context.unread > 0 || context.notices.some((n) => !n.read)),
  },
}).createMachine({
  id: 'notices',
  context: EMPTY,
  initial: 'signedOut',
  on: {
    LOAD: { target: '.loading', reenter: true },
    CLEAR: { target: '.signedOut', actions: assign(() => EMPTY) },
  },
  states: {
    signedOut: {},
    loading: {
      on: { NOTICE: { actions: assign(({ context, event }) => foldNotice(context, event.notice)) } },
      invoke: {
        src: 'fetchNotices',
        input: { page: 1 },
        onDone: { target: 'ready', actions: assign(({ context, event }) => foldAnswer(context, event.output)) },
        onError: { target: 'ready', actions: assign({ error: ({ event }) => errorText(event.error) }) },
      },
    },
    ready: {
      on: {
        NOTICE: { actions: assign(({ context, event }) => foldNotice(context, event.notice)) },
        MARK_READ: { guard: 'somethingToMark', target: 'marking' },
      },
    },
    marking: {
      entry: assign(({ context }) => markedUpTo(context, context.notices[0].id)),
      on: { NOTICE: { actions: assign(({ context, event }) => foldNotice(context, event.notice)) } },
      invoke: {
        src: 'markRead',
        // the newest listed notice: every notice up to it (those shown and the older ones) is read
        input: ({ context }) => ({ upTo: context.notices[0].id }),
        // the server's count, but never below the notices that came while it was asked and are plainly unread
        onDone: { target: 'ready', actions: [assign({ unread: ({ context, event }) => Math.max(event.output.unread, context.notices.filter((n) => !n.read).length), error: null }), 'announceRead'] },
        // not marked after all: ask the server what is read
        onError: { target: 'loading', actions: assign({ error: ({ event }) => errorText(event.error) }) },
      },
    },
  },
});

export type NoticesSnapshot = SnapshotFrom<typeof noticesMachine>;
export const selectUnread = (s: NoticesSnapshot) => s.context.unread;
export const selectNewestNotices = (s: NoticesSnapshot) => s.context.notices;
export const selectNoticesError = (s: NoticesSnapshot) => s.context.error;
/** The newest notice's id (0 before any): a list that shows notices asks again when it changes. */
export const selectNewestId = (s: NoticesSnapshot) => s.context.notices[0]?.id ?? 0;
/** Notices are being marked read on the server (a list asked for now could show them unread). */
export const selectMarking = (s: NoticesSnapshot) => s.matches('marking');

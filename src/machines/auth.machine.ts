import { assign, fromPromise, sendParent, setup } from 'xstate';
import type { User } from '../protocol/auth';
import type { Balance } from '../protocol/socket';

/**
 * Who is signed in. The token comes from storage at start; the user is fetched at start and
 * whenever the token changes. A failed load clears loading. Logout calls the API, then clears
 * token and user whatever the API answered.
 */
export interface AuthInput {
  token: string | null;
}

export interface AuthContext {
  token: string | null;
  user: User | null;
  /** The protected path a visitor asked for before signing in. */
  returnTo: string | null;
  /** Why the last user load failed, when it did. */
  loadError: string | null;
  /**
   * The server refused a session this tab held (expired, signed out on another device, closed by
   * an administrator): the sign-in page says so. Cleared by signing in or out here.
   */
  sessionEnded: boolean;
}

export type AuthEvent =
  | { type: 'LOGGED_IN'; token: string; remember: boolean }
  | { type: 'TOKEN_CHANGED'; token: string | null }
  | { type: 'LOGOUT' }
  /** A socket refused the token: ask the server again, without dropping what is shown. */
  | { type: 'REVALIDATE' }
  | { type: 'USER_UPDATED'; user: User }
  | { type: 'BALANCE'; balance: Balance }
  /** The account's rank as the user socket reports it (pushed when an admin changes it). */
  | { type: 'RANK'; rank: string }
  | { type: 'REMEMBER_PATH'; path: string }
  | { type: 'FORGET_PATH' };

export type AuthOutEvent = { type: 'AUTH.TOKEN'; token: string | null } | { type: 'AUTH.USER'; user: User | null };

export const authMachine = setup({
  types: {
    input: {} as AuthInput,
    context: {} as AuthContext,
    events: {} as AuthEvent,
  },
  actors: {
    fetchUser: fromPromise<User, { token: string }>(async () => {
      throw new Error('fetchUser is provided by the app');
    }),
    logout: fromPromise<void, { token: string }>(async () => undefined),
  },
  actions: {
    /** Where the token is kept (local or session storage) is the app's concern. */
    storeToken: (_, _params: { token: string; remember: boolean }) => {},
    /** `ended`: the server ended the session (other tabs are told so, and a sign-out apart from it). */
    clearStoredToken: (_, _params: { ended: boolean }) => {},
    announceToken: sendParent(({ context }): AuthOutEvent => ({ type: 'AUTH.TOKEN', token: context.token })),
    announceUser: sendParent(({ context }): AuthOutEvent => ({ type: 'AUTH.USER', user: context.user })),
  },
  guards: {
    hasToken: ({ context }) => context.token !== null,
    /** The server refused the token (an API error with status 401, src/api's UnauthorizedError): the session is over. */
    unauthorized: ({ event }) => ((event as { error?: { status?: unknown } | null }).error ?? null)?.status === 401,
  },
}).createMachine({
  id: 'auth',
  context: ({ input }) => ({ token: input.token, user: null, returnTo: null, loadError: null, sessionEnded: false }),
  initial: 'boot',
  on: {
    REMEMBER_PATH: { actions: assign({ returnTo: ({ event }) => event.path }) },
    FORGET_PATH: { actions: assign({ returnTo: null }) },
    TOKEN_CHANGED: [
      {
        guard: ({ event }) => event.token !== null,
        target: '.loading',
        reenter: true,
        actions: [assign({ token: ({ event }) => event.token, user: null }), 'announceToken'],
      },
      // another tab signed out: a person's choice, not an ended session
      { target: '.anonymous', actions: [assign({ token: null, user: null, sessionEnded: false }), 'announceToken', 'announceUser'] },
    ],
  },
  states: {
    boot: {
      entry: 'announceToken',
      always: [{ guard: 'hasToken', target: 'loading' }, { target: 'anonymous' }],
    },
    loading: {
      invoke: {
        src: 'fetchUser',
        input: ({ context }) => ({ token: context.token! }),
        onDone: {
          target: 'signedIn',
          actions: [assign({ user: ({ event }) => event.output, loadError: null }), 'announceUser'],
        },
        onError: [
          {
            guard: 'unauthorized',
            target: 'anonymous',
            actions: [assign({ token: null, user: null, sessionEnded: true, loadError: ({ event }) => String((event.error as Error).message) }), { type: 'clearStoredToken', params: { ended: true } }, 'announceToken', 'announceUser'],
          },
          {
            target: 'anonymous',
            actions: [assign({ user: null, loadError: ({ event }) => String((event.error as Error)?.message ?? event.error) }), 'announceUser'],
          },
        ],
      },
    },
    anonymous: {
      on: {
        LOGGED_IN: {
          target: 'loading',
          actions: [
            assign({ token: ({ event }) => event.token, sessionEnded: false }),
            { type: 'storeToken', params: ({ event }) => ({ token: event.token, remember: event.remember }) },
            'announceToken',
          ],
        },
      },
    },
    signedIn: {
      on: {
        LOGOUT: 'loggingOut',
        REVALIDATE: 'revalidating',
        USER_UPDATED: { actions: [assign({ user: ({ event }) => event.user }), 'announceUser'] },
        BALANCE: {
          actions: assign({ user: ({ context, event }) => (context.user ? { ...context.user, ...event.balance } : null) }),
        },
        RANK: {
          // menus and rank-gated pages follow at once; the server checks the rank on every call anyway
          guard: ({ context, event }) => context.user !== null && context.user.rank !== event.rank,
          actions: assign({ user: ({ context, event }) => (context.user ? { ...context.user, rank: event.rank } : null) }),
        },
        LOGGED_IN: {
          target: 'loading',
          actions: [
            assign({ token: ({ event }) => event.token, user: null, sessionEnded: false }),
            { type: 'storeToken', params: ({ event }) => ({ token: event.token, remember: event.remember }) },
            'announceToken',
          ],
        },
      },
    },
    revalidating: {
      invoke: {
        src: 'fetchUser',
        input: ({ context }) => ({ token: context.token! }),
        onDone: { target: 'signedIn', actions: [assign({ user: ({ event }) => event.output }), 'announceUser'] },
        onError: [
          {
            guard: 'unauthorized',
            target: 'anonymous',
            actions: [assign({ token: null, user: null, sessionEnded: true }), { type: 'clearStoredToken', params: { ended: true } }, 'announceToken', 'announceUser'],
          },
          // the server could not be asked: keep the session; the sockets retry by themselves
          { target: 'signedIn' },
        ],
      },
    },
    loggingOut: {
      invoke: {
        src: 'logout',
        input: ({ context }) => ({ token: context.token! }),
        onDone: 'loggedOut',
        onError: 'loggedOut',
      },
    },
    loggedOut: {
      entry: [assign({ token: null, user: null, returnTo: null, sessionEnded: false }), { type: 'clearStoredToken', params: { ended: false } }, 'announceToken', 'announceUser'],
      always: 'anonymous',
    },
  },
});

import { enqueueActions, setup, type ActorRefFrom } from 'xstate';
import type { Channel } from '../protocol/socket';
import { MSG } from '../protocol/socket';
import { notificationFor } from '../auction/notifications';
import { authMachine, type AuthOutEvent } from './auth.machine';
import { boardEventFor, boardMachine, type BoardOutEvent } from './board.machine';
import { connectionMachine, connectionWith, type ConnectionOutEvent, type CreateSocket } from './connection.machine';
import { navigationMachine } from './navigation.machine';
import { noticesMachine } from './notices.machine';
import { notificationsMachine } from './notifications.machine';
import { settingsMachine, type Settings } from './settings.machine';

/**
 * The root actor: it spawns auth, settings, navigation, notifications, notices and one connection per
 * socket, hands the token to the connections and routes what the sockets say to the actors
 * that fold it. The UI reads the children through `useSelector`. Sockets come through `.provide()`
 * (`appWith`), so the context holds no function.
 */
export interface AppInput {
  token: string | null;
  settings?: Partial<Settings>;
  urls: Record<Channel, string>;
}

export type AppEvent = AuthOutEvent | ConnectionOutEvent | BoardOutEvent;

export const appMachine = setup({
  types: {
    input: {} as AppInput,
    context: {} as {
      auth: ActorRefFrom<typeof authMachine>;
      settings: ActorRefFrom<typeof settingsMachine>;
      navigation: ActorRefFrom<typeof navigationMachine>;
      notifications: ActorRefFrom<typeof notificationsMachine>;
      notices: ActorRefFrom<typeof noticesMachine>;
      connections: Record<Channel, ActorRefFrom<typeof connectionMachine>>;
      board: ActorRefFrom<typeof boardMachine>;
    },
    events: {} as AppEvent,
  },
  actors: {
    auth: authMachine,
    settings: settingsMachine,
    navigation: navigationMachine,
    notifications: notificationsMachine,
    notices: noticesMachine,
    connection: connectionMachine,
    board: boardMachine,
  },
  actions: {
    /** A sound at bidding start, at volume 0.5 (the app provides it). */
    playStartSound: () => {},
    /** Frames that failed the protocol: the app logs them and, with a DSN, reports them (provided by src/ui/boot). */
    reportProtocolErrors: (_, _params: Extract<ConnectionOutEvent, { type: 'CONNECTION.PROTOCOL_ERRORS' }>) => {},
  },
}).createMachine({
  id: 'app',
  context: ({ input, spawn }) => ({
    auth: spawn('auth', { id: 'auth', systemId: 'auth', input: { token: input.token } }),
    settings: spawn('settings', { id: 'settings', systemId: 'settings', input: input.settings }),
    navigation: spawn('navigation', { id: 'navigation', systemId: 'navigation' }),
    notifications: spawn('notifications', { id: 'notifications', systemId: 'notifications' }),
    notices: spawn('notices', { id: 'notices', systemId: 'notices' }),
    connections: {
      auction: spawn('connection', {
        id: 'connection.auction',
        systemId: 'connection.auction',
        input: { channel: 'auction', url: input.urls.auction, token: null },
      }),
      user: spawn('connection', {
        id: 'connection.user',
        systemId: 'connection.user',
        input: { channel: 'user', url: input.urls.user, token: null },
      }),
    },
    board: spawn('board', { id: 'board', systemId: 'board' }),
  }),
  on: {
    'AUTH.TOKEN': {
      actions: enqueueActions(({ context, event, enqueue }) => {
        enqueue.sendTo(context.connections.auction, { type: 'TOKEN', token: event.token });
        enqueue.sendTo(context.connections.user, { type: 'TOKEN', token: event.token });
      }),
    },
    'AUTH.USER': {
      actions: enqueueActions(({ context, event, enqueue }) => {
        // the account's saved language wins once it is known
        const locale = event.user?.locale;
        if (locale) enqueue.sendTo(context.settings, { type: 'SET', settings: { locale: locale as Settings['locale'] } });
        // signed out: no notices shown (they are asked for when the user socket has authenticated)
        if (!event.user) enqueue.sendTo(context.notices, { type: 'CLEAR' });
      }),
    },
    'CONNECTION.STATUS': {
      // whether a socket is connected is its connection's own state (isConnected); the board hears of the auction socket's
      actions: enqueueActions(({ context, event, enqueue }) => {
        const toBoard = boardEventFor(event);
        if (toBoard) enqueue.sendTo(context.board, toBoard);
        // the user socket authenticated (at sign-in, after a drop, for a new token): the notices are
        // asked for, so those made while it was away reach the bell too
        if (event.channel === 'user' && event.connected) enqueue.sendTo(context.notices, { type: 'LOAD' });
      }),
    },
    'BOARD.SEND': {
      actions: enqueueActions(({ context, event, enqueue }) => enqueue.sendTo(context.connections.auction, { type: 'SEND', frame: event.frame })),
    },
    'CONNECTION.UNAUTHORIZED': {
      // the socket refused the token: ask the server again who we are (a 401 there signs out);
      // the refusing connection waits for a new token, the other one is left alone
      actions: enqueueActions(({ context, enqueue }) => enqueue.sendTo(context.auth, { type: 'REVALIDATE' })),
    },
    'CONNECTION.MESSAGES': {
      actions: enqueueActions(({ context, event, enqueue }) => {
        const toBoard = boardEventFor(event);
        if (toBoard) enqueue.sendTo(context.board, toBoard);
        for (const { event: frame } of event.frames) {
          const { msg } = frame;
          if (msg.type === MSG.STATUS || msg.type === MSG.VIRTUAL_BALANCE_UPDATE) {
            const { balance, reserved, available } = msg.data;
            enqueue.sendTo(context.auth, { type: 'BALANCE', balance: { balance, reserved, available } });
          }
          // the server pushes STATUS when an admin changes the account's rank: the open page follows
          if (msg.type === MSG.STATUS) enqueue.sendTo(context.auth, { type: 'RANK', rank: msg.data.rank });
          if (msg.type === MSG.NOTICE) enqueue.sendTo(context.notices, { type: 'NOTICE', notice: msg.data });
          // the connection handles a refused token itself; everything else is told to the player
          const unauthenticated = msg.type === MSG.ERROR && msg.error_type === 'UNAUTHENTICATED';
          const notification = unauthenticated ? null : notificationFor(msg);
          if (notification) enqueue.sendTo(context.notifications, { type: 'NOTIFY', notification });
          if (msg.type === MSG.BIDDING_STARTED) enqueue('playStartSound');
        }
      }),
    },
    'CONNECTION.PROTOCOL_ERRORS': { actions: { type: 'reportProtocolErrors', params: ({ event }) => event } },
  },
});

export type AppActor = ActorRefFrom<typeof appMachine>;

/** The app machine with its sockets made by `createSocket` (other effects are provided on the result as usual). */
export const appWith = (createSocket: CreateSocket) => appMachine.provide({ actors: { connection: connectionWith(createSocket) } });

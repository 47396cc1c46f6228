import { assign, enqueueActions, setup, type ActorRefFrom } from 'xstate';
import type { Channel } from '../protocol/socket';
import { MSG } from '../protocol/socket';
import type { SocketHandle } from '../streams/socket';
import { authMachine, type AuthOutEvent } from './auth.machine';
import { connectionMachine, type ConnectionOutEvent } from './connection.machine';
import { navigationMachine } from './navigation.machine';
import { notificationsMachine } from './notifications.machine';
import { settingsMachine, type Settings } from './settings.machine';

/**
 * The root actor: it spawns auth, settings, navigation, notifications and one connection per
 * socket, hands the token to the connections and routes what the sockets say to the actors
 * that fold it. The UI reads the children through `useSelector`.
 */
export interface AppInput {
  token: string | null;
  settings?: Partial<Settings>;
  urls: Record<Channel, string>;
  createSocket: (url: string) => SocketHandle;
}

export type AppEvent = AuthOutEvent | ConnectionOutEvent;

export const appMachine = setup({
  types: {
    input: {} as AppInput,
    context: {} as {
      auth: ActorRefFrom<typeof authMachine>;
      settings: ActorRefFrom<typeof settingsMachine>;
      navigation: ActorRefFrom<typeof navigationMachine>;
      notifications: ActorRefFrom<typeof notificationsMachine>;
      connections: Record<Channel, ActorRefFrom<typeof connectionMachine>>;
      connected: Record<Channel, boolean>;
    },
    events: {} as AppEvent,
  },
  actors: {
    auth: authMachine,
    settings: settingsMachine,
    navigation: navigationMachine,
    notifications: notificationsMachine,
    connection: connectionMachine,
  },
}).createMachine({
  id: 'app',
  context: ({ input, spawn }) => ({
    auth: spawn('auth', { id: 'auth', systemId: 'auth', input: { token: input.token } }),
    settings: spawn('settings', { id: 'settings', systemId: 'settings', input: input.settings }),
    navigation: spawn('navigation', { id: 'navigation', systemId: 'navigation' }),
    notifications: spawn('notifications', { id: 'notifications', systemId: 'notifications' }),
    connections: {
      auction: spawn('connection', {
        id: 'connection.auction',
        systemId: 'connection.auction',
        input: { channel: 'auction', url: input.urls.auction, token: null, createSocket: input.createSocket },
      }),
      user: spawn('connection', {
        id: 'connection.user',
        systemId: 'connection.user',
        input: { channel: 'user', url: input.urls.user, token: null, createSocket: input.createSocket },
      }),
    },
    connected: { auction: false, user: false },
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
      }),
    },
    'CONNECTION.STATUS': {
      actions: assign({ connected: ({ context, event }) => ({ ...context.connected, [event.channel]: event.connected }) }),
    },
    'CONNECTION.UNAUTHORIZED': {
      // the socket refused the token: ask the server again who we are (a 401 there signs out);
      // the refusing connection waits for a new token, the other one is left alone
      actions: enqueueActions(({ context, enqueue }) => enqueue.sendTo(context.auth, { type: 'REVALIDATE' })),
    },
    'CONNECTION.MESSAGE': {
      actions: enqueueActions(({ context, event, enqueue }) => {
        const { msg } = event;
        if (msg.type === MSG.STATUS || msg.type === MSG.VIRTUAL_BALANCE_UPDATE) {
          const { balance, reserved, available } = msg.data;
          enqueue.sendTo(context.auth, { type: 'BALANCE', balance: { balance, reserved, available } });
        }
      }),
    },
    'CONNECTION.PROTOCOL_ERROR': {},
  },
});

export type AppActor = ActorRefFrom<typeof appMachine>;

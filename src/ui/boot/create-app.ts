import { createActor, fromPromise, type ActorRefFrom } from 'xstate';
import { createApi, type Api } from '../../api/client';
import { createHttp } from '../../api/http';
import { endpoints } from '../../api/config';
import { appWith } from '../../machines/app.machine';
import { authMachine } from '../../machines/auth.machine';
import { boardMachine } from '../../machines/board.machine';
import { noticesMachine } from '../../machines/notices.machine';
import { createInspection } from '../../auction/inspection';
import { liveClock } from '../../machines/clock';
import { settingsFromQuery, settingsMachine } from '../../machines/settings.machine';
import { createRecorder } from '../../streams/recorder';
import { createSocket, type WebSocketCtor } from '../../streams/socket';
import { version } from '../../../package.json';
import { createProtocolErrorReporter } from './report';
import { TOKEN_KEY, clearToken, readSettings, readToken, storeSettings, storeToken } from './storage';

/** Wires the root machine to the real API, sockets and storage, and starts it. */
export function createApp() {
  const ends = endpoints();
  // the one REST core: the signed-in user's token on every call; a 401 makes the auth actor ask
  // the server again, which signs the user out if the session is over (the same as a refused socket)
  let auth: ActorRefFrom<typeof authMachine> | null = null;
  const http = createHttp(ends.api, {
    token: () => auth?.getSnapshot().context.token ?? null,
    unauthorized: () => auth?.send({ type: 'REVALIDATE' }),
  });
  const api: Api = createApi(http);

  // the other tabs of this browser hear of a sign-in or sign-out (a session cookie fires no storage event)
  const reportProtocolErrors = createProtocolErrorReporter();

  const tabs = typeof BroadcastChannel === 'function' ? new BroadcastChannel('kingdom.auth') : null;
  // the other tabs hear that this one marked notices read, and ask the server for the count again
  const noticeTabs = typeof BroadcastChannel === 'function' ? new BroadcastChannel('kingdom.notices') : null;
  // (the notices' API and its schemas load with the first fetch, not with the sign-in page)
  const noticesApi = () => import('../../api/notices').then(({ createNoticesApi }) => createNoticesApi(http));

  // every frame of both sockets, for "Download session log"
  const recorder = createRecorder({ app: `kingdom@${version}` });
  const sockets = (url: string) => createSocket(url, window.WebSocket as unknown as WebSocketCtor, recorder.tap(url === ends.sockets.user ? 'user' : 'auction'));
  const machine = appWith(sockets).provide({
    // the chime is made and played by a module of its own, loaded the first time an item starts (not with /signin)
    actions: { playStartSound: () => void import('./sound').then(({ playStartSound }) => playStartSound()), reportProtocolErrors: (_, event) => reportProtocolErrors(event) },
    actors: {
      auth: authMachine.provide({
        actors: {
          fetchUser: fromPromise(({ input }) => api.me(input.token)),
          logout: fromPromise(({ input }) => api.logout(input.token)),
        },
        actions: {
          storeToken: (_, params) => {
            storeToken(params.token, params.remember);
            tabs?.postMessage('token');
          },
          clearStoredToken: (_, { ended }) => {
            clearToken();
            // the other tabs follow; a sign-out is told apart from a session the server ended
            tabs?.postMessage(ended ? 'token' : 'signed-out');
          },
        },
      }),
      // the board keeps the upcoming items: it asks the store's REST list for them
      board: boardMachine.provide({
        // (the store's API and its schemas load with the first fetch, not with the sign-in page)
        actors: { fetchUpcoming: fromPromise(async () => (await import('../../api/store')).createStoreApi(http).listItems('scheduled')) },
      }),
      notices: noticesMachine.provide({
        actors: {
          fetchNotices: fromPromise(async ({ input }) => (await noticesApi()).list(input.page)),
          markRead: fromPromise(async ({ input }) => (await noticesApi()).markRead(input.upTo)),
        },
        actions: { announceRead: () => noticeTabs?.postMessage('read') },
      }),
      settings: settingsMachine.provide({
        actions: { persist: (_, settings) => storeSettings(settings) },
      }),
    },
  });

  const query = new URLSearchParams(window.location.search);
  const settings = { ...readSettings(), ...settingsFromQuery(query) };
  // every actor, for the inspection panel
  const startInspector = import.meta.env.DEV && query.has('inspect');
  const inspection = createInspection({ buffer: startInspector });
  const actor = createActor(machine, {
    clock: liveClock,
    inspect: inspection.inspect,
    input: {
      token: readToken(),
      settings,
      urls: ends.sockets,
    },
  });
  actor.start();
  auth = actor.getSnapshot().context.auth;
  actor.getSnapshot().context.auth.subscribe((s) => {
    if (s.context.user) recorder.setUser(s.context.user.username);
  });
  // development builds: ?inspect opens the Stately visualiser on the root actor (loaded only then)
  if (startInspector) {
    void import('@statelyai/inspect').then(({ createBrowserInspector }) => {
      const inspector = createBrowserInspector();
      inspection.forward((event) => inspector.inspect.next?.(event));
    });
  }
  // query parameters are remembered like any other change of settings
  actor.getSnapshot().context.settings.send({ type: 'SET', settings });

  // another tab signed in or out: follow it. `signedOut`: it signed out; when this tab's own socket
  // was refused first (the same session, ended), it took that for an ended session: it was a sign-out
  const followOtherTab = (signedOut = false) => {
    const token = readToken();
    const auth = actor.getSnapshot().context.auth;
    const { token: held, sessionEnded } = auth.getSnapshot().context;
    if (token !== held || (signedOut && token === null && sessionEnded)) auth.send({ type: 'TOKEN_CHANGED', token });
  };
  window.addEventListener('storage', (event) => {
    if (event.key === TOKEN_KEY || event.key === null) followOtherTab();
  });
  tabs?.addEventListener('message', (event) => followOtherTab(event.data === 'signed-out'));
  noticeTabs?.addEventListener('message', () => {
    const notices = actor.getSnapshot().context.notices;
    if (!notices.getSnapshot().matches('signedOut')) notices.send({ type: 'LOAD' });
  });

  return { actor, api, http, endpoints: ends, recorder, inspection };
}

export type AppRuntime = ReturnType<typeof createApp>;

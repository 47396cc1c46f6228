import { describe, expect, it, vi } from 'vitest';
import { SimulatedClock, createActor, fromPromise, waitFor } from 'xstate';
import type { User } from '../../src/protocol/auth';
import { appWith } from '../../src/machines/app.machine';
import { isConnected } from '../../src/machines/connection.machine';
import { UnauthorizedError } from '../../src/api/client';
import { authMachine } from '../../src/machines/auth.machine';
import { DEFAULT_SETTINGS, settingsMachine, type Settings } from '../../src/machines/settings.machine';
import { fakeSocketFactory } from './support/fake-socket';
import { HISTORY, STATUS, USER, UNAUTHENTICATED, deferred, type Deferred } from './support/fixtures';

const URLS = { auction: 'ws://kingdom.test:8081', user: 'ws://kingdom.test:8082' };

function start(options: { token?: string | null; settings?: Partial<Settings> } = {}) {
  const sockets = fakeSocketFactory();
  const fetches: { token: string; answer: Deferred<User> }[] = [];
  const logouts: string[] = [];
  const storeToken = vi.fn();
  const clearStoredToken = vi.fn();
  const persist = vi.fn();
  const machine = appWith(sockets.createSocket).provide({
    actors: {
      auth: authMachine.provide({
        actors: {
          fetchUser: fromPromise<User, { token: string }>(({ input }) => {
            const answer = deferred<User>();
            fetches.push({ token: input.token, answer });
            return answer.promise;
          }),
          logout: fromPromise<void, { token: string }>(async ({ input }) => {
            logouts.push(input.token);
          }),
        },
        actions: { storeToken: (_, params) => storeToken(params), clearStoredToken: () => clearStoredToken() },
      }),
      settings: settingsMachine.provide({ actions: { persist: (_, params) => persist({ ...params }) } }),
    },
  });
  const clock = new SimulatedClock();
  const app = createActor(machine, {
    clock,
    input: {
      token: options.token === undefined ? 'tok-1' : options.token,
      settings: options.settings,
      urls: URLS,
    },
  }).start();
  const ctx = () => app.getSnapshot().context;
  return {
    app,
    clock,
    sockets,
    fetches,
    logouts,
    storeToken,
    clearStoredToken,
    persist,
    ctx,
    auth: () => ctx().auth.getSnapshot(),
    settings: () => ctx().settings.getSnapshot().context,
    connection: (channel: 'auction' | 'user') => ctx().connections[channel].getSnapshot(),
    /** Whether each socket is connected: the connections' own states, the one source of it. */
    connected: () => ({ auction: isConnected(ctx().connections.auction.getSnapshot()), user: isConnected(ctx().connections.user.getSnapshot()) }),
    authUntil: (state: 'signedIn' | 'anonymous' | 'loading') => waitFor(ctx().auth, (s) => s.matches(state), { timeout: 1000 }),
  };
}

async function signedIn(user: User = USER) {
  const t = start({ token: 'tok-1' });
  t.fetches[0].answer.resolve(user);
  await t.authUntil('signedIn');
  return t;
}

describe('app machine', () => {
  it('spawns auth, settings, navigation, notifications, notices, both connections and the board', () => {
    const t = start({ token: null });
    const children = Object.keys(t.app.getSnapshot().children).sort();
    expect(children).toEqual(['auth', 'board', 'connection.auction', 'connection.user', 'navigation', 'notices', 'notifications', 'settings']);
    expect(t.connected()).toEqual({ auction: false, user: false });
    expect(t.settings()).toEqual(DEFAULT_SETTINGS);
  });

  it('without a token no socket opens', () => {
    const t = start({ token: null });
    t.clock.increment(60_000);
    expect(t.sockets.sockets).toEqual([]);
    expect(t.connection('auction').value).toBe('idle');
    expect(t.connection('user').value).toBe('idle');
  });

  it('the stored token reaches both connections: each opens its URL and authenticates with it', () => {
    const t = start({ token: 'tok-1' });
    expect(t.sockets.sockets.map((s) => s.url).sort()).toEqual([URLS.auction, URLS.user]);
    t.sockets.last(URLS.auction).open();
    t.sockets.last(URLS.user).open();
    expect(t.sockets.last(URLS.auction).sent).toEqual([{ type: 'AUTHENTICATION', access_token: 'Bearer tok-1' }]);
    expect(t.sockets.last(URLS.user).sent).toEqual([{ type: 'AUTHENTICATION', access_token: 'Bearer tok-1' }, { type: 'GET_STATUS' }]);
    expect(t.connection('auction').context.token).toBe('tok-1');
    expect(t.connection('user').context.token).toBe('tok-1');
  });

  it('signing in hands the new token to both connections', async () => {
    const t = start({ token: null });
    t.ctx().auth.send({ type: 'LOGGED_IN', token: 'tok-new', remember: true });
    expect(t.storeToken).toHaveBeenCalledWith({ token: 'tok-new', remember: true });
    expect(t.sockets.sockets.map((s) => s.url).sort()).toEqual([URLS.auction, URLS.user]);
    t.sockets.last(URLS.user).open();
    expect(t.sockets.last(URLS.user).sent[0]).toEqual({ type: 'AUTHENTICATION', access_token: 'Bearer tok-new' });
  });

  it('each connection says whether its socket is connected (the one source of it)', async () => {
    const t = await signedIn();
    const auction = t.sockets.last(URLS.auction);
    auction.open();
    auction.receive(HISTORY);
    expect(t.connected()).toEqual({ auction: true, user: false });

    const user = t.sockets.last(URLS.user);
    user.open();
    user.receive(STATUS);
    expect(t.connected()).toEqual({ auction: true, user: true });

    auction.close(1006);
    expect(t.connected()).toEqual({ auction: false, user: true });
    t.clock.increment(1000);
    t.sockets.last(URLS.auction).open();
    t.sockets.last(URLS.auction).receive(HISTORY);
    expect(t.connected()).toEqual({ auction: true, user: true });
  });

  it("STATUS on the user socket updates the signed-in user's balance", async () => {
    const t = await signedIn();
    const user = t.sockets.last(URLS.user);
    user.open();
    user.receive(STATUS);
    expect(t.auth().context.user).toEqual({ ...USER, balance: 900, reserved: 100, available: 800 });
  });

  it("a STATUS pushed with a new rank changes the signed-in user's rank (menus follow without a reload)", async () => {
    const t = await signedIn();
    const user = t.sockets.last(URLS.user);
    user.open();
    user.receive(STATUS);
    expect(t.auth().context.user?.rank).toBe('user');
    user.receive({ type: 'STATUS', data: { username: 'Aethelred', rank: 'council', balance: 900, reserved: 100, available: 800 } });
    expect(t.auth().context.user).toEqual({ ...USER, rank: 'council', balance: 900, reserved: 100, available: 800 });
    user.receive({ type: 'STATUS', data: { username: 'Aethelred', rank: 'user', balance: 900, reserved: 100, available: 800 } });
    expect(t.auth().context.user?.rank).toBe('user');
  });

  it("VIRTUAL_BALANCE_UPDATE updates the signed-in user's balance", async () => {
    const t = await signedIn();
    const user = t.sockets.last(URLS.user);
    user.open();
    user.receive(STATUS);
    user.receive({ type: 'VIRTUAL_BALANCE_UPDATE', data: { balance: 700, reserved: 250, available: 450 } });
    expect(t.auth().context.user).toEqual({ ...USER, balance: 700, reserved: 250, available: 450 });
    expect(t.auth().context.user?.username).toBe(USER.username);
  });

  it("the signed-in user's saved locale becomes settings.locale (and is persisted)", async () => {
    const t = await signedIn({ ...USER, locale: 'fr' });
    expect(t.settings().locale).toBe('fr');
    expect(t.persist).toHaveBeenLastCalledWith({ ...DEFAULT_SETTINGS, locale: 'fr' });
  });

  it('a saved locale the app does not offer leaves settings.locale alone', async () => {
    const t = start({ token: 'tok-1', settings: { locale: 'it' } });
    t.fetches[0].answer.resolve({ ...USER, locale: 'de' });
    await t.authUntil('signedIn');
    expect(t.settings().locale).toBe('it');
  });

  it('logging out closes both sockets and sends them idle', async () => {
    const t = await signedIn();
    const auction = t.sockets.last(URLS.auction);
    auction.open();
    auction.receive(HISTORY);
    t.ctx().auth.send({ type: 'LOGOUT' });
    await t.authUntil('anonymous');
    expect(t.logouts).toEqual(['tok-1']);
    expect(t.clearStoredToken).toHaveBeenCalledTimes(1);
    expect(t.connection('auction').value).toBe('idle');
    expect(t.connection('user').value).toBe('idle');
    expect(t.sockets.sockets.every((s) => s.tornDown)).toBe(true);
    expect(t.connected()).toEqual({ auction: false, user: false });
    t.clock.increment(60_000);
    expect(t.sockets.sockets).toHaveLength(2);
  });

  it('a socket that refuses the token makes auth ask the server again; a 401 there signs out and closes the sockets', async () => {
    const t = await signedIn();
    const auction = t.sockets.last(URLS.auction);
    auction.open();
    auction.receive(UNAUTHENTICATED);
    expect(t.auth().value).toBe('revalidating');
    expect(t.auth().context.user).not.toBeNull(); // nothing shown is dropped while asking
    expect(t.fetches.map((f) => f.token)).toEqual(['tok-1', 'tok-1']);

    t.fetches[1].answer.reject(new UnauthorizedError('Session ended'));
    await t.authUntil('anonymous');
    expect(t.auth().context.token).toBeNull();
    expect(t.clearStoredToken).toHaveBeenCalledTimes(1);
    expect(t.connection('auction').value).toBe('idle');
    expect(t.connection('user').value).toBe('idle');
  });

  it('when the server still knows the token, auth stays signed in and the other socket is left alone', async () => {
    const t = await signedIn();
    const user = t.sockets.last(URLS.user);
    user.open();
    user.receive(STATUS);
    expect(t.connection('user').value).toEqual({ online: 'connected' });
    const socketsBefore = t.sockets.sockets.length;
    const auction = t.sockets.last(URLS.auction);
    auction.open();
    auction.receive(UNAUTHENTICATED);
    expect(t.auth().value).toBe('revalidating');
    t.fetches[1].answer.resolve(USER);
    await t.authUntil('signedIn');
    expect(t.connection('user').value).toEqual({ online: 'connected' });
    expect(t.connection('auction').value).toBe('unauthorized');
    expect(t.sockets.sockets.length).toBe(socketsBefore); // no reconnect storm
  });
});

import { describe, expect, it, vi } from 'vitest';
import { SimulatedClock, createActor, fromPromise, setup, waitFor, type ActorRefFrom } from 'xstate';
import type { User } from '../../src/protocol/auth';
import { UnauthorizedError } from '../../src/api/client';
import { authMachine, type AuthEvent, type AuthOutEvent } from '../../src/machines/auth.machine';
import { USER, deferred, type Deferred } from './support/fixtures';

/**
 * auth tells its parent about the token and the user with sendParent, so it runs under a tiny
 * parent that records AUTH.TOKEN / AUTH.USER. fetchUser and logout are fakes the test settles.
 */
function start(token: string | null) {
  const fetches: { token: string; answer: Deferred<User> }[] = [];
  const logouts: { token: string; answer: Deferred<void> }[] = [];
  const storeToken = vi.fn();
  const clearStoredToken = vi.fn();
  const machine = authMachine.provide({
    actors: {
      fetchUser: fromPromise<User, { token: string }>(({ input }) => {
        const answer = deferred<User>();
        fetches.push({ token: input.token, answer });
        return answer.promise;
      }),
      logout: fromPromise<void, { token: string }>(({ input }) => {
        const answer = deferred<void>();
        logouts.push({ token: input.token, answer });
        return answer.promise;
      }),
    },
    actions: {
      storeToken: (_, params) => storeToken(params),
      clearStoredToken: (_, params) => clearStoredToken(params),
    },
  });
  const told: AuthOutEvent[] = [];
  const parentMachine = setup({
    types: { events: {} as AuthOutEvent },
    actors: { auth: machine },
  }).createMachine({
    invoke: { id: 'auth', src: 'auth', input: { token } },
    on: { '*': { actions: ({ event }) => told.push(event) } },
  });
  const parent = createActor(parentMachine, { clock: new SimulatedClock() }).start();
  const auth = parent.getSnapshot().children.auth as ActorRefFrom<typeof authMachine>;
  return {
    auth,
    fetches,
    logouts,
    storeToken,
    clearStoredToken,
    told,
    send: (event: AuthEvent) => auth.send(event),
    state: () => auth.getSnapshot().value,
    context: () => auth.getSnapshot().context,
    until: (state: string) => waitFor(auth, (s) => s.matches(state as never), { timeout: 1000 }),
  };
}

/** A token from storage whose user loaded. */
async function signedIn(token = 'tok-1', user: User = USER) {
  const t = start(token);
  t.fetches[0].answer.resolve(user);
  await t.until('signedIn');
  t.told.length = 0;
  return t;
}

describe('auth machine', () => {
  it('with a stored token: announces it, loads the user with it, then is signed in with that user', async () => {
    const t = start('tok-1');
    expect(t.state()).toBe('loading');
    expect(t.context().token).toBe('tok-1');
    expect(t.fetches.map((f) => f.token)).toEqual(['tok-1']);
    expect(t.told).toEqual([{ type: 'AUTH.TOKEN', token: 'tok-1' }]);

    t.fetches[0].answer.resolve(USER);
    await t.until('signedIn');
    expect(t.context().user).toEqual(USER);
    expect(t.context().loadError).toBeNull();
    expect(t.told).toEqual([
      { type: 'AUTH.TOKEN', token: 'tok-1' },
      { type: 'AUTH.USER', user: USER },
    ]);
  });

  it('without a token: anonymous, nothing fetched', () => {
    const t = start(null);
    expect(t.state()).toBe('anonymous');
    expect(t.fetches).toEqual([]);
    expect(t.context()).toEqual({ token: null, user: null, returnTo: null, loadError: null, sessionEnded: false });
    expect(t.told).toEqual([{ type: 'AUTH.TOKEN', token: null }]);
  });

  it('a failed load clears loading (anonymous) and keeps the token when it was not a 401', async () => {
    const t = start('tok-1');
    t.fetches[0].answer.reject(new Error('Network down'));
    await t.until('anonymous');
    expect(t.context().user).toBeNull();
    expect(t.context().token).toBe('tok-1');
    expect(t.context().loadError).toBe('Network down');
    expect(t.clearStoredToken).not.toHaveBeenCalled();
    expect(t.told.at(-1)).toEqual({ type: 'AUTH.USER', user: null });
  });

  it('an UnauthorizedError clears the stored token and announces that there is none', async () => {
    const t = start('tok-stale');
    t.fetches[0].answer.reject(new UnauthorizedError('Session ended'));
    await t.until('anonymous');
    expect(t.context().token).toBeNull();
    expect(t.context().user).toBeNull();
    expect(t.context().loadError).toBe('Session ended');
    expect(t.clearStoredToken).toHaveBeenCalledTimes(1);
    expect(t.told).toEqual([
      { type: 'AUTH.TOKEN', token: 'tok-stale' },
      { type: 'AUTH.TOKEN', token: null },
      { type: 'AUTH.USER', user: null },
    ]);
  });

  it('LOGGED_IN stores the token with the remember flag, announces it and loads the user', async () => {
    const t = start(null);
    t.send({ type: 'LOGGED_IN', token: 'tok-new', remember: false });
    expect(t.state()).toBe('loading');
    expect(t.storeToken).toHaveBeenCalledTimes(1);
    expect(t.storeToken).toHaveBeenCalledWith({ token: 'tok-new', remember: false });
    expect(t.context().token).toBe('tok-new');
    expect(t.fetches.map((f) => f.token)).toEqual(['tok-new']);
    expect(t.told.at(-1)).toEqual({ type: 'AUTH.TOKEN', token: 'tok-new' });

    t.fetches[0].answer.resolve(USER);
    await t.until('signedIn');
    expect(t.context().user).toEqual(USER);
  });

  it('LOGGED_IN with remember true passes it on', () => {
    const t = start(null);
    t.send({ type: 'LOGGED_IN', token: 'tok-r', remember: true });
    expect(t.storeToken).toHaveBeenCalledWith({ token: 'tok-r', remember: true });
  });

  it('LOGGED_IN while signed in (another account) replaces token and user', async () => {
    const t = await signedIn('tok-1');
    t.send({ type: 'LOGGED_IN', token: 'tok-2', remember: true });
    expect(t.state()).toBe('loading');
    expect(t.context().user).toBeNull();
    expect(t.storeToken).toHaveBeenCalledWith({ token: 'tok-2', remember: true });
    expect(t.fetches.map((f) => f.token)).toEqual(['tok-1', 'tok-2']);
  });

  it('TOKEN_CHANGED reloads the user with the new token', async () => {
    const t = await signedIn('tok-1');
    t.send({ type: 'TOKEN_CHANGED', token: 'tok-2' });
    expect(t.state()).toBe('loading');
    expect(t.context().token).toBe('tok-2');
    expect(t.context().user).toBeNull();
    expect(t.fetches.map((f) => f.token)).toEqual(['tok-1', 'tok-2']);
    expect(t.told).toEqual([{ type: 'AUTH.TOKEN', token: 'tok-2' }]);

    const other = { ...USER, username: 'Bertha', id: 8 };
    t.fetches[1].answer.resolve(other);
    await t.until('signedIn');
    expect(t.context().user).toEqual(other);
  });

  it('TOKEN_CHANGED while loading restarts the load and ignores the old answer', async () => {
    const t = start('tok-1');
    t.send({ type: 'TOKEN_CHANGED', token: 'tok-2' });
    expect(t.fetches.map((f) => f.token)).toEqual(['tok-1', 'tok-2']);
    t.fetches[0].answer.resolve({ ...USER, username: 'Old' });
    t.fetches[1].answer.resolve(USER);
    await t.until('signedIn');
    expect(t.context().user?.username).toBe(USER.username);
  });

  it('TOKEN_CHANGED to null signs out locally', async () => {
    const t = await signedIn();
    t.send({ type: 'TOKEN_CHANGED', token: null });
    expect(t.state()).toBe('anonymous');
    expect(t.context().token).toBeNull();
    expect(t.context().user).toBeNull();
    expect(t.told).toEqual([
      { type: 'AUTH.TOKEN', token: null },
      { type: 'AUTH.USER', user: null },
    ]);
  });

  it('LOGOUT calls the logout API with the token, then clears token and user', async () => {
    const t = await signedIn('tok-1');
    t.send({ type: 'REMEMBER_PATH', path: '/store' });
    t.send({ type: 'LOGOUT' });
    expect(t.state()).toBe('loggingOut');
    expect(t.logouts.map((l) => l.token)).toEqual(['tok-1']);
    expect(t.clearStoredToken).not.toHaveBeenCalled();

    t.logouts[0].answer.resolve();
    await t.until('anonymous');
    expect(t.context()).toMatchObject({ token: null, user: null, returnTo: null });
    expect(t.clearStoredToken).toHaveBeenCalledTimes(1);
    expect(t.told).toEqual([
      { type: 'AUTH.TOKEN', token: null },
      { type: 'AUTH.USER', user: null },
    ]);
  });

  it('LOGOUT clears token and user even when the API fails', async () => {
    const t = await signedIn('tok-1');
    t.send({ type: 'LOGOUT' });
    t.logouts[0].answer.reject(new Error('500'));
    await t.until('anonymous');
    expect(t.context().token).toBeNull();
    expect(t.context().user).toBeNull();
    expect(t.clearStoredToken).toHaveBeenCalledTimes(1);
  });

  it('BALANCE merges balance, reserved and available into the user', async () => {
    const t = await signedIn();
    t.send({ type: 'BALANCE', balance: { balance: 50, reserved: 10, available: 40 } });
    expect(t.context().user).toEqual({ ...USER, balance: 50, reserved: 10, available: 40 });
    expect(t.state()).toBe('signedIn');
  });

  it('BALANCE without a user changes nothing', () => {
    const t = start(null);
    t.send({ type: 'BALANCE', balance: { balance: 50, reserved: 10, available: 40 } });
    expect(t.context().user).toBeNull();
  });

  it('USER_UPDATED replaces the user and announces it', async () => {
    const t = await signedIn();
    const updated = { ...USER, locale: 'fr' };
    t.send({ type: 'USER_UPDATED', user: updated });
    expect(t.context().user).toEqual(updated);
    expect(t.told).toEqual([{ type: 'AUTH.USER', user: updated }]);
  });

  it('REMEMBER_PATH / FORGET_PATH keep the path asked for before signing in, in any state', async () => {
    const t = start(null);
    t.send({ type: 'REMEMBER_PATH', path: '/kingdom/points' });
    expect(t.context().returnTo).toBe('/kingdom/points');
    t.send({ type: 'LOGGED_IN', token: 'tok-1', remember: true });
    t.send({ type: 'REMEMBER_PATH', path: '/admin' });
    expect(t.context().returnTo).toBe('/admin');
    t.fetches[0].answer.resolve(USER);
    await t.until('signedIn');
    expect(t.context().returnTo).toBe('/admin');
    t.send({ type: 'FORGET_PATH' });
    expect(t.context().returnTo).toBeNull();
  });

  it('a session the server ends while signed in (REVALIDATE answered 401) is said on the sign-in page; signing in again clears that', async () => {
    const t = await signedIn('tok-1');
    expect(t.context().sessionEnded).toBe(false);
    t.send({ type: 'REVALIDATE' });
    t.fetches[1].answer.reject(new UnauthorizedError('Session ended'));
    await t.until('anonymous');
    expect(t.context()).toMatchObject({ token: null, user: null, sessionEnded: true });
    t.send({ type: 'LOGGED_IN', token: 'tok-2', remember: false });
    expect(t.context().sessionEnded).toBe(false);
  });

  it('a stored session the server refuses at start is an ended session too; a REVALIDATE the server cannot answer is not', async () => {
    const stale = start('tok-stale');
    stale.fetches[0].answer.reject(new UnauthorizedError('Session ended'));
    await stale.until('anonymous');
    expect(stale.context().sessionEnded).toBe(true);

    const t = await signedIn('tok-1');
    t.send({ type: 'REVALIDATE' });
    t.fetches[1].answer.reject(new Error('Failed to fetch'));
    await t.until('signedIn');
    expect(t.context().sessionEnded).toBe(false);
  });

  it('signing out here, or in another tab, is not an ended session', async () => {
    const t = await signedIn('tok-1');
    t.send({ type: 'LOGOUT' });
    t.logouts[0].answer.resolve();
    await t.until('anonymous');
    expect(t.context().sessionEnded).toBe(false);

    const other = await signedIn('tok-2');
    other.send({ type: 'TOKEN_CHANGED', token: null });
    expect(other.context().sessionEnded).toBe(false);

    // this tab's socket was refused before it heard that the other tab signed out: the sign-out clears the notice
    const raced = await signedIn('tok-3');
    raced.send({ type: 'REVALIDATE' });
    raced.fetches[1].answer.reject(new UnauthorizedError('Session ended'));
    await raced.until('anonymous');
    expect(raced.context().sessionEnded).toBe(true);
    raced.send({ type: 'TOKEN_CHANGED', token: null });
    expect(raced.context().sessionEnded).toBe(false);
  });

  it('tells storage why it clears the token: a session the server ended, or a sign-out', async () => {
    const t = await signedIn('tok-1');
    t.send({ type: 'REVALIDATE' });
    t.fetches[1].answer.reject(new UnauthorizedError('Session ended'));
    await t.until('anonymous');
    expect(t.clearStoredToken).toHaveBeenLastCalledWith({ ended: true });
    const out = await signedIn('tok-2');
    out.send({ type: 'LOGOUT' });
    out.logouts[0].answer.resolve();
    await out.until('anonymous');
    expect(out.clearStoredToken).toHaveBeenLastCalledWith({ ended: false });
  });

  it('LOGOUT while anonymous does nothing', () => {
    const t = start(null);
    t.send({ type: 'LOGOUT' });
    expect(t.state()).toBe('anonymous');
    expect(t.logouts).toEqual([]);
  });
});

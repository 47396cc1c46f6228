import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor, fromPromise, waitFor } from 'xstate';
import type { User } from '../../src/protocol/auth';
import type { NoticesAnswer } from '../../src/protocol/notices';
import { appWith } from '../../src/machines/app.machine';
import { authMachine } from '../../src/machines/auth.machine';
import { NEWEST_KEPT, foldAnswer, foldNotice, noticesMachine, type NoticesContext } from '../../src/machines/notices.machine';
import { fakeSocketFactory } from './support/fake-socket';
import { STATUS, USER, deferred, type Deferred } from './support/fixtures';

const URLS = { auction: 'ws://kingdom.test:8081', user: 'ws://kingdom.test:8082' };

/** Frames as the server writes them on the user socket (NOTICE: a notice without `read`). */
const OUTBID = { type: 'NOTICE', data: { id: 12, kind: 'outbid', at: 1_700_000_100_000, itemId: 3, itemName: 'Gold Dragon', amount: 1250 } };
const ENDING = { type: 'NOTICE', data: { id: 13, kind: 'ending', at: 1_700_000_200_000, itemId: 4, itemName: 'Silver Key' } };

const PAGE: Pick<NoticesAnswer, 'notices' | 'unread'> = {
  unread: 2,
  notices: [
    { id: 11, kind: 'started', at: 1_700_000_050_000, read: false, itemId: 3, itemName: 'Gold Dragon' },
    { id: 10, kind: 'points', at: 1_700_000_040_000, read: false, amount: 300 },
    { id: 9, kind: 'won', at: 1_700_000_030_000, read: true, itemId: 2, itemName: 'Old Map', amount: 400 },
  ],
};

const EMPTY: NoticesContext = { notices: [], unread: 0, error: null };

describe('notices folds', () => {
  it('a live notice goes in by its id, unread, and counts once', () => {
    const once = foldNotice(EMPTY, OUTBID.data as never);
    expect(once.unread).toBe(1);
    expect(once.notices).toEqual([{ ...OUTBID.data, read: false }]);
    expect(foldNotice(once, OUTBID.data as never)).toBe(once);
  });

  it('keeps only the newest few, newest first', () => {
    let c = EMPTY;
    for (let id = 1; id <= NEWEST_KEPT + 3; id++) c = foldNotice(c, { id: id % 2 ? id : NEWEST_KEPT + 20 - id, kind: 'points', at: id, amount: 1 });
    expect(c.notices).toHaveLength(NEWEST_KEPT);
    expect(c.notices.map((n) => n.id)).toEqual([...c.notices.map((n) => n.id)].sort((a, b) => b - a));
    expect(c.unread).toBe(NEWEST_KEPT + 3);
  });

  it("the server's page wins; a notice newer than it and not in it is added on top", () => {
    const during = foldNotice(foldNotice(EMPTY, { id: 11, kind: 'started', at: 1 }), OUTBID.data as never);
    const c = foldAnswer(during, PAGE);
    expect(c.notices.map((n) => [n.id, n.read])).toEqual([
      [12, false],
      [11, false],
      [10, false],
      [9, true],
    ]);
    expect(c.unread).toBe(3);
  });

  it('drops fields the contract does not name', () => {
    const c = foldNotice(EMPTY, { ...OUTBID.data, extra: 'x' } as never);
    expect(Object.keys(c.notices[0]).sort()).toEqual(['amount', 'at', 'id', 'itemId', 'itemName', 'kind', 'read']);
  });
});

function startNotices() {
  const fetches: Deferred<Pick<NoticesAnswer, 'notices' | 'unread'>>[] = [];
  const marks: { upTo: number; answer: Deferred<{ unread: number }> }[] = [];
  let told = 0;
  const actor = createActor(
    noticesMachine.provide({
      actors: {
        fetchNotices: fromPromise(() => {
          const d = deferred<Pick<NoticesAnswer, 'notices' | 'unread'>>();
          fetches.push(d);
          return d.promise;
        }),
        markRead: fromPromise(({ input }: { input: { upTo: number } }) => {
          const answer = deferred<{ unread: number }>();
          marks.push({ upTo: input.upTo, answer });
          return answer.promise;
        }),
      },
      actions: { announceRead: () => void told++ },
    }),
    { clock: new SimulatedClock() },
  ).start();
  return { actor, fetches, marks, told: () => told, ctx: () => actor.getSnapshot().context };
}

describe('notices machine', () => {
  it('signed out it shows nothing and ignores frames', () => {
    const t = startNotices();
    t.actor.send({ type: 'NOTICE', notice: OUTBID.data as never });
    expect(t.ctx()).toEqual(EMPTY);
  });

  it('marks read up to the newest: at once here, then the count the server answers, and the other tabs are told', async () => {
    const t = startNotices();
    t.actor.send({ type: 'LOAD' });
    t.fetches[0].resolve(PAGE);
    await waitFor(t.actor, (s) => s.matches('ready'));
    t.actor.send({ type: 'NOTICE', notice: OUTBID.data as never });
    expect(t.ctx().unread).toBe(3);

    t.actor.send({ type: 'MARK_READ' });
    expect(t.marks.map((m) => m.upTo)).toEqual([12]);
    expect(t.ctx().unread).toBe(0);
    expect(t.ctx().notices.every((n) => n.read)).toBe(true);
    // a notice made while the server marks: unread, whatever the server counted before it
    t.actor.send({ type: 'NOTICE', notice: ENDING.data as never });
    t.marks[0].answer.resolve({ unread: 0 });
    await waitFor(t.actor, (s) => s.matches('ready'));
    expect(t.ctx().unread).toBe(1);
    expect(t.told()).toBe(1);
  });

  it("the server's count wins over the one kept here", async () => {
    const t = startNotices();
    t.actor.send({ type: 'LOAD' });
    t.fetches[0].resolve(PAGE);
    await waitFor(t.actor, (s) => s.matches('ready'));
    t.actor.send({ type: 'MARK_READ' });
    // older notices below the newest few were unread too: the server says what is left
    t.marks[0].answer.resolve({ unread: 0 });
    await waitFor(t.actor, (s) => s.matches('ready'));
    expect(t.ctx().unread).toBe(0);
    t.actor.send({ type: 'MARK_READ' });
    expect(t.marks).toHaveLength(1); // nothing left to mark
  });

  it('a failed mark asks the server again for what is read', async () => {
    const t = startNotices();
    t.actor.send({ type: 'LOAD' });
    t.fetches[0].resolve(PAGE);
    await waitFor(t.actor, (s) => s.matches('ready'));
    t.actor.send({ type: 'MARK_READ' });
    t.marks[0].answer.reject(new Error('Too many requests'));
    await waitFor(t.actor, (s) => s.matches('loading'));
    expect(t.ctx().error).toBe('Too many requests');
    t.fetches[1].resolve(PAGE);
    await waitFor(t.actor, (s) => s.matches('ready'));
    expect(t.ctx()).toEqual(foldAnswer(EMPTY, PAGE));
  });

  it('CLEAR (signed out) forgets everything', async () => {
    const t = startNotices();
    t.actor.send({ type: 'LOAD' });
    t.fetches[0].resolve(PAGE);
    await waitFor(t.actor, (s) => s.matches('ready'));
    t.actor.send({ type: 'CLEAR' });
    expect(t.ctx()).toEqual(EMPTY);
  });
});

describe('notices in the app', () => {
  function start() {
    const sockets = fakeSocketFactory();
    const users: Deferred<User>[] = [];
    const pages: Deferred<Pick<NoticesAnswer, 'notices' | 'unread'>>[] = [];
    const machine = appWith(sockets.createSocket).provide({
      actors: {
        auth: authMachine.provide({
          actors: {
            fetchUser: fromPromise(() => {
              const d = deferred<User>();
              users.push(d);
              return d.promise;
            }),
            logout: fromPromise<void, { token: string }>(async () => {}),
          },
        }),
        notices: noticesMachine.provide({
          actors: {
            fetchNotices: fromPromise(() => {
              const d = deferred<Pick<NoticesAnswer, 'notices' | 'unread'>>();
              pages.push(d);
              return d.promise;
            }),
          },
        }),
      },
    });
    const app = createActor(machine, { clock: new SimulatedClock(), input: { token: 'tok-1', urls: URLS } }).start();
    const notices = () => app.getSnapshot().context.notices;
    return { app, sockets, users, pages, notices };
  }

  it('the user socket authenticating asks for the list; NOTICE frames raise the count; a reconnect asks again; signing out clears', async () => {
    const t = start();
    t.users[0].resolve(USER);
    const user = t.sockets.last(URLS.user);
    user.open();
    expect(t.pages).toHaveLength(0);
    user.receive(STATUS);
    expect(t.pages).toHaveLength(1);
    user.receive(OUTBID); // made while the list was asked for: kept on top of the answer
    t.pages[0].resolve(PAGE);
    await waitFor(t.notices(), (s) => s.matches('ready'));
    expect(t.notices().getSnapshot().context.unread).toBe(3);
    user.receive(ENDING);
    expect(t.notices().getSnapshot().context.unread).toBe(4);
    expect(t.notices().getSnapshot().context.notices[0]).toEqual({ ...ENDING.data, read: false });

    user.close();
    t.app.getSnapshot().context.connections.user.send({ type: 'RETRY_NOW' });
    const again = t.sockets.last(URLS.user);
    again.open();
    again.receive(STATUS);
    expect(t.pages).toHaveLength(2);
    t.pages[1].resolve({ unread: 1, notices: [{ ...ENDING.data, kind: 'ending', read: false }] });
    await waitFor(t.notices(), (s) => s.matches('ready'));
    expect(t.notices().getSnapshot().context.unread).toBe(1);

    t.app.getSnapshot().context.auth.send({ type: 'LOGOUT' });
    await waitFor(t.notices(), (s) => s.matches('signedOut'));
    expect(t.notices().getSnapshot().context.notices).toEqual([]);
  });
});

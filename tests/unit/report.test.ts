import { describe, expect, it, vi } from 'vitest';
import { SimulatedClock, createActor, fromPromise } from 'xstate';
import { appWith } from '../../src/machines/app.machine';
import { authMachine } from '../../src/machines/auth.machine';
import type { User } from '../../src/protocol/auth';
import { createProtocolErrorReporter, reportError, setErrorSink, type ErrorSink, type ProtocolErrors } from '../../src/ui/boot/report';
import { fakeSocketFactory } from './support/fake-socket';
import { auction } from './support/fixtures';

/** Errors surfaced: frames that fail the protocol are logged (bounded) and reported; render errors are reported. */
function sink() {
  const exceptions: unknown[][] = [];
  const messages: unknown[][] = [];
  const s: ErrorSink = {
    captureException: (...args) => exceptions.push(args),
    captureMessage: (...args) => messages.push(args),
  };
  return { s, exceptions, messages };
}

const URLS = { auction: 'ws://kingdom.test:8081', user: 'ws://kingdom.test:8082' };

describe('protocol errors', () => {
  it('reach the app machine as one event per run of frames, with the type and reason of each', () => {
    const sockets = fakeSocketFactory();
    const reported: ProtocolErrors[] = [];
    const machine = appWith(sockets.createSocket).provide({
      actors: {
        auth: authMachine.provide({
          actors: {
            fetchUser: fromPromise<User, { token: string }>(() => new Promise<User>(() => {})),
            logout: fromPromise<void, { token: string }>(async () => {}),
          },
          actions: { storeToken: () => {}, clearStoredToken: () => {} },
        }),
      },
      actions: { reportProtocolErrors: (_, event) => void reported.push(event) },
    });
    const app = createActor(machine, { clock: new SimulatedClock(), input: { token: 'tok-1', urls: URLS } }).start();
    const socket = sockets.last(URLS.auction);
    socket.open();
    socket.receive(auction.history([], []));
    socket.receiveRaw('{not json');
    socket.receive({ type: 'BID_CREATED', data: { itemId: 3 } });
    expect(reported.map((r) => [r.channel, r.errors.map((e) => e.reason)])).toEqual([
      ['auction', ['json']],
      ['auction', ['schema']],
    ]);
    app.stop();
  });

  it('are written to the console with their socket and reason, at most 20 a page, and reported when a DSN is set', () => {
    const warn = vi.fn();
    const { s, messages } = sink();
    setErrorSink(s);
    const report = createProtocolErrorReporter({ warn });
    const bad = { type: 'protocol-error' as const, reason: 'schema' as const, raw: '{"type":"BID_CREATED"}', detail: 'data.itemId: Invalid input' };
    report({ channel: 'auction', errors: [bad] });
    expect(warn).toHaveBeenCalledWith('[kingdom] a frame on the auction socket failed the protocol (schema: data.itemId: Invalid input)', bad.raw);
    expect(messages[0][0]).toBe('protocol error on the auction socket: schema: data.itemId: Invalid input');
    for (let i = 0; i < 50; i++) report({ channel: 'user', errors: [{ type: 'protocol-error', reason: 'json', raw: 'x' }] });
    expect(warn).toHaveBeenCalledTimes(21);
    expect(warn.mock.calls[20][0]).toMatch(/no more are logged/);
    expect(messages).toHaveLength(20);
    setErrorSink(null);
  });
});

describe('render errors', () => {
  it('go to the sink with their component stack; without a DSN nothing is sent', () => {
    const { s, exceptions } = sink();
    reportError(new Error('before')); // no sink: dropped
    setErrorSink(s);
    const error = new Error('boom');
    reportError(error, { componentStack: '\n    at Card' });
    expect(exceptions).toEqual([[error, { extra: { componentStack: '\n    at Card' } }]]);
    setErrorSink(null);
  });
});

import { Observable, Subject } from 'rxjs';
import type { OutgoingFrame } from '../../../src/protocol/socket';
import { normalise } from '../../../src/streams/normalise';
import type { SocketEvent, SocketHandle } from '../../../src/streams/socket';

/**
 * A synchronous stand-in for `createSocket`: every socket is an RxJS Subject the test drives by
 * hand (open, frames, close), and it records the URL and every frame the client sent.
 */
export interface FakeSocket {
  readonly url: string;
  /** Frames the client sent while the socket was open. */
  readonly sent: OutgoingFrame[];
  /** True once the client subscribed to `events$`, false again when it unsubscribed. */
  subscribed: boolean;
  /** True once the client's subscription was torn down. */
  tornDown: boolean;
  open(): void;
  /** A server frame as the server would write it (serialised, then normalised). */
  receive(msg: unknown): void;
  /** A raw text frame, possibly not JSON. */
  receiveRaw(frame: unknown): void;
  /** Several raw frames handed over at once, each with the local time it came (as a replay does). */
  receiveRun(frames: { raw: unknown; at: number }[]): void;
  close(code?: number): void;
}

export interface FakeSocketFactory {
  readonly sockets: FakeSocket[];
  readonly createSocket: (url: string) => SocketHandle;
  /** The last socket created for a URL (throws when there is none). */
  last(url?: string): FakeSocket;
}

export function fakeSocketFactory(): FakeSocketFactory {
  const sockets: FakeSocket[] = [];

  const createSocket = (url: string): SocketHandle => {
    const subject = new Subject<SocketEvent>();
    let isOpen = false;
    const fake: FakeSocket = {
      url,
      sent: [],
      subscribed: false,
      tornDown: false,
      open() {
        isOpen = true;
        subject.next({ kind: 'open' });
      },
      receive(msg) {
        subject.next({ kind: 'frames', frames: [{ event: normalise(JSON.stringify(msg)) }] });
      },
      receiveRaw(frame) {
        subject.next({ kind: 'frames', frames: [{ event: normalise(frame) }] });
      },
      receiveRun(frames) {
        subject.next({ kind: 'frames', frames: frames.map(({ raw, at }) => ({ event: normalise(raw), at })) });
      },
      close(code = 1006) {
        isOpen = false;
        subject.next({ kind: 'close', code });
        subject.complete();
      },
    };
    sockets.push(fake);
    const events$ = new Observable<SocketEvent>((subscriber) => {
      fake.subscribed = true;
      const inner = subject.subscribe(subscriber);
      return () => {
        inner.unsubscribe();
        fake.subscribed = false;
        fake.tornDown = true;
        isOpen = false;
      };
    });
    return {
      events$,
      sent$: new Subject<OutgoingFrame>().asObservable(),
      send(frame) {
        if (!isOpen) return false;
        fake.sent.push(frame);
        return true;
      },
      close() {
        fake.close(1000);
      },
    };
  };

  return {
    sockets,
    createSocket,
    last(url) {
      const matching = url === undefined ? sockets : sockets.filter((s) => s.url === url);
      const found = matching[matching.length - 1];
      if (!found) throw new Error(`no socket${url ? ` for ${url}` : ''} was created`);
      return found;
    },
  };
}

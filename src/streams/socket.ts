import { Observable, Subject, share } from 'rxjs';
import type { OutgoingFrame } from '../protocol/socket';
import { normalise, type ProtocolEvent } from './normalise';

/** The part of the WebSocket constructor we use; tests pass mock-socket's. */
export interface WebSocketLike {
  readonly readyState: number;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: { code: number; reason?: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}
export type WebSocketCtor = new (url: string) => WebSocketLike;

/** Sees every socket event as it happens, incoming frames as their raw text: the recorder's hook. */
export interface SocketTap {
  open(): void;
  close(code: number): void;
  received(raw: unknown): void;
  sent(frame: OutgoingFrame): void;
}

/** An incoming frame, normalised; `at` is the local time it arrived when that is not now (a replayed frame). */
export interface Frame {
  event: ProtocolEvent;
  at?: number;
}

export type SocketEvent =
  | { kind: 'open' }
  | { kind: 'close'; code: number }
  /** One frame live; a replay hands over a run of frames at once, each with its recorded time. */
  | { kind: 'frames'; frames: readonly Frame[] };

export interface SocketHandle {
  /** Open, frames (normalised) and close, in order. Subscribing opens the socket; it completes on close. */
  readonly events$: Observable<SocketEvent>;
  /** Frames the client sends, for recording. */
  readonly sent$: Observable<OutgoingFrame>;
  send(frame: OutgoingFrame): boolean;
  close(): void;
}

const OPEN = 1;

/** A socket's events, whatever its frames normalise into: the auction's protocol events or the bots' watch messages. */
export type FrameSocketEvent<E> = { kind: 'open' } | { kind: 'close'; code: number } | { kind: 'frames'; frames: readonly { event: E; at?: number }[] };

/**
 * The one WebSocket wrapper behind every socket of the app: one WebSocket per subscription of
 * `events$`, every incoming frame run through `normaliseFrame` (a bad frame becomes an event,
 * never an exception), everything seen by the tap. `send` reports whether the frame went out.
 */
export function openFrameSocket<E>(
  url: string,
  WebSocketImpl: WebSocketCtor,
  normaliseFrame: (data: unknown) => E,
  tap?: SocketTap,
): { events$: Observable<FrameSocketEvent<E>>; send(frame: OutgoingFrame): boolean; close(): void } {
  let ws: WebSocketLike | null = null;

  const events$ = new Observable<FrameSocketEvent<E>>((subscriber) => {
    let socket: WebSocketLike;
    try {
      socket = new WebSocketImpl(url);
    } catch {
      tap?.close(1006);
      subscriber.next({ kind: 'close', code: 1006 });
      subscriber.complete();
      return;
    }
    ws = socket;
    let closed = false;
    socket.onopen = () => {
      tap?.open();
      subscriber.next({ kind: 'open' });
    };
    socket.onmessage = (ev) => {
      tap?.received(ev.data);
      subscriber.next({ kind: 'frames', frames: [{ event: normaliseFrame(ev.data) }] });
    };
    socket.onerror = () => {
      /* a close always follows an error; it carries the outcome */
    };
    socket.onclose = (ev) => {
      closed = true;
      tap?.close(ev.code);
      subscriber.next({ kind: 'close', code: ev.code });
      subscriber.complete();
    };
    return () => {
      socket.onopen = socket.onmessage = socket.onclose = socket.onerror = null;
      if (socket.readyState <= OPEN) {
        socket.close(1000);
        // nobody listens any more: the close is recorded now, as the client closed it
        if (!closed) tap?.close(1000);
      }
      if (ws === socket) ws = null;
    };
  }).pipe(share());

  return {
    events$,
    send(frame) {
      if (!ws || ws.readyState !== OPEN) return false;
      ws.send(JSON.stringify(frame));
      tap?.sent(frame);
      return true;
    },
    close() {
      ws?.close(1000);
    },
  };
}

/**
 * The auction's and the user's socket: the shared wrapper with the protocol's normaliser, and the
 * frames sent as a stream for recording. The WebSocket constructor is a parameter so tests use mock-socket.
 */
export function createSocket(url: string, WebSocketImpl: WebSocketCtor, tap?: SocketTap): SocketHandle {
  const sent = new Subject<OutgoingFrame>();
  const socket = openFrameSocket(url, WebSocketImpl, normalise, tap);
  return {
    events$: socket.events$,
    sent$: sent.asObservable(),
    send(frame) {
      if (!socket.send(frame)) return false;
      sent.next(frame);
      return true;
    },
    close: socket.close,
  };
}

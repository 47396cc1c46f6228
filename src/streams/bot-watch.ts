import { Observable, share } from 'rxjs';
import { watchMsg, type WatchMsg } from '../protocol/bots';
import type { ClientFrame } from '../protocol/socket';
import type { SocketTap, WebSocketLike, WebSocketCtor } from './socket';

/**
 * The admins' bot watch socket (`/bots/watch` on the API port), the same way as the auction's:
 * one WebSocket per subscription, every frame normalised into a typed event (a bad frame is a
 * protocol error, never an exception) and recorded through the app's recorder on channel "bots".
 */
export type WatchEvent = { type: 'message'; msg: WatchMsg } | { type: 'protocol-error'; reason: 'json' | 'schema' | 'binary'; raw: string };

export interface WatchFrame {
  event: WatchEvent;
  /** The local time it arrived, when that is not now (a replayed frame). */
  at?: number;
}

export type WatchSocketEvent = { kind: 'open' } | { kind: 'close'; code: number } | { kind: 'frames'; frames: readonly WatchFrame[] };

export interface WatchSocketHandle {
  readonly events$: Observable<WatchSocketEvent>;
  send(frame: ClientFrame): boolean;
}

export function normaliseWatchParsed(parsed: unknown, raw?: string): WatchEvent {
  const result = watchMsg.safeParse(parsed);
  if (result.success) return { type: 'message', msg: result.data };
  return { type: 'protocol-error', reason: 'schema', raw: (raw ?? JSON.stringify(parsed) ?? '').slice(0, 500) };
}

export function normaliseWatch(frame: unknown): WatchEvent {
  if (typeof frame !== 'string') return { type: 'protocol-error', reason: 'binary', raw: '' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(frame);
  } catch {
    return { type: 'protocol-error', reason: 'json', raw: frame.slice(0, 500) };
  }
  return normaliseWatchParsed(parsed, frame);
}

/** The watch socket's URL from the API's base URL (http → ws, https → wss). */
export function botWatchUrl(apiBase: string, origin?: string): string {
  const url = new URL('bots/watch', new URL(apiBase, origin));
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

const OPEN = 1;

export function createWatchSocket(url: string, WebSocketImpl: WebSocketCtor, tap?: SocketTap): WatchSocketHandle {
  let ws: WebSocketLike | null = null;
  const events$ = new Observable<WatchSocketEvent>((subscriber) => {
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
      subscriber.next({ kind: 'frames', frames: [{ event: normaliseWatch(ev.data) }] });
    };
    socket.onerror = () => undefined;
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
  };
}

import type { Observable } from 'rxjs';
import { watchMsg, type WatchMsg } from '../protocol/bots';
import type { ClientFrame } from '../protocol/socket';
import { openFrameSocket, type SocketTap, type WebSocketCtor } from './socket';

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

/** The watch socket: the app's one socket wrapper (see socket.ts) with the watch messages' normaliser. */
export function createWatchSocket(url: string, WebSocketImpl: WebSocketCtor, tap?: SocketTap): WatchSocketHandle {
  const { events$, send } = openFrameSocket(url, WebSocketImpl, normaliseWatch, tap);
  return { events$, send };
}

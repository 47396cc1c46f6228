import type { Channel, OutgoingFrame } from '../protocol/socket';
import type { SocketTap } from './socket';

/**
 * The session recorder: every frame and every open/close of both sockets, as lines of the
 * recorded log format (JSON Lines, read back by log.ts), in a bounded ring buffer. Kept small: it is in every page's bundle.
 *
 *   {"v":1,"app":"kingdom@0.1.0","recordedAt":"…ISO…","user":"name"|null}   ← the header
 *   {"t":ms since start,"ch":"auction"|"user"|"bots","dir":"in"|"out"|"open"|"close","msg":{…}}
 *
 * An incoming frame that is not a JSON object is kept as its text: {"t","ch","dir":"in","raw":"…"}
 * ("binary":true when it was not text at all). A close carries {"code"}; an open carries {}.
 * The access token of an AUTHENTICATION frame is never recorded.
 */
export const LOG_VERSION = 1;
/** How many lines the app keeps: the last 50,000. */
export const RECORDER_LIMIT = 50_000;

export type LogDir = 'in' | 'out' | 'open' | 'close';
/** The channels a log may hold: the two sockets, and the admins' bot watch socket ("bots"). */
export type RecordedChannel = Channel | 'bots';

export interface LogHeader {
  v: typeof LOG_VERSION;
  app: string;
  recordedAt: string;
  user: string | null;
}

export interface LogLine {
  t: number;
  ch: RecordedChannel;
  dir: LogDir;
  msg?: Record<string, unknown>;
  raw?: string;
  binary?: true;
}

export interface Recorder {
  /** The hook `createSocket` calls for one channel. */
  tap(channel: RecordedChannel): SocketTap;
  /** The signed-in user named in the header. */
  setUser(user: string | null): void;
  header(): LogHeader;
  /** Lines kept, oldest first (without the header). */
  lines(): string[];
  /** The whole log: header, then the lines kept. */
  toJsonl(): string;
}

export const REDACTED_TOKEN = 'Bearer <redacted>';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function createRecorder(options: { app: string; now?: () => number; limit?: number; user?: string | null }): Recorder {
  const now = options.now ?? Date.now;
  const limit = options.limit ?? RECORDER_LIMIT;
  const start = now();
  const recordedAt = new Date(start).toISOString();
  let user = options.user ?? null;
  // a ring: `next` is where the next line goes, once `ring` is full it overwrites the oldest
  const ring: string[] = [];
  let next = 0;

  function push(line: LogLine) {
    const text = JSON.stringify(line);
    if (ring.length < limit) ring.push(text);
    else ring[next] = text;
    next = (next + 1) % limit;
  }

  function line(ch: RecordedChannel, dir: LogDir, extra: Partial<LogLine>): LogLine {
    return { t: now() - start, ch, dir, ...extra };
  }

  function incoming(ch: RecordedChannel, raw: unknown): LogLine {
    if (typeof raw !== 'string') return line(ch, 'in', { raw: '', binary: true });
    try {
      const parsed: unknown = JSON.parse(raw);
      if (isObject(parsed)) return line(ch, 'in', { msg: parsed });
    } catch {
      // not JSON: kept as text below
    }
    return line(ch, 'in', { raw });
  }

  function outgoing(frame: OutgoingFrame): Record<string, unknown> {
    return frame.type === 'AUTHENTICATION' ? { ...frame, access_token: REDACTED_TOKEN } : { ...frame };
  }

  const header = (): LogHeader => ({ v: LOG_VERSION, app: options.app, recordedAt, user });
  const lines = () => (ring.length < limit ? ring.slice() : [...ring.slice(next), ...ring.slice(0, next)]);

  return {
    tap: (ch) => ({
      open: () => push(line(ch, 'open', { msg: {} })),
      close: (code) => push(line(ch, 'close', { msg: { code } })),
      received: (raw) => push(incoming(ch, raw)),
      sent: (frame) => push(line(ch, 'out', { msg: outgoing(frame) })),
    }),
    setUser(value) {
      user = value;
    },
    header,
    lines,
    toJsonl: () => [JSON.stringify(header()), ...lines()].join('\n') + '\n',
  };
}

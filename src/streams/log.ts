import { Observable } from 'rxjs';
import { CHANNELS, type Channel } from '../protocol/socket';
import { LOG_VERSION, type LogDir, type LogHeader, type RecordedChannel } from './recorder';

/**
 * Reading a recorded socket log: every line is checked, and a
 * log that is malformed is an error naming its line (1 is the header).
 */
export type LogEntry<C extends RecordedChannel = Channel> =
  | { line: number; t: number; ch: C; dir: 'in'; msg: Record<string, unknown>; raw?: undefined; binary?: undefined }
  | { line: number; t: number; ch: C; dir: 'in'; raw: string; msg?: undefined; binary?: true }
  | { line: number; t: number; ch: C; dir: 'out' | 'open'; msg: Record<string, unknown> }
  | { line: number; t: number; ch: C; dir: 'close'; code: number };

export interface ParsedLog {
  header: LogHeader;
  entries: LogEntry[];
}

export class LogError extends Error {
  constructor(
    readonly line: number,
    detail: string,
  ) {
    super(`line ${line}: ${detail}`);
    this.name = 'LogError';
  }
}

const DIRS: readonly LogDir[] = ['in', 'out', 'open', 'close'];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseJson(text: string, line: number): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new LogError(line, `not JSON (${(error as Error).message})`);
  }
  if (!isObject(value)) throw new LogError(line, 'not a JSON object');
  return value;
}

export function parseHeader(text: string, line = 1): LogHeader {
  const h = parseJson(text, line);
  if (h.v !== LOG_VERSION) throw new LogError(line, `the header's "v" must be ${LOG_VERSION}`);
  if (typeof h.app !== 'string') throw new LogError(line, 'the header has no "app"');
  if (typeof h.recordedAt !== 'string' || Number.isNaN(Date.parse(h.recordedAt))) throw new LogError(line, 'the header\'s "recordedAt" is not an ISO time');
  if (h.user !== null && typeof h.user !== 'string') throw new LogError(line, 'the header\'s "user" must be a name or null');
  return { v: LOG_VERSION, app: h.app, recordedAt: h.recordedAt, user: h.user };
}

/** Every channel a log may hold; a reader takes its own and passes over the others' lines. */
export const RECORDED_CHANNELS: readonly RecordedChannel[] = [...CHANNELS, 'bots'];

/** One line after the header, checked field by field. */
export function parseEntry(text: string, line: number): LogEntry;
export function parseEntry<C extends RecordedChannel>(text: string, line: number, channels: readonly C[]): LogEntry<C> | null;
export function parseEntry(text: string, line: number, channels: readonly RecordedChannel[] = CHANNELS): LogEntry<RecordedChannel> | null {
  const o = parseJson(text, line);
  const { t, ch, dir } = o;
  if (typeof t !== 'number' || !Number.isFinite(t) || t < 0) throw new LogError(line, '"t" must be a number of milliseconds ≥ 0');
  if (!(RECORDED_CHANNELS as readonly unknown[]).includes(ch)) throw new LogError(line, `"ch" must be ${RECORDED_CHANNELS.slice(0, -1).join(', ')} or ${RECORDED_CHANNELS[RECORDED_CHANNELS.length - 1]}`);
  if (!(DIRS as readonly unknown[]).includes(dir)) throw new LogError(line, `"dir" must be one of ${DIRS.join(', ')}`);
  // another reader's channel (the bot watch socket in an auction replay, or the reverse)
  if (!(channels as readonly unknown[]).includes(ch)) return null;
  const channel = ch as RecordedChannel;
  if (dir === 'in') {
    if (isObject(o.msg) && o.raw === undefined) return { line, t, ch: channel, dir, msg: o.msg };
    if (typeof o.raw === 'string' && o.msg === undefined) {
      return o.binary === true ? { line, t, ch: channel, dir, raw: o.raw, binary: true } : { line, t, ch: channel, dir, raw: o.raw };
    }
    throw new LogError(line, 'an incoming frame needs either "msg" (an object) or "raw" (text)');
  }
  if (dir === 'close') {
    const code = isObject(o.msg) ? o.msg.code : undefined;
    if (code !== undefined && !Number.isInteger(code)) throw new LogError(line, 'a close\'s "msg.code" must be a whole number');
    return { line, t, ch: channel, dir, code: (code as number | undefined) ?? 1005 };
  }
  if (dir === 'open' && o.msg === undefined) return { line, t, ch: channel, dir, msg: {} };
  if (!isObject(o.msg)) throw new LogError(line, `"msg" must be an object`);
  return { line, t, ch: channel, dir: dir as 'out' | 'open', msg: o.msg };
}

/**
 * Lines of text, whatever the chunks they came in: each complete line is checked as it arrives
 * (the first is the header). Blank lines are allowed (a trailing newline).
 */
export function createLogReader(): ReturnType<typeof createChannelLogReader<Channel>> {
  return createChannelLogReader(CHANNELS);
}

/** The same for the lines of the given channels (e.g. ['bots'] for a bot monitor's log). */
export function createChannelLogReader<C extends RecordedChannel>(channels: readonly C[]) {
  type Entry = LogEntry<C>;
  let header: LogHeader | null = null;
  let rest = '';
  let line = 0;
  const take = (text: string, out: Entry[]) => {
    line += 1;
    const trimmed = text.endsWith('\r') ? text.slice(0, -1) : text;
    if (trimmed.trim() === '') return;
    if (!header) header = parseHeader(trimmed, line);
    else {
      const entry = parseEntry(trimmed, line, channels);
      if (entry) out.push(entry);
    }
  };
  return {
    get header() {
      return header;
    },
    /** The entries completed by this chunk. */
    push(chunk: string): Entry[] {
      const out: Entry[] = [];
      let start = 0;
      rest += chunk;
      for (let nl = rest.indexOf('\n'); nl >= 0; nl = rest.indexOf('\n', start)) {
        take(rest.slice(start, nl), out);
        start = nl + 1;
      }
      rest = rest.slice(start);
      return out;
    },
    /** The last line, when the text does not end with a newline. */
    end(): Entry[] {
      const out: Entry[] = [];
      if (rest !== '') take(rest, out);
      rest = '';
      if (!header) throw new LogError(1, 'the log is empty: it needs a header line');
      return out;
    },
  };
}

/** A whole log. */
export function parseLog(text: string): ParsedLog {
  const reader = createLogReader();
  const entries = reader.push(text);
  entries.push(...reader.end());
  return { header: reader.header as unknown as LogHeader, entries };
}

/** The RxJS form: chunks of text in (a file read piece by piece), checked entries out; the header first. */
export function logEntries() {
  return (source: Observable<string>) =>
    new Observable<{ header: LogHeader } | { entry: LogEntry }>((subscriber) => {
      const reader = createLogReader();
      let headerSent = false;
      const emit = (entries: LogEntry[]) => {
        if (!headerSent && reader.header) {
          headerSent = true;
          subscriber.next({ header: reader.header });
        }
        for (const entry of entries) subscriber.next({ entry });
      };
      return source.subscribe({
        next: (chunk) => {
          try {
            emit(reader.push(chunk));
          } catch (error) {
            subscriber.error(error);
          }
        },
        error: (error) => subscriber.error(error),
        complete: () => {
          try {
            emit(reader.end());
            subscriber.complete();
          } catch (error) {
            subscriber.error(error);
          }
        },
      });
    });
}

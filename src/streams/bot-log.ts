import { createChannelLogReader, type LogEntry } from './log';
import type { LogHeader } from './recorder';
import { normaliseWatch, normaliseWatchParsed, type WatchFrame } from './bot-watch';

/**
 * Reading a recorded bot watch session: the lines of channel
 * "bots" of a session log, through the same normaliser as live frames. Kept apart from
 * bot-watch.ts so the pages do not load the log reader.
 */
/** A recorded bot watch session: its header and the watch socket's messages, in order, with their times. */
export interface BotLog {
  header: LogHeader;
  entries: LogEntry<'bots'>[];
  frames: WatchFrame[];
}

/** Reads a recorded log (the app's session log or a bot monitor's) for its "bots" lines; a malformed line throws a LogError naming it. */
export function readBotLog(text: string): BotLog {
  const reader = createChannelLogReader(['bots'] as const);
  const entries = [...reader.push(text), ...reader.end()];
  const frames: WatchFrame[] = [];
  for (const entry of entries) {
    if (entry.dir !== 'in') continue;
    frames.push({ event: entry.msg ? normaliseWatchParsed(entry.msg) : normaliseWatch(entry.raw), at: entry.t });
  }
  return { header: reader.header as unknown as LogHeader, entries, frames };
}

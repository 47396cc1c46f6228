import { version } from '../../../package.json';
import { endpoints } from '../../api/config';
import { botWatchMachineFor } from '../../machines/bot-watch.machine';
import { botWatchUrl, createWatchSocket } from '../../streams/bot-watch';
import { createRecorder, type Recorder } from '../../streams/recorder';
import type { WebSocketCtor } from '../../streams/socket';

/**
 * The admins' bot watch, wired: the machine over the browser's WebSocket, every frame recorded,
 * and the URL it connects to. The bot pages start one actor of it each (`useBotWatch`).
 */

/**
 * The bot pages' own recorder (the same log format, channel "bots"): a watch socket may carry a
 * thousand log lines a second, so it keeps its own, smaller ring (2,000 frames, each a batch of
 * lines) instead of crowding the auction's out of the session log. Downloaded from the monitor.
 */
export const BOT_RECORDER_LIMIT = 2000;
let botRecorder: Recorder | null = null;
export function botSessionRecorder(): Recorder {
  botRecorder ??= createRecorder({ app: `kingdom@${version}`, limit: BOT_RECORDER_LIMIT });
  return botRecorder;
}

export function downloadBotLog() {
  const blob = new Blob([botSessionRecorder().toJsonl()], { type: 'application/x-ndjson' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `kingdom-bots-${new Date().toISOString().replace(/[:.]/g, '-')}.jsonl`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The watch machine on the browser's socket, recorded on channel "bots", and the URL of the watch socket. */
export function botWatchWiring() {
  return {
    machine: botWatchMachineFor((url) => createWatchSocket(url, window.WebSocket as unknown as WebSocketCtor, botSessionRecorder().tap('bots'))),
    url: botWatchUrl(endpoints().api, window.location.origin),
  };
}

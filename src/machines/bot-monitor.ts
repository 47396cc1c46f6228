import type { Bot, CommandOutcome, LogLevel, LogLine, SentCommand, WatchMsg } from '../protocol/bots';

/**
 * The bot monitor's fold: the admins' watch socket's messages, in order, give the bots' state,
 * their log lines and the console's commands with their answers. Pure and plain JSON, so a
 * recorded session replays to the same monitor.
 */
export interface CommandEntry {
  sent: SentCommand;
  answer: CommandOutcome | null;
}

export interface MonitorState {
  /** A snapshot arrived since the socket (re)opened. */
  ready: boolean;
  /** Server time of the last snapshot (epoch ms). */
  serverAt: number | null;
  bots: Record<string, Bot>;
  /** Oldest first, at most MONITOR_LINES; seq increases. */
  lines: LogLine[];
  commands: Record<string, CommandEntry>;
  /** Command ids, oldest first, at most MONITOR_COMMANDS. */
  commandOrder: string[];
  /** The server's last refusal (e.g. "Only admins may watch the bots."). */
  error: string | null;
}

export const MONITOR_LINES = 5000;
export const MONITOR_COMMANDS = 200;

export const emptyMonitor = (): MonitorState => ({ ready: false, serverAt: null, bots: {}, lines: [], commands: {}, commandOrder: [], error: null });

function withCommand(state: MonitorState, sent: SentCommand, answer: CommandOutcome | null): Pick<MonitorState, 'commands' | 'commandOrder'> {
  const known = state.commands[sent.id];
  const commands = { ...state.commands, [sent.id]: { sent, answer: answer ?? known?.answer ?? null } };
  let commandOrder = known ? state.commandOrder : [...state.commandOrder, sent.id];
  if (commandOrder.length > MONITOR_COMMANDS) {
    const gone = commandOrder.slice(0, commandOrder.length - MONITOR_COMMANDS);
    commandOrder = commandOrder.slice(-MONITOR_COMMANDS);
    for (const id of gone) delete commands[id];
  }
  return { commands, commandOrder };
}

function appendLines(lines: LogLine[], more: readonly LogLine[]): LogLine[] {
  const last = lines.length ? lines[lines.length - 1].seq : 0;
  const fresh = more.filter((l) => l.seq > last);
  if (fresh.length === 0) return lines;
  const all = lines.concat(fresh);
  return all.length > MONITOR_LINES ? all.slice(all.length - MONITOR_LINES) : all;
}

export function foldMonitor(state: MonitorState, msg: WatchMsg): MonitorState {
  switch (msg.type) {
    case 'BOTS_SNAPSHOT': {
      let next: MonitorState = {
        ready: true,
        serverAt: msg.at,
        bots: Object.fromEntries(msg.bots.map((b) => [String(b.id), b])),
        lines: appendLines([], msg.lines),
        commands: {},
        commandOrder: [],
        error: null,
      };
      const answers = new Map(msg.answers.map((a) => [a.id, a]));
      for (const sent of msg.commands) next = { ...next, ...withCommand(next, sent, answers.get(sent.id) ?? null) };
      return next;
    }
    case 'BOT_UPDATE':
      return { ...state, bots: { ...state.bots, [String(msg.bot.id)]: msg.bot } };
    case 'BOT_REMOVED': {
      const bots = { ...state.bots };
      delete bots[String(msg.botId)];
      return { ...state, bots };
    }
    case 'BOT_LOG_LINES':
      return { ...state, lines: appendLines(state.lines, msg.lines) };
    case 'COMMAND_SENT':
      return { ...state, ...withCommand(state, msg.command, null) };
    case 'COMMAND_ANSWER': {
      const entry = state.commands[msg.answer.id];
      if (!entry) return state;
      return { ...state, commands: { ...state.commands, [msg.answer.id]: { ...entry, answer: msg.answer } } };
    }
    case 'BOT_ERROR':
      return { ...state, error: msg.error };
  }
}

export function foldAll(messages: readonly WatchMsg[], state: MonitorState = emptyMonitor()): MonitorState {
  return messages.reduce(foldMonitor, state);
}

// ── what the pages show ───────────────────────────────────────────────────────────────────
export interface LineFilter {
  /** null: every bot. */
  botId: number | null;
  /** Levels shown; empty shows none. */
  levels: LogLevel[];
}

/** Lines that pass the filter, up to `untilSeq` (a paused monitor stops there). */
export function visibleLines(lines: readonly LogLine[], filter: LineFilter, untilSeq: number | null): LogLine[] {
  const levels = new Set(filter.levels);
  const out: LogLine[] = [];
  for (const line of lines) {
    if (untilSeq !== null && line.seq > untilSeq) break;
    if (filter.botId !== null && line.botId !== filter.botId) continue;
    if (!levels.has(line.level)) continue;
    out.push(line);
  }
  return out;
}

/** Bots by name. */
export function botList(state: MonitorState): Bot[] {
  return Object.values(state.bots).sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}

/** One bot's commands, oldest first. */
export function commandsOf(state: MonitorState, botId: number): CommandEntry[] {
  return state.commandOrder.map((id) => state.commands[id]).filter((c) => c && c.sent.botId === botId);
}

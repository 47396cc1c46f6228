import * as z from 'zod/mini';
import { endpoint, okAnswer, resultTrue } from './endpoint';
import { pathId, plainName } from './http';

/**
 * Scan bots: the REST calls an admin makes, the bot protocol a bot speaks on
 * `/bots` (the API port) and the watch socket an admin's pages follow on `/bots/watch`.
 *
 * Bot socket, bot → server: BOT_HELLO (first, once), BOT_STATUS (at least every 15 s), BOT_LOG,
 * COMMAND_RESULT. Server → bot: BOT_WELCOME (the hello was accepted), COMMAND, BOT_ERROR.
 * Watch socket, admin → server: AUTHENTICATION (first); server → admin: BOTS_SNAPSHOT, then
 * BOT_UPDATE, BOT_REMOVED, BOT_LOG_LINES (batched), COMMAND_SENT and COMMAND_ANSWER.
 */
export const BOT_MSG = {
  BOT_HELLO: 'BOT_HELLO',
  BOT_STATUS: 'BOT_STATUS',
  BOT_LOG: 'BOT_LOG',
  COMMAND: 'COMMAND',
  COMMAND_RESULT: 'COMMAND_RESULT',
  BOT_WELCOME: 'BOT_WELCOME',
  BOT_ERROR: 'BOT_ERROR',
  AUTHENTICATION: 'AUTHENTICATION',
  BOTS_SNAPSHOT: 'BOTS_SNAPSHOT',
  BOT_UPDATE: 'BOT_UPDATE',
  BOT_REMOVED: 'BOT_REMOVED',
  BOT_LOG_LINES: 'BOT_LOG_LINES',
  COMMAND_SENT: 'COMMAND_SENT',
  COMMAND_ANSWER: 'COMMAND_ANSWER',
} as const;

/** Path of the bot protocol and of the admins' watch socket, on the API port. */
export const BOT_SOCKET_PATH = '/bots';
export const BOT_WATCH_PATH = '/bots/watch';

/** A bot sends a status at least this often; with none for BOT_OFFLINE_AFTER_MS it is offline. */
export const BOT_STATUS_EVERY_MS = 15_000;
export const BOT_OFFLINE_AFTER_MS = 45_000;
/** Largest frame either socket takes (bytes); a bigger one is refused. */
export const BOT_MAX_FRAME_BYTES = 16_384;
export const BOT_NAME_MAX = 50;
export const BOT_LOG_TEXT_MAX = 2_000;
export const BOT_OUTPUT_MAX = 8_000;
export const BOT_MESSAGE_MAX = 500;
export const BOT_COMMAND_MAX = 40;
/** Commands every bot understands; a bot may announce more in its hello. */
export const BUILTIN_COMMANDS = ['ping', 'start-scan', 'stop', 'pause', 'resume'] as const;
export const BOT_STATES = ['idle', 'scanning', 'paused', 'needs-human', 'error'] as const;
export type BotState = (typeof BOT_STATES)[number];
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Close codes of the bot socket. */
export const BOT_CLOSE = {
  /** A bad, revoked or user token, or no hello in time. */
  unauthorized: 4401,
  /** No status for 45 s. */
  silent: 4408,
  /** The same bot connected again: the older connection goes. */
  replaced: 4409,
  /** Revoked or its token rotated while connected. */
  revoked: 4403,
  /** Too many frames, or the cap on bot connections. */
  overLimit: 4429,
} as const;

export const BOT_ERRORS = {
  name: `A bot's name has 1 to ${BOT_NAME_MAX} characters.`,
  nameTaken: 'A bot with this name already exists.',
  unknownBot: 'There is no bot with this id.',
  badBotId: 'A bot id is a whole number.',
  command: `A command is a word of 1 to ${BOT_COMMAND_MAX} letters, digits or dashes.`,
  args: 'Arguments are a list of at most 10 texts of at most 200 characters.',
  unknownCommand: 'This bot does not know this command.',
  offline: 'This bot is offline: it cannot take a command now.',
  tooManyBots: 'There are already 100 bots: revoke one first.',
  tooManyCommands: 'Too many commands waiting for this bot: wait for their answers.',
  tooManyCommandsSent: 'Too many commands in a minute: wait a little.',
} as const;

/**
 * What the reference agent (scripts/agent) says in its log and in its answers to commands: English
 * on the wire like every server text, so the console says them in the reader's language
 * (src/locales/server). A scanner's own output lines are sent as the scanner wrote them.
 */
export const AGENT_TEXTS = {
  watching: 'Watching {dir} (files settle after {seconds} s); scan command: {command}.',
  watchingNoCommand: 'Watching {dir} (files settle after {seconds} s); no scan command configured.',
  connected: 'Connected to {server} as {bot}.',
  command: 'Command: {command}',
  pong: 'pong (agent {version}, {state})',
  noScan: 'No scan is running.',
  stopping: 'Stopping the scan.',
  alreadyPaused: 'The scan is already paused.',
  noPauseOnWindows: 'Pausing is not available on Windows.',
  paused: 'Scan paused.',
  resumed: 'Scan resumed.',
  lookedAt: 'Looked at {dir}: {count} files sent in all.',
  sentImported: '{file}: imported (scan {scan})',
  sentDuplicate: '{file}: already on the server',
  sentRefused: '{file}: refused',
  nothingSent: 'Nothing sent yet.',
  answered: 'Answered: {answer}',
  answeredEnter: 'Answered with Enter.',
  unknownCommand: 'Unknown command: {command}',
  notConfigured: 'Scanning is not configured on this machine: start the agent with --scan-command "…".',
  alreadyScanning: 'A scan is already running.',
  couldNotStart: 'The scan command could not start: {error}',
  finished: 'The scan finished.',
  stoppedBySignal: 'The scan command was stopped ({signal}).',
  endedWithCode: 'The scan command ended with code {code}.',
  started: 'Scan started (process {pid}).',
  cannotRead: 'Cannot read {path}: {error}',
  changedSince: '{file} changed since it was sent: sending it again.',
  uploading: 'Uploading {file} ({bytes} bytes)…',
  rowsLeftOut: '{file}: {bad} of {rows} rows cannot be used and are left out.',
  alreadyOnServer: '{file} is already on the server: {message}',
  refused: '{file} was refused: {message}',
  imported: '{file} imported: scan {scan}, {rows} governors.',
  tryLater: 'Could not upload {file} now ({error}); trying again later.',
} as const;

const text = (max: number) => z.string().check(z.maxLength(max));
const epochMs = z.number();

export const botProgress = z.object({
  done: z.int().check(z.gte(0)),
  total: z.int().check(z.gte(0)),
  etaSeconds: z.nullable(z.optional(z.number().check(z.gte(0)))),
});
export type BotProgress = z.infer<typeof botProgress>;

const commandName = z.string().check(z.regex(/^[a-z0-9][a-z0-9-]{0,39}$/i, BOT_ERRORS.command));
const commandArgs = z.array(text(200)).check(z.maxLength(10, BOT_ERRORS.args));

// ── bot → server ────────────────────────────────────────────────────────────────────────────
export const botHello = z.object({
  type: z.literal(BOT_MSG.BOT_HELLO),
  token: text(200),
  version: text(50),
  commands: z.optional(z.array(commandName).check(z.maxLength(20))),
});
export const botStatus = z.object({
  type: z.literal(BOT_MSG.BOT_STATUS),
  state: z.enum(BOT_STATES),
  progress: z.optional(botProgress),
  message: z.optional(text(BOT_MESSAGE_MAX)),
});
export const botLog = z.object({ type: z.literal(BOT_MSG.BOT_LOG), level: z.enum(LOG_LEVELS), text: text(BOT_LOG_TEXT_MAX) });
export const commandResult = z.object({ type: z.literal(BOT_MSG.COMMAND_RESULT), id: text(64), ok: z.boolean(), output: text(BOT_OUTPUT_MAX) });
export const botFrame = z.discriminatedUnion('type', [botHello, botStatus, botLog, commandResult]);
export type BotFrame = z.infer<typeof botFrame>;

// ── server → bot ────────────────────────────────────────────────────────────────────────────
export const commandFrame = z.object({ type: z.literal(BOT_MSG.COMMAND), id: z.string(), command: z.string(), args: z.optional(z.array(z.string())) });
export type CommandFrame = z.infer<typeof commandFrame>;
export const botWelcome = z.object({ type: z.literal(BOT_MSG.BOT_WELCOME), bot: z.object({ id: z.int(), name: z.string() }), statusEverySeconds: z.int() });
export const botError = z.object({ type: z.literal(BOT_MSG.BOT_ERROR), error: z.string() });
export const toBotFrame = z.discriminatedUnion('type', [commandFrame, botWelcome, botError]);
export type ToBotFrame = z.infer<typeof toBotFrame>;

// ── REST ────────────────────────────────────────────────────────────────────────────────────
export const bot = z.object({
  id: z.int(),
  name: z.string(),
  online: z.boolean(),
  state: z.nullable(z.enum(BOT_STATES)),
  progress: z.optional(z.nullable(botProgress)),
  message: z.optional(z.nullable(z.string())),
  lastSeenAt: z.nullable(epochMs),
  lastScanAt: z.nullable(epochMs),
  version: z.nullable(z.string()),
  /** Commands this bot understands: the built-in ones and those it announced. */
  commands: z.array(z.string()),
  createdAt: epochMs,
});
export type Bot = z.infer<typeof bot>;

export const botBody = z.object({
  name: z.pipe(
    z.string({ error: BOT_ERRORS.name }),
    z.transform((s) => s.trim()),
  ).check(z.minLength(1, BOT_ERRORS.name), z.maxLength(BOT_NAME_MAX, BOT_ERRORS.name), plainName()),
});
export const commandBody = z.object({ command: commandName, args: z.optional(commandArgs) });
export type CommandBody = z.infer<typeof commandBody>;

export const botsAnswer = resultTrue({ bots: z.array(bot) });
export const registeredAnswer = resultTrue({ bot: z.object({ id: z.int(), name: z.string() }), token: z.string() });
export const commandAnswer = resultTrue({ command: z.object({ id: z.string() }) });

// ── watch socket (admins) ───────────────────────────────────────────────────────────────────
export const logLine = z.object({
  /** Increases by one for every line the server keeps, across all bots: the monitor's order and key. */
  seq: z.int(),
  botId: z.int(),
  at: epochMs,
  level: z.enum(LOG_LEVELS),
  text: z.string(),
});
export type LogLine = z.infer<typeof logLine>;

export const sentCommand = z.object({
  id: z.string(),
  botId: z.int(),
  command: z.string(),
  args: z.optional(z.array(z.string())),
  at: epochMs,
  by: z.string(),
});
export type SentCommand = z.infer<typeof sentCommand>;
export const commandOutcome = z.object({ id: z.string(), botId: z.int(), ok: z.boolean(), output: z.string(), at: epochMs });
export type CommandOutcome = z.infer<typeof commandOutcome>;

export const watchAuthentication = z.object({ type: z.literal(BOT_MSG.AUTHENTICATION), access_token: text(2048) });
export const botsSnapshot = z.object({
  type: z.literal(BOT_MSG.BOTS_SNAPSHOT),
  at: epochMs,
  bots: z.array(bot),
  lines: z.array(logLine),
  commands: z.array(sentCommand),
  answers: z.array(commandOutcome),
});
export const botUpdate = z.object({ type: z.literal(BOT_MSG.BOT_UPDATE), bot });
export const botRemoved = z.object({ type: z.literal(BOT_MSG.BOT_REMOVED), botId: z.int() });
export const botLogLines = z.object({ type: z.literal(BOT_MSG.BOT_LOG_LINES), lines: z.array(logLine) });
export const commandSent = z.object({ type: z.literal(BOT_MSG.COMMAND_SENT), command: sentCommand });
export const commandAnswered = z.object({ type: z.literal(BOT_MSG.COMMAND_ANSWER), answer: commandOutcome });
export const watchError = z.object({ type: z.literal(BOT_MSG.BOT_ERROR), error: z.string() });
export const watchMsg = z.discriminatedUnion('type', [botsSnapshot, botUpdate, botRemoved, botLogLines, commandSent, commandAnswered, watchError]);
export type WatchMsg = z.infer<typeof watchMsg>;

/** A malformed bot id is a 400 with its text. */
const botIdParams = { id: pathId(BOT_ERRORS.badBotId, { digits: 9 }) };

/** The scan bots' REST endpoints, admins only (the bots' own socket and the watch socket are BOT_MSG's). */
export const BOTS_API = {
  list: endpoint({
    method: 'GET',
    path: 'bots',
    answer: botsAnswer,
    errors: [401, 403],
    tag: 'bots',
    summary: 'Every bot: online or not (a status within 45 s), its state, progress, last scan and version',
  }),
  register: endpoint({
    method: 'POST',
    path: 'bots',
    body: botBody,
    answer: registeredAnswer,
    errors: [400, 401, 403, 409],
    tag: 'bots',
    summary: 'Register a bot: the answer holds its token, shown this once (only its hash is kept)',
  }),
  rotate: endpoint({
    method: 'POST',
    path: 'bots/:id/token',
    params: botIdParams,
    answer: registeredAnswer,
    errors: [400, 401, 403, 404],
    tag: 'bots',
    summary: "Rotate a bot's token: the old one stops working at once (a connected bot is disconnected); the new one is shown this once",
  }),
  revoke: endpoint({
    method: 'DELETE',
    path: 'bots/:id',
    params: botIdParams,
    answer: okAnswer,
    errors: [400, 401, 403, 404],
    tag: 'bots',
    summary: 'Revoke a bot: its token stops working at once and a connected bot is disconnected',
  }),
  command: endpoint({
    method: 'POST',
    path: 'bots/:id/commands',
    params: botIdParams,
    body: commandBody,
    answer: commandAnswer,
    errors: [400, 401, 403, 404, 409, 429],
    tag: 'bots',
    summary: 'Send a command to an online bot (ping, start-scan, stop, pause, resume, or one it announced); its answer arrives on the watch socket (/bots/watch) as COMMAND_ANSWER',
  }),
} as const;

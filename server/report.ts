import type * as SentryNode from '@sentry/node';
import type { FastifyBaseLogger } from 'fastify';
import { ConfigError } from './config';
import type { FailedFrame } from './sockets/protocol-log';

/**
 * Errors surfaced: with SENTRY_DSN set, the server reports to Sentry what it
 * logs as its own failure — an unexpected error the error mapper turns into a 500, a socket frame
 * whose handler failed, a frame that failed the protocol (as often as the protocol log writes a
 * line), and every error-level line of the auction engine (its schedule and bid jobs). Without a
 * DSN nothing is built and nothing is sent.
 *
 * Each server has its own Sentry client and scope (not `Sentry.init`'s global one): no process-wide
 * handlers or instrumentation, two servers in one process (tests) report apart, and `close`
 * flushes what is still on its way. No personal data: no request bodies, headers or addresses, a
 * user only by id, extra fields only numbers, booleans and short strings under names that are not
 * personal, and every text scrubbed of e-mail addresses and tokens before it leaves. The SDK is
 * loaded only when a DSN is set (it takes most of a second to load).
 */
export interface ErrorReporter {
  /** Whether reports go anywhere (a DSN is set). */
  readonly enabled: boolean;
  /** An unexpected error: `where` it happened (http, socket, auction…), a user id when known, plain extra facts. */
  exception(error: unknown, context: ReportContext): void;
  /** A socket frame that failed the protocol (never the frame itself: it may carry a token). */
  protocolFailure(frame: FailedFrame): void;
  /** Sends what is still queued (up to `timeoutMs`) and stops reporting. */
  close(timeoutMs?: number): Promise<void>;
}

export interface ReportContext {
  where: string;
  /** What the server was doing, in a few words (the log line's text). */
  message?: string;
  userId?: number | null;
  extra?: Record<string, unknown>;
}

const noReports: ErrorReporter = {
  enabled: false,
  exception: () => undefined,
  protocolFailure: () => undefined,
  close: () => Promise.resolve(),
};

/** How long closing the server waits for reports still on their way. */
export const REPORT_FLUSH_MS = 2_000;

/** A DSN is `http(s)://PUBLIC_KEY@HOST[:PORT]/[PATH/]PROJECT_ID`; anything else is refused at start-up, not silently ignored. */
export function checkDsn(dsn: string): void {
  let url: URL;
  try {
    url = new URL(dsn);
  } catch {
    throw new ConfigError('SENTRY_DSN is not a URL: set it to the DSN Sentry gives (https://KEY@HOST/PROJECT_ID), or leave it unset.');
  }
  const project = url.pathname.split('/').pop() ?? '';
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.username || !/^\d+$/.test(project)) {
    throw new ConfigError('SENTRY_DSN is not a Sentry DSN: it reads https://KEY@HOST/PROJECT_ID (a public key before the @, a project number at the end).');
  }
}

const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
const JWT = /\beyJ[\w-]*\.[\w-]*\.[\w-]*/g;
const BEARER = /\bBearer\s+\S+/gi;

/** A text without e-mail addresses or tokens. */
export function scrub(text: string): string {
  return text.replace(BEARER, 'Bearer [token]').replace(JWT, '[token]').replace(EMAIL, '[email]');
}

const PERSONAL = /mail|pass|token|secret|auth|cookie|session|^ip$|address|username|phone|governor|player/i;
const MAX_TEXT = 200;

/** Extra facts fit to send: numbers, booleans and short texts (scrubbed) under names that are not personal. */
export function safeExtra(extra: Record<string, unknown> | undefined): Record<string, string | number | boolean | null> {
  const out: Record<string, string | number | boolean | null> = {};
  for (const [key, value] of Object.entries(extra ?? {})) {
    if (PERSONAL.test(key)) continue;
    if (value === null || typeof value === 'number' || typeof value === 'boolean') out[key] = value;
    else if (typeof value === 'string') out[key] = scrub(value.slice(0, MAX_TEXT));
  }
  return out;
}

/** Removes what must never leave the server from an event, whatever an integration put in it. */
function scrubEvent(event: SentryNode.ErrorEvent): SentryNode.ErrorEvent {
  delete event.request;
  delete event.breadcrumbs;
  if (event.user) event.user = event.user.id === undefined ? undefined : { id: event.user.id };
  if (event.message) event.message = scrub(event.message);
  for (const value of event.exception?.values ?? []) if (value.value) value.value = scrub(value.value);
  if (event.extra) event.extra = safeExtra(event.extra);
  return event;
}

/** The server's reporter: a Sentry client of its own when `dsn` is set, else one that does nothing. */
export async function createReporter(dsn: string | null, options: { release?: string } = {}): Promise<ErrorReporter> {
  if (!dsn) return noReports;
  checkDsn(dsn);
  const Sentry = await import('@sentry/node');
  const client = new Sentry.NodeClient({
    dsn,
    release: options.release,
    transport: Sentry.makeNodeTransport,
    stackParser: Sentry.defaultStackParser,
    // the error's own causes, repeats dropped; no integration that reads requests, the console or the host
    integrations: [Sentry.dedupeIntegration(), Sentry.linkedErrorsIntegration(), Sentry.functionToStringIntegration()],
    beforeSend: scrubEvent,
  });
  const scope = new Sentry.Scope();
  scope.setClient(client);
  client.init();
  let open = true;

  return {
    enabled: true,
    exception(error, { where, message, userId, extra }) {
      if (!open) return;
      const captureContext = {
        tags: { where },
        extra: { ...safeExtra(extra), ...(message ? { message } : {}) },
        ...(typeof userId === 'number' ? { user: { id: String(userId) } } : {}),
      };
      if (error instanceof Error) scope.captureException(error, { captureContext });
      else scope.captureMessage(message ?? `${where} failed`, 'error', { captureContext });
    },
    protocolFailure(frame) {
      if (!open) return;
      scope.captureMessage(`socket frame failed the protocol on the ${frame.channel} socket: ${frame.reason}`, 'warning', {
        captureContext: {
          tags: { where: 'socket', channel: frame.channel, reason: frame.reason },
          extra: safeExtra({
            connectionId: frame.connectionId,
            frameType: frame.type,
            issuePath: frame.issue?.path,
            issue: frame.issue?.message,
          }),
          ...(frame.userId !== null ? { user: { id: String(frame.userId) } } : {}),
        },
      });
    },
    async close(timeoutMs = REPORT_FLUSH_MS) {
      if (!open) return;
      open = false;
      await client.close(timeoutMs);
    },
  };
}

/**
 * A logger that also reports each line it writes at error or fatal level (the error under `err`,
 * the text, the ids beside them), for parts whose failures are logged where they happen (the
 * auction engine's schedule and bid jobs). Everything else goes to `log` unchanged.
 */
export function reportingLogger(log: FastifyBaseLogger, reporter: ErrorReporter, where: string): FastifyBaseLogger {
  if (!reporter.enabled) return log;
  const report = (args: unknown[]) => {
    const [first, second] = args;
    if (first instanceof Error) {
      reporter.exception(first, { where, message: typeof second === 'string' ? second : undefined });
      return;
    }
    if (typeof first === 'object' && first !== null) {
      const { err, userId, ...rest } = first as Record<string, unknown>;
      reporter.exception(err, { where, message: typeof second === 'string' ? second : undefined, userId: typeof userId === 'number' ? userId : null, extra: rest });
      return;
    }
    if (typeof first === 'string') reporter.exception(undefined, { where, message: first });
  };
  return new Proxy(log, {
    get(target, property) {
      if (property === 'error' || property === 'fatal') {
        return (...args: unknown[]) => {
          report(args);
          return (target[property] as (...a: unknown[]) => void)(...args);
        };
      }
      if (property === 'child') {
        return (...args: Parameters<FastifyBaseLogger['child']>) => reportingLogger(target.child(...args), reporter, where);
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

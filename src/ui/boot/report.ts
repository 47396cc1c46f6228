import type { ConnectionOutEvent } from '../../machines/connection.machine';

/**
 * Errors surfaced: render errors caught by the error boundary and frames that
 * failed the protocol reach Sentry when a DSN is configured; protocol errors are also logged to
 * the console, a bounded number of times per page (a broken server must not flood it).
 */
export interface ErrorSink {
  captureException(error: unknown, hint?: { extra?: Record<string, unknown> }): unknown;
  captureMessage(message: string, hint?: { level?: 'warning'; extra?: Record<string, unknown> }): unknown;
}

let sink: ErrorSink | null = null;

/** Loads Sentry (apart, so it costs nothing without a DSN) and sends it what is reported from then on. */
export function startReporting(dsn: string): Promise<void> {
  return import('@sentry/react').then((Sentry) => {
    Sentry.init({ dsn, tracesSampleRate: 1, integrations: [Sentry.browserTracingIntegration()] });
    sink = Sentry;
  });
}

/** For tests: where reports go (null: nowhere). */
export function setErrorSink(next: ErrorSink | null): void {
  sink = next;
}

export function reportError(error: unknown, extra?: Record<string, unknown>): void {
  sink?.captureException(error, extra ? { extra } : undefined);
}

export type ProtocolErrors = Extract<ConnectionOutEvent, { type: 'CONNECTION.PROTOCOL_ERRORS' }>;

/** At most this many protocol errors are written to the console and reported per page; then one last line says the rest are not. */
export const PROTOCOL_ERRORS_LOGGED = 20;

export function createProtocolErrorReporter(options: { warn?: (...args: unknown[]) => void; limit?: number } = {}) {
  const warn = options.warn ?? ((...args: unknown[]) => console.warn(...args));
  const limit = options.limit ?? PROTOCOL_ERRORS_LOGGED;
  let count = 0;
  return ({ channel, errors }: Pick<ProtocolErrors, 'channel' | 'errors'>) => {
    for (const error of errors) {
      count += 1;
      if (count > limit + 1) return;
      if (count === limit + 1) {
        warn(`[kingdom] more frames failed the protocol on the ${channel} socket; no more are logged on this page`);
        return;
      }
      const detail = error.detail ? `: ${error.detail}` : '';
      warn(`[kingdom] a frame on the ${channel} socket failed the protocol (${error.reason}${detail})`, error.raw);
      sink?.captureMessage(`protocol error on the ${channel} socket: ${error.reason}${detail}`, { level: 'warning', extra: { channel, reason: error.reason, detail: error.detail, raw: error.raw } });
    }
  };
}

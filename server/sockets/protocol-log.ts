import type { FastifyBaseLogger } from 'fastify';
import type { Channel } from '../../src/protocol/socket';
import type { Budget } from './limits';
import { TokenBucket, type Clock } from './rate-limit';

/** Why a frame failed the protocol. */
export type ProtocolFailure = 'binary' | 'too-large' | 'json' | 'unknown-type' | 'schema' | 'authentication';

export interface FailedFrame {
  channel: Channel;
  reason: ProtocolFailure;
  connectionId: number;
  userId: number | null;
  /** The frame's `type` when it had a short string one (never the frame: it may carry a token). */
  type?: string;
  /** For a schema failure: where (the path) and what (the issue's text) of the first issue. */
  issue?: { path: string; message: string };
}

/** Lines per second, and at once: a flood cannot fill the log (Pino writes synchronously). */
export const PROTOCOL_LOG_BUDGET: Budget = { perSecond: 1, burst: 20 };

/**
 * Logs frames that fail the protocol, at warn, with their reason, bounded: at
 * most PROTOCOL_LOG_BUDGET lines, for all connections together; what is left out is counted and
 * the next line written says how many (`suppressed`). Each line written is also handed to `report`
 * (Sentry when SENTRY_DSN is set, server/report.ts), so reports are bounded by the same budget.
 */
export class ProtocolLog {
  private readonly bucket: TokenBucket;
  private suppressed = 0;

  constructor(
    private readonly log: Pick<FastifyBaseLogger, 'warn'>,
    clock: Clock,
    budget: Budget = PROTOCOL_LOG_BUDGET,
    private readonly report: (frame: FailedFrame) => void = () => undefined,
  ) {
    this.bucket = new TokenBucket(budget, clock);
  }

  failed(frame: FailedFrame): void {
    if (!this.bucket.take()) {
      this.suppressed += 1;
      return;
    }
    const suppressed = this.suppressed;
    this.suppressed = 0;
    this.log.warn({ frame, ...(suppressed ? { suppressed } : {}) }, 'socket frame failed the protocol');
    this.report(frame);
  }
}

/** A frame's `type`, when it is a short string (for the log line). */
export function frameType(parsed: unknown): string | undefined {
  const type = typeof parsed === 'object' && parsed !== null ? (parsed as { type?: unknown }).type : undefined;
  return typeof type === 'string' ? type.slice(0, 40) : undefined;
}

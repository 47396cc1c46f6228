import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import type { KvkStatus } from '../../../api/kvk';
import { KVK_ERRORS } from '../../../protocol/kvk';
import { cn } from '../../lib/cn';
import { useServerText } from '../../lib/server-text';
import { isUnreachable } from '../../lib/unreachable';
import { Alert } from '../alert';
import { useErrorText } from '../query-error';
import { Progress } from '../progress';

// KvK parts the KvK pages and a player's profile share.

/** A status as a coloured tag: met green, not met red, exempt grey, zeroed amber. */
const STATUS_CLASSES: Record<KvkStatus, string> = {
  met: 'bg-success/15 text-success ring-success/30',
  'not-met': 'bg-danger/10 text-danger ring-danger/30',
  exempt: 'bg-muted text-muted-foreground ring-border',
  zeroed: 'bg-warning/15 text-warning ring-warning/30',
};

export function StatusTag({ status, className }: { status: KvkStatus; className?: string }) {
  return (
    <span data-status={status} className={cn('inline-flex items-center whitespace-nowrap rounded px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset', STATUS_CLASSES[status], className)}>
      <FormattedMessage id={`kvk.status.${status}`} />
    </span>
  );
}

/** A progress bar (0–100, computed by the server) with its percentage, named for screen readers. */
export function ProgressBar({ value, labelId }: { value: number; labelId: string }) {
  const intl = useIntl();
  return (
    <span className="flex min-w-0 items-center gap-2" data-value={value}>
      <Progress
        value={value}
        className="h-2 min-w-12 flex-1"
        indicatorClassName={value >= 100 ? 'bg-success' : undefined}
        aria-label={intl.formatMessage({ id: labelId })}
        aria-valuetext={intl.formatNumber(value / 100, { style: 'percent' })}
      />
      <span className="w-10 shrink-0 text-end text-xs tabular-nums text-muted-foreground">{intl.formatNumber(value / 100, { style: 'percent' })}</span>
    </span>
  );
}

/**
 * The KvK form's texts in the reader's language, in the form's own words ("requirement rows" for
 * brackets); a window's name after its text is kept. Any other text goes to `say` (the server's
 * texts in the reader's language).
 */
export function kvkError(intl: IntlShape, message: string, say: (text: string) => string): string {
  for (const [key, text] of Object.entries(KVK_ERRORS)) {
    // query errors (a bad sort or page) come from no form and keep the server's text
    if (!(`kvk.error.${key}` in intl.messages)) continue;
    if (message === text) return intl.formatMessage({ id: `kvk.error.${key}` });
    if (message.startsWith(`${text} (`)) return `${intl.formatMessage({ id: `kvk.error.${key}` })} ${message.slice(text.length + 1)}`;
  }
  return say(message);
}

export function KvkAlert({ error }: { error: unknown }) {
  const intl = useIntl();
  const text = useErrorText();
  const say = useServerText();
  if (!error) return null;
  return (
    <Alert variant="error">
      <bdi>{isUnreachable(error) ? text(error) : kvkError(intl, (error as Error).message, say)}</bdi>
    </Alert>
  );
}


import type { ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { isUnreachable } from '../lib/unreachable';
import { useServerText } from '../lib/server-text';
import { Alert } from './alert';

/** An error said in an alert, its text isolated (a server's English text on a right-to-left page). */
export function ErrorAlert({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <Alert variant="error" className={className}>
      <bdi>{children}</bdi>
    </Alert>
  );
}

/**
 * What a failed query or mutation says to the reader: the server's text in their language, or,
 * when the server could not be reached, that (not the browser's "Failed to fetch").
 */
export function useErrorText(): (error: unknown) => string {
  const intl = useIntl();
  const say = useServerText();
  return (error) => {
    if (isUnreachable(error)) return intl.formatMessage({ id: 'content.unreachable' });
    return say(error instanceof Error ? error.message : String(error));
  };
}

/** An error from a query or a mutation, in the reader's language; nothing when there is none. */
export function QueryError({ error, className }: { error: unknown; className?: string }) {
  const text = useErrorText();
  if (!error) return null;
  return <ErrorAlert className={className}>{text(error)}</ErrorAlert>;
}

/** The same text inline, for a field's or a row's own error line. */
export function ErrorText({ error }: { error: unknown }) {
  const text = useErrorText();
  return <>{text(error)}</>;
}

import type { ReactNode } from 'react';
import { Alert } from './alert';

/** An error said in an alert, its text isolated (a server's English text on a right-to-left page). */
export function ErrorAlert({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <Alert variant="error" className={className}>
      <bdi>{children}</bdi>
    </Alert>
  );
}

/** An error from a query or a mutation, with the server's text; nothing when there is none. */
export function QueryError({ error }: { error: unknown }) {
  if (!error) return null;
  return <ErrorAlert>{(error as Error).message}</ErrorAlert>;
}

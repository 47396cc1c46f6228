import { Alert } from './alert';

/** An error from a query, with the server's text. */
export function QueryError({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <Alert variant="error">
      <bdi>{(error as Error).message}</bdi>
    </Alert>
  );
}

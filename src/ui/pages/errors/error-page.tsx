import { FormattedMessage } from 'react-intl';
import { Button } from '../../components/button';
import { isUnreachable } from '../../lib/unreachable';

/**
 * The 403, 404 and 500 pages: a code, its text (or the access-denied one) and 'Go to Home'.
 * With onRetry (the content area's error), a Retry instead, and a red dot when there is no code.
 */
export function ErrorPage({
  code,
  textId,
  detailId,
  onRetry,
}: {
  code?: 403 | 404 | 500;
  textId: string;
  detailId?: string;
  onRetry?: () => void;
}) {
  return (
    <div role={onRetry && 'alert'} className="flex min-h-[60vh] flex-col items-center justify-center gap-4 px-4 text-center">
      {code ? <p className="text-7xl font-bold text-primary">{code}</p> : <span aria-hidden="true" className="h-3 w-3 rounded-full bg-danger" />}
      <h1 className="max-w-md text-xl font-semibold">
        <FormattedMessage id={textId} />
      </h1>
      {detailId && (
        <p className="max-w-md text-sm text-muted-foreground">
          <FormattedMessage id={detailId} />
        </p>
      )}
      {onRetry ? (
        <Button onClick={onRetry}>
          <FormattedMessage id="content.retry" />
        </Button>
      ) : (
        <Button asChild>
          {/* a full load: after a crash the app starts clean */}
          <a href="/">
            <FormattedMessage id="error.goHome" />
          </a>
        </Button>
      )}
    </div>
  );
}

export function NotFoundPage() {
  return <ErrorPage code={404} textId="error.404" />;
}

export function ServerErrorPage() {
  return <ErrorPage code={500} textId="error.500" />;
}

/**
 * What the content area shows when its page could not be shown: Disconnected when the server could
 * not be reached (the page's code or its data did not load), the 500 text otherwise; both with a
 * Retry that loads the page and its data again. The shell around it stays.
 */
export function ContentError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const unreachable = isUnreachable(error);
  return unreachable ? (
    <ErrorPage textId="topbar.disconnected" detailId="content.unreachable" onRetry={onRetry} />
  ) : (
    <ErrorPage code={500} textId="error.500" detailId="content.failed" onRetry={onRetry} />
  );
}

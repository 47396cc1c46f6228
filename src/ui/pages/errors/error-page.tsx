import { FormattedMessage } from 'react-intl';
import { Button } from '../../components/button';

/** The 404 and 500 pages: a code, SPEC 2's text and 'Go to Home'. */
export function ErrorPage({ code, textId }: { code: 404 | 500; textId: string }) {
  return (
    <div className="flex min-h-[60vh] flex-col items-center justify-center gap-4 px-4 text-center" data-testid={`error-${code}`}>
      <p className="text-7xl font-bold text-primary">{code}</p>
      <h1 className="max-w-md text-xl font-semibold">
        <FormattedMessage id={textId} />
      </h1>
      <Button asChild>
        {/* a full load: after a crash the app starts clean */}
        <a href="/">
          <FormattedMessage id="error.goHome" />
        </a>
      </Button>
    </div>
  );
}

export function NotFoundPage() {
  return <ErrorPage code={404} textId="error.404" />;
}

export function ServerErrorPage() {
  return <ErrorPage code={500} textId="error.500" />;
}

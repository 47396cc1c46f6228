import { FormattedMessage } from 'react-intl';
import { cn } from '../lib/cn';

export function Spinner({ className }: { className?: string }) {
  return <span aria-hidden="true" className={cn('inline-block h-6 w-6 animate-spin rounded-full border-2 border-muted border-t-primary', className)} />;
}

/** The full-page loader shown while the user is loading. */
export function FullPageLoader() {
  return (
    <div role="status" data-testid="full-page-loader" className="fixed inset-0 z-50 flex flex-col items-center justify-center gap-3 bg-background">
      <Spinner className="h-10 w-10" />
      <span className="text-sm text-muted-foreground">
        <FormattedMessage id="app.loading" />
      </span>
    </div>
  );
}

import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';

/** A page's title (its menu entry's name). */
export function PageTitle({ titleId }: { titleId: string }) {
  return (
    <h1 className="text-2xl font-semibold">
      <FormattedMessage id={titleId} />
    </h1>
  );
}

/** A page's title, with what belongs beside it (a button, a live status) at the inline end. */
export function PageHeader({ titleId, children }: { titleId: string; children?: ReactNode }) {
  if (!children) return <PageTitle titleId={titleId} />;
  return (
    <div className="flex flex-wrap items-center justify-between gap-2">
      <PageTitle titleId={titleId} />
      {children}
    </div>
  );
}

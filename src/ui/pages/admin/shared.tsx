import { FormattedDate, FormattedMessage } from 'react-intl';

/** A time in a table cell: date and time, or "Never" when there is none. */
export function When({ at, wrap = false }: { at: number | null; wrap?: boolean }) {
  if (at === null) {
    return (
      <span className="text-muted-foreground">
        <FormattedMessage id="admin.never" />
      </span>
    );
  }
  return (
    <time dateTime={new Date(at).toISOString()} className={wrap ? 'tabular-nums' : 'whitespace-nowrap tabular-nums'}>
      <FormattedDate value={at} dateStyle="medium" timeStyle="short" />
    </time>
  );
}

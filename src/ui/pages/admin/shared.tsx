import { FormattedDate, FormattedMessage } from 'react-intl';

/** A time in a table cell: date and time, or "Never" when there is none. */
export function When({ at }: { at: number | null }) {
  if (at === null) {
    return (
      <span className="text-muted-foreground">
        <FormattedMessage id="admin.never" />
      </span>
    );
  }
  return (
    <time dateTime={new Date(at).toISOString()} className="whitespace-nowrap tabular-nums">
      <FormattedDate value={at} dateStyle="medium" timeStyle="short" />
    </time>
  );
}

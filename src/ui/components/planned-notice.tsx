import { FormattedMessage } from 'react-intl';
import { Card } from './card';

/** The plain notice of a feature that a later release brings: no sample data, ever. */
export function PlannedNotice({ textId = 'planned.text' }: { textId?: string }) {
  return (
    <Card data-testid="planned">
      <h2 className="font-semibold">
        <FormattedMessage id="planned.title" />
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        <FormattedMessage id={textId} />
      </p>
    </Card>
  );
}

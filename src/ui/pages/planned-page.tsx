import { FormattedMessage } from 'react-intl';
import { Card } from '../components/card';

/** A route whose feature comes in a later release says so plainly, with no sample data. */
export default function PlannedPage({ titleId }: { titleId: string }) {
  return (
    <div className="grid gap-4">
      <h1 className="text-2xl font-semibold">
        <FormattedMessage id={titleId} />
      </h1>
      <Card data-testid="planned">
        <h2 className="font-semibold">
          <FormattedMessage id="planned.title" />
        </h2>
        <p className="mt-1 text-sm text-muted-foreground">
          <FormattedMessage id="planned.text" />
        </p>
      </Card>
    </div>
  );
}

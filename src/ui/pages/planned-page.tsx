import { FormattedMessage } from 'react-intl';
import { PlannedNotice } from '../components/planned-notice';

/** A route whose feature comes in a later release says so plainly, with no sample data. */
export default function PlannedPage({ titleId }: { titleId: string }) {
  return (
    <div className="grid gap-4">
      <h1 className="text-2xl font-semibold">
        <FormattedMessage id={titleId} />
      </h1>
      <PlannedNotice />
    </div>
  );
}

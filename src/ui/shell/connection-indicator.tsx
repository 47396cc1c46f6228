import { FormattedMessage } from 'react-intl';
import { useConnected } from '../app-context';
import { cn } from '../lib/cn';

/** Connected when both sockets are authenticated; otherwise Disconnected. */
export function ConnectionIndicator() {
  const connected = useConnected();
  return (
    <span data-connected={connected} className="inline-flex items-center gap-2 text-sm" aria-live="polite">
      <span aria-hidden="true" className={cn('h-2.5 w-2.5 rounded-full', connected ? 'bg-success' : 'bg-danger')} />
      <FormattedMessage id={connected ? 'topbar.connected' : 'topbar.disconnected'} />
    </span>
  );
}

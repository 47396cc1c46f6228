import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'wouter';
import { useChild } from '../app-context';
import { Popover, PopoverContent, PopoverTrigger } from '../components/popover';

/** The user popover: Account Settings and Logout. */
export function UserPopover() {
  const intl = useIntl();
  const auth = useChild('auth');
  const username = useSelector(auth, (s) => s.context.user?.username ?? '');
  const [open, setOpen] = useState(false);
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger
        aria-label={intl.formatMessage({ id: 'app.userMenu' })}
        data-testid="user-popover-trigger"
        className="flex h-9 w-9 cursor-pointer items-center justify-center rounded-full bg-primary text-sm font-semibold uppercase text-primary-foreground"
      >
        {username.slice(0, 1) || '?'}
      </PopoverTrigger>
      <PopoverContent>
        <div className="border-b border-border px-3 py-2 text-sm font-medium">{username}</div>
        <Link
          href="/my-account/account-settings"
          onClick={() => setOpen(false)}
          className="block rounded px-3 py-2 text-sm hover:bg-muted"
        >
          <FormattedMessage id="popover.accountSettings" />
        </Link>
        <button
          type="button"
          onClick={() => {
            setOpen(false);
            auth.send({ type: 'LOGOUT' });
          }}
          className="block w-full cursor-pointer rounded px-3 py-2 text-start text-sm text-danger hover:bg-muted"
        >
          <FormattedMessage id="popover.logout" />
        </button>
      </PopoverContent>
    </Popover>
  );
}

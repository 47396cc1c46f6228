import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'wouter';
import type { Recorder } from '../../streams/recorder';
import { useChild, useRuntime } from '../app-context';
import { Popover, PopoverContent, PopoverTrigger } from '../components/popover';

/** Saves the recorded session (both sockets, JSON Lines) as a file, for QA to replay. */
function downloadLog(recorder: Recorder) {
  const blob = new Blob([recorder.toJsonl()], { type: 'application/x-ndjson' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `kingdom-session-${new Date().toISOString().replace(/[:.]/g, '-')}.jsonl`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The user popover: Account Settings, Download session log and Logout. */
export function UserPopover() {
  const intl = useIntl();
  const { recorder } = useRuntime();
  const auth = useChild('auth');
  const username = useSelector(auth, (s) => s.context.user?.username ?? '');
  const [open, setOpen] = useState(false);
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger
        aria-label={intl.formatMessage({ id: 'app.userMenu' })}
        className="flex h-9 w-9 cursor-pointer items-center justify-center rounded-full bg-primary text-sm font-semibold uppercase text-primary-foreground"
      >
        {username.slice(0, 1) || '?'}
      </PopoverTrigger>
      <PopoverContent>
        <div dir="auto" className="truncate border-b border-border px-3 py-2 text-sm font-medium rtl:text-right">{username}</div>
        <Link
          href="/my-account/account-settings"
          onClick={() => setOpen(false)}
          className="block rounded px-3 py-2 text-sm hover:bg-muted"
        >
          <FormattedMessage id="popover.accountSettings" />
        </Link>
        {recorder && (
          <button
            type="button"
            onClick={() => {
              setOpen(false);
              downloadLog(recorder);
            }}
            className="block w-full cursor-pointer rounded px-3 py-2 text-start text-sm hover:bg-muted"
          >
            <FormattedMessage id="popover.downloadLog" />
          </button>
        )}
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

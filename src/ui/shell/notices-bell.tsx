import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'wouter';
import { selectNewestNotices, selectUnread } from '../../machines/notices.machine';
import { useChild } from '../app-context';
import { Button } from '../components/button';
import { NoticeRow } from '../components/notices/notice-sentence';
import { Popover, PopoverContent, PopoverTrigger } from '../components/popover';

/** The bell shows this many of the newest notices; the notices page has them all. */
const SHOWN = 5;

/** The top bar's bell: the unread count (no badge at 0), opening the newest notices, Mark all read and a link to the page. */
export function NoticesBell() {
  const intl = useIntl();
  const notices = useChild('notices');
  const unread = useSelector(notices, selectUnread);
  const newest = useSelector(notices, selectNewestNotices);
  const [open, setOpen] = useState(false);
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger
        aria-label={intl.formatMessage({ id: 'notices.bell' }, { count: unread })}
        className="relative flex h-9 w-9 cursor-pointer items-center justify-center rounded-md hover:bg-muted"
      >
        <svg viewBox="0 0 24 24" className="h-5 w-5" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
          <path d="M6 8a6 6 0 1 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
          <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
        </svg>
        {unread > 0 && (
          <span aria-hidden="true" className="absolute -top-0.5 -end-0.5 min-w-4.5 rounded-full bg-danger px-1 text-center text-[0.6875rem] leading-4.5 font-semibold text-danger-foreground tabular-nums">
            {unread > 99 ? '99+' : intl.formatNumber(unread)}
          </span>
        )}
      </PopoverTrigger>
      <PopoverContent collisionPadding={8} className="w-80 max-w-[calc(100vw-1rem)] p-0" aria-label={intl.formatMessage({ id: 'notices.newest' })}>
        <div className="flex items-center justify-between gap-2 border-b border-border px-3 py-2">
          <h2 className="text-sm font-semibold">
            <FormattedMessage id="notices.newest" />
          </h2>
          {unread > 0 && (
            <Button size="sm" variant="ghost" onClick={() => notices.send({ type: 'MARK_READ' })}>
              <FormattedMessage id="notices.markAllRead" />
            </Button>
          )}
        </div>
        {newest.length === 0 ? (
          <p className="px-3 py-4 text-sm text-muted-foreground">
            <FormattedMessage id="notices.none" />
          </p>
        ) : (
          <ul className="max-h-[min(30rem,65vh)] divide-y divide-border overflow-y-auto overscroll-contain text-sm">
            {newest.slice(0, SHOWN).map((n) => (
              <li key={n.id} className="px-3 py-2">
                <NoticeRow notice={n} onFollow={() => setOpen(false)} />
              </li>
            ))}
          </ul>
        )}
        <Link href="/my-account/notices" onClick={() => setOpen(false)} className="block border-t border-border px-3 py-2 text-center text-sm font-medium text-primary hover:bg-muted">
          <FormattedMessage id="notices.seeAll" />
        </Link>
      </PopoverContent>
    </Popover>
  );
}

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { FormattedDate, FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'wouter';
import { createNoticesApi, noticesKeys } from '../../../api/notices';
import { selectMarking, selectNewestId, selectUnread } from '../../../machines/notices.machine';
import { useChild } from '../../app-context';
import { Button } from '../../components/button';
import { Card, CardHeader, CardTitle } from '../../components/card';
import { NoticeRow, noticeHref } from '../../components/notices/notice-sentence';
import { Pagination } from '../../components/pagination';
import { QueryError } from '../../components/query-error';
import { Skeleton } from '../../components/skeleton';
import { useApi } from '../../lib/use-api';
import { WatchStar, useWatchlist } from './watch-star';

/**
 * Every notice of the last 30 days, newest first, a page at a time. The list is the server's; it
 * is asked again when the notices actor hears of a new notice or a change of the unread count, so
 * the page is live like the bell.
 */
function NoticesList() {
  const intl = useIntl();
  const api = useApi(createNoticesApi);
  const notices = useChild('notices');
  const unread = useSelector(notices, selectUnread);
  const newestId = useSelector(notices, selectNewestId);
  const marking = useSelector(notices, selectMarking);
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: [...noticesKeys.list(page), { newestId, unread, marking }],
    queryFn: () => api.list(page),
    enabled: !marking,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
  return (
    <Card>
      <CardHeader title={<FormattedMessage id="notices.all" />}>
        <Button size="sm" variant="outline" disabled={unread === 0} onClick={() => notices.send({ type: 'MARK_READ' })}>
          <FormattedMessage id="notices.markAllRead" />
        </Button>
      </CardHeader>
      <QueryError error={list.error} />
      {list.isPending ? (
        <div className="grid gap-2">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-10" />
          ))}
        </div>
      ) : list.data && list.data.notices.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          <FormattedMessage id="notices.none" />
        </p>
      ) : (
        <ul className="divide-y divide-border text-sm" aria-label={intl.formatMessage({ id: 'notices.all' })}>
          {list.data?.notices.map((n) => (
            <li key={n.id} className="py-2">
              <NoticeRow notice={n} />
            </li>
          ))}
        </ul>
      )}
      {list.data && <Pagination page={list.data.page} pages={list.data.pages} onPage={setPage} />}
    </Card>
  );
}

/** The items the reader watches, each with its star to stop watching and a link to its card. */
function Watchlist() {
  const intl = useIntl();
  const watchlist = useWatchlist();
  return (
    <Card>
      <CardTitle>
        <FormattedMessage id="notices.watchlist" />
      </CardTitle>
      <QueryError error={watchlist.error} />
      {watchlist.data && watchlist.data.length === 0 && (
        <p className="text-sm text-muted-foreground">
          <FormattedMessage id="notices.watchlistNone" />
        </p>
      )}
      {watchlist.data && watchlist.data.length > 0 && (
        <ul className="divide-y divide-border text-sm" aria-label={intl.formatMessage({ id: 'notices.watchlist' })}>
          {watchlist.data.map((it) => (
            <li key={it.itemId} className="flex items-center gap-2 py-2">
              <div className="min-w-0 flex-1">
                <Link href={noticeHref(it.itemId)} className="font-medium wrap-anywhere hover:underline">
                  <bdi>{it.itemName}</bdi>
                </Link>
                <span className="block text-xs text-muted-foreground">
                  {it.state === 'live' ? (
                    <FormattedMessage id="notices.watchEnds" values={{ time: <FormattedDate value={it.endsAt} month="short" day="numeric" hour="2-digit" minute="2-digit" /> }} />
                  ) : (
                    <FormattedMessage id="notices.watchStarts" values={{ time: <FormattedDate value={it.startsAt} month="short" day="numeric" hour="2-digit" minute="2-digit" /> }} />
                  )}
                </span>
              </div>
              <WatchStar itemId={it.itemId} itemName={it.itemName} />
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

/** /my-account/notices: every notice, Mark all read, and the watchlist. */
export default function NoticesPage({ titleId }: { titleId: string }) {
  return (
    <div className="grid gap-4">
      <h1 className="text-2xl font-semibold">
        <FormattedMessage id={titleId} />
      </h1>
      <div className="grid grid-cols-1 gap-4 xl:grid-cols-[minmax(0,1fr)_22rem]">
        <NoticesList />
        <Watchlist />
      </div>
    </div>
  );
}

import { FormattedDate, FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'wouter';
import type { Notice } from '../../../protocol/notices';
import { cn } from '../../lib/cn';

/** Where a notice about an item leads: its card in the store (the store scrolls to `?item=`). */
export const noticeHref = (itemId: number) => `/my-account/kingdom-store?item=${itemId}`;

/** The message that says a notice: one per kind; points say granted or deducted by their sign. */
function messageIdOf(notice: Pick<Notice, 'kind' | 'amount'>): string {
  if (notice.kind === 'points' && (notice.amount ?? 0) < 0) return 'notices.kind.pointsDeducted';
  return `notices.kind.${notice.kind}`;
}

/** A notice as a sentence in the reader's language ("You were outbid on Gold Dragon: 1,250"). */
export function NoticeSentence({ notice }: { notice: Pick<Notice, 'kind' | 'amount' | 'itemId' | 'itemName'> }) {
  const intl = useIntl();
  const item = notice.itemName ?? (notice.itemId === undefined ? '' : `#${notice.itemId}`);
  const amount = notice.amount === undefined ? '—' : intl.formatNumber(Math.abs(notice.amount));
  return <FormattedMessage id={messageIdOf(notice)} values={{ item: <bdi className="font-medium">{item}</bdi>, amount: <span className="tabular-nums">{amount}</span> }} />;
}

/**
 * One notice in a list: its sentence (a link to the item's card when it names an item), when it
 * came, and a mark while it is unread.
 */
export function NoticeRow({ notice, onFollow, className }: { notice: Notice; onFollow?: () => void; className?: string }) {
  const intl = useIntl();
  const sentence = <NoticeSentence notice={notice} />;
  return (
    <div className={cn('flex items-start gap-2', className)} data-unread={!notice.read}>
      <span
        aria-hidden="true"
        className={cn('mt-1.5 h-2 w-2 shrink-0 rounded-full', notice.read ? 'bg-transparent' : 'bg-primary')}
      />
      <div className="min-w-0 flex-1 wrap-anywhere">
        {!notice.read && <span className="sr-only">{intl.formatMessage({ id: 'notices.unreadMark' })} </span>}
        {notice.itemId === undefined ? (
          <span>{sentence}</span>
        ) : (
          <Link href={noticeHref(notice.itemId)} onClick={onFollow} className="hover:underline">
            {sentence}
          </Link>
        )}
        <time dateTime={new Date(notice.at).toISOString()} className="block text-xs text-muted-foreground">
          <FormattedDate value={notice.at} month="short" day="numeric" hour="2-digit" minute="2-digit" />
        </time>
      </div>
    </div>
  );
}

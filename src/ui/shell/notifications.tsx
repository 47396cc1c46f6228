import * as Toast from '@radix-ui/react-toast';
import { useSelector } from '@xstate/react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useChild } from '../app-context';
import { cn } from '../lib/cn';
import type { Notification } from '../../machines/notifications.machine';
import { RTL_LOCALES, type Locale } from '../../protocol/locales';
import { useServerText } from '../lib/server-text';

/** Names (items, players) keep their own direction inside a translated sentence; numbers stay numbers for ICU. */
const isolated = (values: Notification['values']) =>
  values && Object.fromEntries(Object.entries(values).map(([k, v]) => [k, typeof v === 'string' ? <bdi>{v}</bdi> : v]));

const KIND: Record<Notification['kind'], string> = {
  error: 'border-s-danger',
  success: 'border-s-success',
  warning: 'border-s-warning',
  info: 'border-s-primary',
};

/**
 * Renders the notifications actor's queue (at most three: the actor decides), newest on top; the
 * actor decides when each one closes. They stack at the bottom, at the inline end on a wide screen
 * and across the width on a phone, so they never cover the header (menu, language picker, avatar)
 * nor Latest bids; above the cookie banner while it is shown.
 */
export default function Notifications() {
  const intl = useIntl();
  const say = useServerText();
  const ref = useChild('notifications');
  const items = useSelector(ref, (s) => s.context.items);
  const rtl = RTL_LOCALES.includes(intl.locale as Locale);
  return (
    <Toast.Provider duration={Infinity} swipeDirection={rtl ? 'left' : 'right'}>
      {items.map((n) => (
        <Toast.Root
          key={n.id}
          open
          onOpenChange={(open) => !open && ref.send({ type: 'DISMISS', id: n.id })}
          data-kind={n.kind}
          className={cn('relative min-w-0 rounded-md border border-border border-s-4 bg-card p-4 pe-10 shadow-lg', KIND[n.kind])}
        >
          <Toast.Title className="font-semibold wrap-anywhere">
            <FormattedMessage id={n.titleId} values={isolated(n.values)} />
          </Toast.Title>
          <Toast.Description className="mt-1 text-sm text-muted-foreground wrap-anywhere">
            {n.textId ? <FormattedMessage id={n.textId} values={isolated(n.values)} /> : say(n.text ?? '')}
          </Toast.Description>
          <Toast.Close aria-label={intl.formatMessage({ id: 'notify.dismiss' })} className="absolute end-3 top-3 cursor-pointer text-muted-foreground hover:text-foreground">
            ✕
          </Toast.Close>
        </Toast.Root>
      ))}
      {/* the toasts are in arrival order (Radix portals each into the list as it comes): shown bottom up */}
      <Toast.Viewport
        label={intl.formatMessage({ id: 'notify.region' })}
        className="fixed bottom-0 end-0 z-[60] flex w-full max-w-sm flex-col-reverse gap-2 p-4 outline-none [body:has([data-testid=cookie-banner])_&]:bottom-28 sm:[body:has([data-testid=cookie-banner])_&]:bottom-16"
      />
    </Toast.Provider>
  );
}

import * as Toast from '@radix-ui/react-toast';
import { useSelector } from '@xstate/react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useChild } from '../app-context';
import { cn } from '../lib/cn';
import type { Notification } from '../../machines/notifications.machine';

const KIND: Record<Notification['kind'], string> = {
  error: 'border-s-danger',
  success: 'border-s-success',
  warning: 'border-s-warning',
  info: 'border-s-primary',
};

/** Renders the notifications actor's queue; the actor decides when each one closes. */
export default function Notifications() {
  const intl = useIntl();
  const ref = useChild('notifications');
  const items = useSelector(ref, (s) => s.context.items);
  return (
    <Toast.Provider duration={Infinity} swipeDirection="right">
      {items.map((n) => (
        <Toast.Root
          key={n.id}
          open
          onOpenChange={(open) => !open && ref.send({ type: 'DISMISS', id: n.id })}
          data-testid="notification"
          data-kind={n.kind}
          className={cn('relative rounded-md border border-border border-s-4 bg-card p-4 pe-10 shadow-lg', KIND[n.kind])}
        >
          <Toast.Title className="font-semibold">
            <FormattedMessage id={n.titleId} values={n.values} />
          </Toast.Title>
          <Toast.Description className="mt-1 text-sm text-muted-foreground">
            {n.textId ? <FormattedMessage id={n.textId} values={n.values} /> : n.text}
          </Toast.Description>
          <Toast.Close aria-label={intl.formatMessage({ id: 'notify.dismiss' })} className="absolute end-3 top-3 cursor-pointer text-muted-foreground hover:text-foreground">
            ✕
          </Toast.Close>
        </Toast.Root>
      ))}
      <Toast.Viewport className="fixed end-0 top-0 z-[60] flex w-full max-w-sm flex-col gap-2 p-4 outline-none" />
    </Toast.Provider>
  );
}

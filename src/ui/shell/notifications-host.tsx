import { useSelector } from '@xstate/react';
import { Suspense, lazy, useState } from 'react';
import { useChild } from '../app-context';

const Notifications = lazy(() => import('./notifications'));

/**
 * Mounts the toasts (Radix Toast and its layers) with the first notification, not with the first
 * page: /signin stays small, and once loaded they stay mounted.
 */
export function NotificationsHost() {
  const any = useSelector(useChild('notifications'), (s) => s.context.items.length > 0);
  const [needed, setNeeded] = useState(false);
  if (any && !needed) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Notifications />
    </Suspense>
  );
}

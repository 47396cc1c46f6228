import { assign, enqueueActions, setup } from 'xstate';

/**
 * The notification queue. A notification carries locale message ids (title and text) or a raw
 * text from the server; it closes itself after `duration` ms of the system clock.
 */
export interface Notification {
  id: number;
  kind: 'error' | 'success' | 'info' | 'warning';
  titleId: string;
  textId?: string;
  text?: string;
  values?: Record<string, string | number>;
  duration: number;
  /** Notifications with the same key replace each other in place (e.g. one "New Bid!" at a time). */
  key?: string;
}

export type NotificationInput = Omit<Notification, 'id' | 'duration'> & { duration?: number };

export type NotificationsEvent =
  | { type: 'NOTIFY'; notification: NotificationInput }
  | { type: 'DISMISS'; id: number }
  /** Closes the notification with this key, if one is open (a sign-in's error once it has succeeded). */
  | { type: 'DISMISS_KEY'; key: string };

export const DEFAULT_DURATION_MS = 6000;
/** At most this many on screen (a pile of toasts hides the page); a new one drops the oldest. */
export const MAX_VISIBLE = 3;

export const notificationsMachine = setup({
  types: {
    context: {} as { items: Notification[]; nextId: number },
    events: {} as NotificationsEvent,
  },
}).createMachine({
  id: 'notifications',
  context: { items: [], nextId: 1 },
  on: {
    NOTIFY: {
      actions: enqueueActions(({ context, event, enqueue }) => {
        const { key } = event.notification;
        const same = key === undefined ? undefined : context.items.find((n) => n.key === key);
        if (same) {
          // in place: the same id (no new toast), the new content, a fresh timer
          const notification: Notification = { duration: DEFAULT_DURATION_MS, ...event.notification, id: same.id };
          enqueue.cancel(`dismiss-${same.id}`);
          enqueue.assign({ items: context.items.map((n) => (n.id === same.id ? notification : n)) });
          enqueue.raise({ type: 'DISMISS', id: same.id }, { delay: notification.duration, id: `dismiss-${same.id}` });
          return;
        }
        const notification: Notification = { duration: DEFAULT_DURATION_MS, ...event.notification, id: context.nextId };
        const all = [...context.items, notification];
        // the dropped ones' timers go with them
        for (const dropped of all.slice(0, -MAX_VISIBLE)) enqueue.cancel(`dismiss-${dropped.id}`);
        enqueue.assign({
          items: all.slice(-MAX_VISIBLE),
          nextId: context.nextId + 1,
        });
        enqueue.raise({ type: 'DISMISS', id: notification.id }, { delay: notification.duration, id: `dismiss-${notification.id}` });
      }),
    },
    DISMISS_KEY: {
      actions: enqueueActions(({ context, event, enqueue }) => {
        const same = context.items.find((n) => n.key === event.key);
        if (same) enqueue.raise({ type: 'DISMISS', id: same.id });
      }),
    },
    DISMISS: {
      actions: [
        enqueueActions(({ event, enqueue }) => enqueue.cancel(`dismiss-${event.id}`)),
        assign({ items: ({ context, event }) => context.items.filter((n) => n.id !== event.id) }),
      ],
    },
  },
});

import { useSyncExternalStore } from 'react';
import { liveClock } from '../../machines/clock';

/** One shared ticker for every countdown on the page: a single interval, whatever the item count. Time is the app's actor system's clock. */
const listeners = new Set<() => void>();
let now = liveClock.now();
let timer: ReturnType<typeof setInterval> | null = null;

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (!timer) {
    now = liveClock.now();
    timer = setInterval(() => {
      now = liveClock.now();
      for (const l of listeners) l();
    }, 1000);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/** This clock's time, refreshed every second. */
export function useNow(): number {
  return useSyncExternalStore(subscribe, () => now);
}

/** "2d 03:04:05", "03:04:05" or "04:05": digits read the same in every language. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const d = Math.floor(total / 86400);
  const h = Math.floor((total % 86400) / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  const clock = h > 0 || d > 0 ? `${pad(h)}:${pad(m)}:${pad(s)}` : `${pad(m)}:${pad(s)}`;
  return d > 0 ? `${d}d ${clock}` : clock;
}

import fs from 'node:fs';
import os from 'node:os';

/** The CPU priority a backup runs at: the lowest, so it takes only what the server leaves. */
export const BACKUP_NICE = 19;

/**
 * Puts every thread of process `pid` (this one by default) at BACKUP_NICE. On Linux a priority
 * belongs to a thread, not a process: `os.setPriority(pid, 10)` lowered the main thread only, while
 * V8's threads and libuv's (the zlib threads that deflate the backup) kept the server's priority and
 * competed with its bids for the cores. The threads are listed in /proc/PID/task; threads made later
 * inherit the priority of the thread that makes them. Elsewhere the process is set as a whole.
 * Returns false where nothing could be lowered (not allowed): the backup then runs as it is.
 */
export function lowerPriority(pid: number = process.pid): boolean {
  let ids: number[];
  try {
    ids = fs.readdirSync(`/proc/${pid}/task`).map(Number).filter((id) => Number.isInteger(id) && id > 0);
  } catch {
    ids = [pid];
  }
  let lowered = false;
  for (const id of ids) {
    try {
      os.setPriority(id, BACKUP_NICE);
      lowered = true;
    } catch {
      // a thread that ended meanwhile, or not allowed: the others still step aside
    }
  }
  return lowered;
}

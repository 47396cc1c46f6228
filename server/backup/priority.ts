import fs from 'node:fs';
import os from 'node:os';

/** The CPU priority a backup runs at: the lowest, so it takes only what the server leaves. */
export const BACKUP_NICE = 19;

/**
 * Puts every thread of process `pid` (this one by default) at BACKUP_NICE. On Linux a priority
 * belongs to a thread, not a process, and a new thread takes its maker's: a process lowered as it
 * is spawned has all its threads lowered, but one lowered once it runs (the CLI's own
 * `os.setPriority(10)`) had its main thread lowered only, while V8's threads and libuv's (the zlib
 * threads that deflate the backup) kept the shell's priority and competed with the server's bids
 * for the cores. So each thread listed in /proc/PID/task is set. Elsewhere the process is set as a
 * whole. Returns false where nothing could be lowered (not allowed): the backup then runs as it is.
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

import os from 'node:os';
import { serveJobs } from '../workers/serve';
import { readRows } from '../points/bulk-file';
import { scanFileOf } from '../scans/read';
import { PART_ROWS, type ReadAnswer, type ReadJob, type ReadPart } from './readers';

/**
 * A file-reading thread (server/files/readers.ts): a scan file to its parsed rows, or a bulk award
 * file to its rows. The long lists go back a part at a time; the answer carries the rest.
 */
// reading a file is background work: on Linux a thread has its own nice value (0 names this thread),
// so when the cores are busy the event loop that answers bids is run first (elsewhere the value is
// the whole process's, which must keep its own)
if (process.platform === 'linux') {
  try {
    os.setPriority(0, 10);
  } catch {
    // not allowed here: the thread runs at the process's priority
  }
}

serveJobs<ReadJob, ReadAnswer, ReadPart>(async (job, send) => {
  const bytes = Buffer.from(job.bytes);
  if (job.kind === 'bulk') {
    const rows = await readRows(bytes);
    for (let at = 0; at < rows.length; at += PART_ROWS) await send({ list: 'rows', items: rows.slice(at, at + PART_ROWS) });
    return { answer: { kind: 'bulk' } };
  }
  const file = await scanFileOf(bytes);
  const { rows, errors, warnings, ...rest } = file.parsed;
  for (const [list, items] of [['rows', rows], ['errors', errors], ['warnings', warnings]] as const) {
    for (let at = 0; at < items.length; at += PART_ROWS) await send({ list, items: items.slice(at, at + PART_ROWS) });
  }
  return { answer: { kind: 'scan', file: { ...file, parsed: { ...rest, rows: [], errors: [], warnings: [] } } } };
});

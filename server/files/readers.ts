import { HTTP_ERRORS } from '../../src/protocol/http';
import type { RawRow } from '../points/bulk';
import type { ScanFile } from '../scans/read';
import { Invalid, Unavailable } from '../errors';
import { WorkerPool, type WorkerPoolOptions } from '../workers/pool';

/** A file to read, moved to the thread. */
export type ReadJob = { kind: 'scan' | 'bulk'; bytes: ArrayBuffer };
export type ReadAnswer = { kind: 'scan'; file: ScanFile } | { kind: 'bulk' };
/** A slice of one of the answer's long lists, in order. */
export type ReadPart = { list: 'rows' | 'errors' | 'warnings'; items: unknown[] };

/** Items of a list a part carries: about a millisecond or two of copying into the main thread each. */
export const PART_ROWS = 500;

/**
 * One thread, four files waiting: a 25,000-governor × 60-column workbook takes its thread a few
 * seconds and about 50 MB of heap (its sheet read as a stream, server/files/xlsx.ts); 256 MB leaves
 * room for the largest file the limits let in.
 */
export const DEFAULT_READERS: WorkerPoolOptions = { size: 1, maxQueue: 4, maxMemoryMb: 256 };

/**
 * Scan files and bulk award files are read (unzipped, parsed, checked) in worker threads, so a
 * large spreadsheet never holds up the bids and requests of everyone else: a queue in front, a
 * 503 with a sentence over it, a 400 with a sentence for a file that needs more memory than a
 * thread has, a 503 when a thread stops during a file. The answer comes back a part at a time.
 */
export class FileReaders {
  private readonly pool: WorkerPool<ReadJob, ReadAnswer, ReadPart>;

  constructor(options: WorkerPoolOptions = DEFAULT_READERS) {
    this.pool = new WorkerPool({
      ...options,
      module: new URL('./read-worker.ts', import.meta.url),
      refuse: {
        busy: () => new Unavailable(HTTP_ERRORS.readersBusy),
        outOfMemory: () => new Invalid(HTTP_ERRORS.readOutOfMemory),
        stopped: () => new Unavailable(HTTP_ERRORS.readStopped),
      },
    });
  }

  /** 'start' when a file is handed to a thread. */
  get events() {
    return this.pool.events;
  }

  /** Files being read or waiting. */
  get pending(): number {
    return this.pool.pending;
  }

  /** A scan file read, checked and parsed (server/scans/read.ts, scanFileOf). */
  async scan(bytes: Uint8Array): Promise<ScanFile> {
    const lists: Record<ReadPart['list'], unknown[]> = { rows: [], errors: [], warnings: [] };
    const answer = await this.read('scan', bytes, lists);
    if (answer.kind !== 'scan') throw new Error('A scan file was read as another kind.');
    return { ...answer.file, parsed: { ...answer.file.parsed, ...(lists as Pick<ScanFile['parsed'], 'rows' | 'errors' | 'warnings'>) } };
  }

  /** A bulk award file's rows (server/points/bulk-file.ts, readRows). */
  async bulk(bytes: Uint8Array): Promise<RawRow[]> {
    const lists: Record<ReadPart['list'], unknown[]> = { rows: [], errors: [], warnings: [] };
    await this.read('bulk', bytes, lists);
    return lists.rows as RawRow[];
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private read(kind: ReadJob['kind'], bytes: Uint8Array, lists: Record<ReadPart['list'], unknown[]>): Promise<ReadAnswer> {
    // a copy of exactly the file's bytes, moved to the thread (an upload's buffer may be a slice of a larger one)
    const copy = new ArrayBuffer(bytes.byteLength);
    new Uint8Array(copy).set(bytes);
    return this.pool.run(
      { kind, bytes: copy },
      {
        transfer: [copy],
        onPart: (part) => {
          for (const item of part.items) lists[part.list].push(item);
        },
      },
    );
  }
}

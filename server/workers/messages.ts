/** What a pool (server/workers/pool.ts) and its threads (server/workers/serve.ts) say to each other. */
export type ToWorker = { type: 'job'; id: number; job: unknown } | { type: 'more'; id: number };

export type FromWorker =
  | { type: 'part'; id: number; part: unknown }
  | { type: 'done'; id: number; answer: unknown }
  /** `kind` is a domain error's (server/errors.ts), rebuilt on the other side; null for any other failure. */
  | { type: 'failed'; id: number; kind: string | null; message: string };

import { parentPort } from 'node:worker_threads';
import { DomainError } from '../errors';
import type { FromWorker, ToWorker } from './messages';

/** Hands the pool one part of a job's answer and resolves when the pool asks for the next. */
export type SendPart<Part> = (part: Part, transfer?: ArrayBuffer[]) => Promise<void>;

/**
 * The thread's side of a WorkerPool (server/workers/pool.ts): runs each job `work` is given, one at
 * a time, and answers with its result, or with the domain error it threw (rebuilt as one in the
 * pool), or with any other failure's message.
 */
export function serveJobs<Job, Answer, Part = never>(work: (job: Job, send: SendPart<Part>) => Promise<{ answer: Answer; transfer?: ArrayBuffer[] }>): void {
  const port = parentPort;
  if (!port) throw new Error('serveJobs runs in a worker thread.');
  const more = new Map<number, () => void>();
  const post = (message: FromWorker, transfer?: ArrayBuffer[]) => port.postMessage(message, transfer);
  port.on('message', (message: ToWorker) => {
    if (message.type === 'more') {
      more.get(message.id)?.();
      more.delete(message.id);
      return;
    }
    const { id } = message;
    const send: SendPart<Part> = (part, transfer) =>
      new Promise<void>((resolve) => {
        more.set(id, resolve);
        post({ type: 'part', id, part }, transfer);
      });
    work(message.job as Job, send).then(
      ({ answer, transfer }) => post({ type: 'done', id, answer }, transfer),
      (error: unknown) => post({ type: 'failed', id, kind: error instanceof DomainError ? error.kind : null, message: error instanceof Error ? error.message : String(error) }),
    );
  });
}

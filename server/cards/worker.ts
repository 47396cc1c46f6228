import { parentPort } from 'node:worker_threads';
import { drawCard, registerFonts } from './draw';
import type { DrawJob } from './pool';

/** A card worker: draws one job at a time and answers with its PNG bytes (moved, not copied). */
const port = parentPort;
if (!port) throw new Error('server/cards/worker.ts runs in a worker thread.');
registerFonts();
port.on('message', (job: DrawJob) => {
  drawCard(job.data, job.lang, job.theme, job.uploads).then(
    (png) => {
      const bytes = new Uint8Array(png.buffer, png.byteOffset, png.byteLength).slice();
      port.postMessage({ id: job.id, png: bytes }, [bytes.buffer]);
    },
    (error: unknown) => port.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
port.postMessage({ ready: true });

import { drawCard, registerFonts } from './draw';
import type { DrawJob } from './pool';

/**
 * A card drawing process (forked by CardPool): draws one job at a time and answers with its PNG
 * bytes. It leaves with its parent: when the server stops or dies, the IPC channel closes.
 */
const send = process.send?.bind(process);
if (!send) throw new Error('server/cards/drawer.ts runs as a child process with an IPC channel.');
process.on('disconnect', () => process.exit(0));
registerFonts();
process.on('message', (job: DrawJob) => {
  drawCard(job.data, job.lang, job.theme, job.uploads).then(
    (png) => send({ id: job.id, png: new Uint8Array(png.buffer, png.byteOffset, png.byteLength) }),
    (error: unknown) => send({ id: job.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
send({ ready: true });

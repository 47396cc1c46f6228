import fs from 'node:fs';

/**
 * A benchmark's server child stops cleanly when its parent is done: on SIGTERM, SIGINT or the end of
 * its stdin (the parent died), it closes the server, removes its data folder and exits; a close that
 * hangs is cut off after 5 s.
 */
export function stopWithParent(server: { close(): Promise<void> }, dataDir: string): void {
  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    const hard = setTimeout(() => process.exit(1), 5000);
    hard.unref();
    await server.close().catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
  process.stdin.on('end', () => void stop());
  process.stdin.on('error', () => void stop());
}

import type { Server, Socket } from 'node:net';
import type { HttpLimits } from '../config';

/**
 * The HTTP port's caps on open connections (issue 10: 23,000 idle connections used up the process's
 * file descriptors): in total, and per client address unless a trusted proxy makes every
 * connection come from one address (the proxy then has to cap them). Over a cap a new connection is
 * closed as soon as it is accepted, before it is read; `dropped` counts them.
 */
export function capConnections(server: Server, limits: HttpLimits, perAddress: boolean): { open: (address: string) => number; dropped: () => number } {
  let dropped = 0;
  server.maxConnections = limits.maxConnections;
  server.on('drop', () => {
    dropped += 1;
  });
  const open = new Map<string, number>();
  if (perAddress) {
    // before http's own listener, so a refused socket is never parsed
    server.prependListener('connection', (socket: Socket) => {
      const address = socket.remoteAddress ?? '';
      const count = open.get(address) ?? 0;
      if (count >= limits.maxConnectionsPerAddress) {
        dropped += 1;
        socket.destroy();
        return;
      }
      open.set(address, count + 1);
      socket.once('close', () => {
        const left = (open.get(address) ?? 1) - 1;
        if (left > 0) open.set(address, left);
        else open.delete(address);
      });
    });
  }
  return { open: (address) => open.get(address) ?? 0, dropped: () => dropped };
}

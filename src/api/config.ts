import type { Channel } from '../protocol/socket';

/**
 * Where the API and the sockets are. Build-time variables win; otherwise a client served by the
 * Kingdom server reads the ports it injected into index.html; otherwise its own host with the
 * default ports (7331, 8081, 8082).
 */
declare global {
  interface Window {
    __KINGDOM__?: { auctionPort?: number; userPort?: number; sentryDsn?: string };
  }
}

const DEFAULT_PORTS = { api: 7331, auction: 8081, user: 8082 } as const;

export interface Endpoints {
  api: string;
  sockets: Record<Channel, string>;
  sentryDsn: string | undefined;
}

export function endpoints(loc: Pick<Location, 'protocol' | 'hostname' | 'origin'> = window.location): Endpoints {
  const injected = typeof window !== 'undefined' ? window.__KINGDOM__ : undefined;
  const secure = loc.protocol === 'https:';
  const wsScheme = secure ? 'wss:' : 'ws:';
  const env = import.meta.env;
  const api = env.VITE_API_URL || (injected ? loc.origin : `${loc.protocol}//${loc.hostname}:${DEFAULT_PORTS.api}`);
  const socketUrl = (port: number) => `${wsScheme}//${loc.hostname}:${port}`;
  return {
    api: api.endsWith('/') ? api : `${api}/`,
    sockets: {
      auction: env.VITE_AUCTION_SOCKET_URL || socketUrl(injected?.auctionPort ?? DEFAULT_PORTS.auction),
      user: env.VITE_USER_SOCKET_URL || socketUrl(injected?.userPort ?? DEFAULT_PORTS.user),
    },
    sentryDsn: env.VITE_SENTRY_DSN || injected?.sentryDsn || undefined,
  };
}

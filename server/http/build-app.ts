import http from 'node:http';
import https from 'node:https';
import type { TlsFiles } from '../tls';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { AppContext } from '../context';
import { acceptJsonOnly, BODY_LIMIT } from './body-parser';
import { registerClient } from './client';
import { capConnections, clientErrorHandler, closeSilentConnections, SpreadCloser } from './connections';
import { classifyError, errorAnswer } from './errors';
import { gateRequests, type RequestHandler } from './gate';
import './fastify-types';
import { registerOpenApi } from './openapi';
import { registerSecurityHeaders } from './security-headers';
import { accountRoutes } from './routes/account';
import { adminRoutes } from './routes/admin';
import { authRoutes } from './routes/auth';
import { botRoutes } from './routes/bots';
import { discordRoutes } from './routes/discord';
import { cardRoutes } from './routes/cards';
import { kingdomRoutes } from './routes/kingdom';
import { kvkRoutes } from './routes/kvk';
import { automaticPointsRoutes } from './routes/automatic-points';
import { migrantRoutes } from './routes/migrants';
import { noticeRoutes } from './routes/notices';
import { pointsRoutes } from './routes/points';
import { scanRoutes } from './routes/scans';
import { playerLinkRoutes } from './routes/player-links';
import { storeRoutes } from './routes/store';

/**
 * The Fastify instance, not yet set up: app.ts needs its logger first. `clock` (ms) times the
 * sign-up windows of the request gate (gate.ts), which answers the refusals it can decide from the
 * method, path and address alone before Fastify sees the request.
 */
export function createFastify(config: Config, tls: TlsFiles | null, clock: () => number = Date.now, logStream?: { write(line: string): void }): FastifyInstance {
  // Idle, half-sent and slow connections are closed; see HttpLimits.
  const limits = config.httpLimits;
  const nodeServer = { headersTimeout: limits.headersTimeoutMs, connectionsCheckingInterval: limits.timeoutCheckMs };
  // connections that time out together are closed a batch per turn of the event loop
  const closer = new SpreadCloser();
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel, ...(logStream ? { stream: logStream } : {}) },
    bodyLimit: BODY_LIMIT,
    trustProxy: config.trustProxy,
    forceCloseConnections: true,
    connectionTimeout: limits.idleTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    http: nodeServer,
    ...(tls ? { https: { cert: tls.cert, key: tls.key, ...nodeServer } } : {}),
    clientErrorHandler: clientErrorHandler(closer),
    // Fastify's own server (fastify/lib/server.js), with the gate in front of its handler
    serverFactory: (handler: RequestHandler) => {
      const gated = gateRequests(handler, { signUps: config.registerRateLimit, trustProxy: config.trustProxy, tls: tls !== null, clock, refusalDelayMs: limits.refusalDelayMs });
      const server = tls ? https.createServer({ cert: tls.cert, key: tls.key, ...nodeServer }, gated) : http.createServer(nodeServer, gated);
      server.keepAliveTimeout = limits.keepAliveTimeoutMs;
      server.requestTimeout = limits.requestTimeoutMs;
      server.setTimeout(limits.idleTimeoutMs);
      return server;
    },
  });
  capConnections(app.server, limits, !config.trustProxy);
  closeSilentConnections(app.server, limits, closer);
  return app as unknown as FastifyInstance;
}

/** REST API (the wire contract), its OpenAPI, CORS and the built client. */
export async function setupHttpApp(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.decorateRequest('auth', null);
  app.decorateRequest('bot', null);
  acceptJsonOnly(app);

  // Every error keeps the answer shape of its route; a 5xx is logged and never shows a stack.
  app.setErrorHandler((error, request, reply) => {
    const { statusCode, message } = classifyError(error);
    if (statusCode >= 500 && statusCode !== 503) {
      request.log.error({ err: error }, 'request failed');
      ctx.reporter.exception(error, {
        where: 'http',
        message: 'request failed',
        userId: request.auth?.user.id ?? null,
        extra: { method: request.method, route: request.routeOptions.url ?? null, statusCode },
      });
    }
    const shape = request.routeOptions.config?.answer ?? 'result';
    return reply.code(statusCode).send(errorAnswer(shape, message));
  });

  // Bearer tokens, no cookies: any origin may call (the vite dev server on 5173, integrations).
  await registerSecurityHeaders(app, ctx);
  await app.register(cors, { origin: '*', methods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'], maxAge: 600 });
  await app.register(rateLimit, { global: false });
  await registerOpenApi(app);

  await app.register(authRoutes(ctx));
  await app.register(accountRoutes(ctx));
  await app.register(adminRoutes(ctx));
  await app.register(pointsRoutes(ctx));
  await app.register(storeRoutes(ctx));
  await app.register(kingdomRoutes(ctx));
  await app.register(scanRoutes(ctx));
  await app.register(playerLinkRoutes(ctx));
  await app.register(kvkRoutes(ctx));
  await app.register(botRoutes(ctx));
  await app.register(migrantRoutes(ctx));
  await app.register(automaticPointsRoutes(ctx));
  await app.register(cardRoutes(ctx));
  await app.register(discordRoutes(ctx));
  await app.register(noticeRoutes(ctx));
  await registerClient(app, ctx);
}

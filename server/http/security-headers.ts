import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { runtimeConfigScript } from './client';

/** The hash a CSP gives an inline script: base64 SHA-256 of what is between its tags. */
export function scriptHash(scriptTag: string): string {
  const body = scriptTag.replace(/^<script[^>]*>/, '').replace(/<\/script>$/, '');
  return `'sha256-${crypto.createHash('sha256').update(body, 'utf8').digest('base64')}'`;
}

/** A host name fit for a CSP source (letters, digits, dots, dashes); anything else (an IPv6 literal, junk) is any host. */
function cspHost(request: IncomingMessage): string {
  const host = (request.headers.host ?? '').replace(/:\d+$/, '');
  return /^[a-z0-9.-]+$/i.test(host) ? host : '*';
}

/**
 * Security headers on every answer (@fastify/helmet): a Content-Security-Policy the app passes, with
 * no inline script but the runtime config's own (allowed by its hash), sockets on their ports,
 * item images from anywhere on the web and no framing at all; nosniff, no referrer, X-Frame-Options
 * DENY. Styles may be inline: Radix's scroll lock writes a <style> element at run time, and
 * elements' style attributes are how the app sizes its virtual lists. HSTS and
 * upgrade-insecure-requests only when this server itself speaks TLS (a plain-http kingdom on a
 * LAN must not be told to upgrade). The swagger UI at /docs keeps the CSP it sets for its own page.
 */
export async function registerSecurityHeaders(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const tls = ctx.config.tlsCert !== null;
  const configScript = scriptHash(runtimeConfigScript(ctx));
  const sentry = (() => {
    try {
      return ctx.config.sentryDsn ? new URL(ctx.config.sentryDsn).origin : null;
    } catch {
      return null;
    }
  })();
  const sockets = (request: IncomingMessage) => {
    const host = cspHost(request);
    // the bots' watch socket is on the API port itself ('self' names http(s) only in some browsers)
    return [ctx.ports.auction, ctx.ports.user, ctx.ports.http].flatMap((port) => [`ws://${host}:${port}`, `wss://${host}:${port}`]).join(' ');
  };
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", configScript],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:', 'http:'],
        fontSrc: ["'self'", 'data:'],
        // the bidding-start chime is made in the page and played from a blob: URL (src/ui/boot/sound.ts)
        mediaSrc: ["'self'", 'blob:'],
        connectSrc: ["'self'", (request) => sockets(request as IncomingMessage), ...(sentry ? [sentry] : [])],
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(tls ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: tls ? { maxAge: 31_536_000, includeSubDomains: false } : false,
    // item images come from other sites: requiring CORP of them would blank them
    crossOriginEmbedderPolicy: false,
    // the API and /uploads/ are also used by a client on another port of the same host (npm run dev)
    crossOriginResourcePolicy: { policy: 'same-site' },
  });
}

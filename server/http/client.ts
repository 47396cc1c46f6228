import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { HTTP_ERRORS, errorAnswer } from './errors';

export const CONFIG_PLACEHOLDER = '<!--kingdom-config-->';

/** Paths that belong to the API: an unknown one is a JSON 404, never the client's page. */
const API_PREFIXES = ['/auth', '/account', '/store', '/points', '/kingdom', '/uploads', '/openapi.json', '/docs'];

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Kingdom</title></head>
<body><h1>Kingdom</h1><p>The client is not built yet. Run <code>npm run build</code> (or <code>npm start</code>, which builds it) and reload.</p></body></html>
`;

function isApiPath(url: string): boolean {
  const pathname = url.split('?')[0];
  return API_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

/** /assets/app.js, /favicon.ico: a missing file is a 404, not the client's page. */
function looksLikeFile(url: string): boolean {
  const last = url.split('?')[0].split('/').pop() ?? '';
  return last.includes('.');
}

/** What a client served by this server needs to find its sockets and error reporting. */
export function runtimeConfigScript(ctx: AppContext): string {
  const json = JSON.stringify({
    auctionPort: ctx.ports.auction,
    userPort: ctx.ports.user,
    sentryDsn: ctx.config.sentryDsn,
  }).replace(/</g, '\\u003c');
  return `<script>window.__KINGDOM__=${json}</script>`;
}

export function injectRuntimeConfig(html: string, script: string): string {
  if (html.includes(CONFIG_PLACEHOLDER)) return html.replace(CONFIG_PLACEHOLDER, () => script);
  return html.includes('</head>') ? html.replace('</head>', () => `${script}</head>`) : script + html;
}

/**
 * The built client (DIST_DIR): files as they are (hashed /assets/ cached for a year; source maps
 * only with SOURCE_MAPS=serve, a 404 otherwise), and index.html,
 * with the runtime config injected, for every other GET that is not an API route, so the client's
 * router shows its own pages, its 404 included.
 */
export async function registerClient(app: FastifyInstance, ctx: AppContext, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const dist = ctx.config.distDir;
  const assets = path.join(dist, 'assets') + path.sep;
  // the build's source maps (the client's source, comments and all) only when asked for
  const serveSourceMaps = env.SOURCE_MAPS === 'serve';

  const sendIndex = async (_request: FastifyRequest, reply: FastifyReply) => {
    let html: string;
    try {
      html = await fs.promises.readFile(path.join(dist, 'index.html'), 'utf8');
    } catch {
      return reply.code(200).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(NOT_BUILT);
    }
    return reply
      .code(200)
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(injectRuntimeConfig(html, runtimeConfigScript(ctx)));
  };

  // Registered even when DIST_DIR does not exist yet: a build made while the server runs is served.
  await app.register(fastifyStatic, {
    root: dist,
    index: false,
    wildcard: true,
    cacheControl: false,
    allowedPath: (pathName) => serveSourceMaps || !pathName.endsWith('.map'),
    setHeaders(res, filePath) {
      res.setHeader('cache-control', filePath.startsWith(assets) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  app.get('/', { schema: { hide: true } }, sendIndex);
  app.get('/index.html', { schema: { hide: true } }, sendIndex);

  app.setNotFoundHandler(async (request, reply) => {
    const { method, url } = request;
    if ((method === 'GET' || method === 'HEAD') && !isApiPath(url) && !looksLikeFile(url)) return sendIndex(request, reply);
    return reply.code(404).send(errorAnswer('result', HTTP_ERRORS.notFound));
  });
}

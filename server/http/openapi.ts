import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { openApiTransform, serializerCompiler, validatorCompiler } from './schemas';

export const BEARER = [{ bearer: [] }];

/**
 * OpenAPI of every route at GET /openapi.json, swagger-ui at /docs. A route's zod schemas
 * (server/http/schemas.ts) validate its body, query and path, check its success answer, and are
 * documented here; a plain JSON schema is left only for answers that are not JSON (CSV).
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(swagger, {
    transform: openApiTransform,
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Kingdom API',
        version: '0.1.0',
        description:
          'Accounts and administration of Kingdom. JSON in and out; `Authorization: Bearer <access_token>` from POST /auth/login. ' +
          'Live auctions and the account status are on the WebSocket ports (AUTHENTICATION first).',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
  });
  // its page's own policy instead of the app's (it loads its own scripts and styles); never framed,
  // and no upgrade-insecure-requests, which would break it on a plain-http kingdom
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP:
      "default-src 'self'; base-uri 'self'; font-src 'self' data:; frame-ancestors 'none'; img-src 'self' data:; object-src 'none'; script-src 'self'; script-src-attr 'none'; style-src 'self' 'unsafe-inline'",
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

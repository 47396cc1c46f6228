import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

/** A protocol zod schema as OpenAPI 3.0 JSON schema, for documentation (validation stays with zod). */
export function jsonSchema(schema: z.core.$ZodType, io: 'input' | 'output' = 'output'): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, target: 'openapi-3.0', unrepresentable: 'any' });
  return rest;
}

export const resultError = z.object({ result: z.literal(false), error: z.string() });
export const statusError = z.object({ status: z.literal('error'), error: z.string() });
export const BEARER = [{ bearer: [] }];

/**
 * OpenAPI of every route at GET /openapi.json, swagger-ui at /docs. Route schemas document only:
 * Fastify neither validates (the handlers' zod schemas do, with our texts) nor filters answers with them.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  app.setValidatorCompiler(() => () => true);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  await app.register(swagger, {
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

import type { AuthContext } from '../auth/authenticate';
import type { AnswerShape } from './errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The shape of this route's answers, for its error answers. Default 'result'. */
    answer?: AnswerShape;
  }
  interface FastifyRequest {
    /** Set by the rank guard on routes that need a signed-in caller. */
    auth: AuthContext | null;
    /** Set on the routes a bot token may call (scans/preview, scans/apply) when a bot calls. */
    bot: { id: number; name: string } | null;
  }
}

export {};

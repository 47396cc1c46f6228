import * as z from 'zod/mini';
import { endpoint } from './endpoint';

/**
 * GET kingdom/name: the kingdom's name and number for the public pages (sign-in, sign-up), with no
 * sign-in. Its own small module: the sign-in page loads it without the settings' schemas.
 */
export const kingdomNameAnswer = z.object({ result: z.literal(true), kingdomName: z.string(), kingdomNumber: z.nullable(z.int()) });
export type KingdomNameAnswer = z.infer<typeof kingdomNameAnswer>;

export const KINGDOM_NAME_API = {
  name: endpoint({
    method: 'GET',
    path: 'kingdom/name',
    answer: kingdomNameAnswer,
    errors: [],
    tag: 'kingdom',
    open: true,
    summary: "The kingdom's name and number, for the public pages (sign-in, sign-up): no sign-in needed, nothing else is told",
  }),
} as const;

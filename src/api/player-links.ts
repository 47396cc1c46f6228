import * as z from 'zod/mini';
import { linkPreview, type LinkPreview, type LinkRow } from '../protocol/player-links';
import type { KyInstance } from 'ky';
import { answer } from './rest';

/** Farms linked to accounts from a file (Player IDs): preview, then apply. */
export type { LinkPreview, LinkRow };

const previewAnswer = z.object({ result: z.literal(true), ...linkPreview.shape });
const applyAnswer = z.object({ result: z.literal(true), linked: z.int() });

export interface PlayerLinksApi {
  importPreview(file: File): Promise<LinkPreview>;
  /** Links the preview's rows; answers how many governors were linked. */
  importApply(previewToken: string): Promise<number>;
}

export function createPlayerLinksApi(client: KyInstance): PlayerLinksApi {
  return {
    async importPreview(file) {
      const body = new FormData();
      body.append('file', file, file.name);
      const { result: _, ...preview } = await answer(await client.post('player-ids/import/preview', { body, timeout: 60_000 }), previewAnswer);
      return preview;
    },
    async importApply(previewToken) {
      return (await answer(await client.post('player-ids/import/apply', { json: { token: previewToken }, timeout: 60_000 }), applyAnswer)).linked;
    },
  };
}

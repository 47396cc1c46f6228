import { linkPreviewAnswer, PLAYER_LINKS_API, type LinkPreview, type LinkRow } from '../protocol/player-links';
import type { KyInstance } from 'ky';
import { call } from './contract';
import { answer } from './rest';

/** Farms linked to accounts from a file (Player IDs): preview, then apply. */
export type { LinkPreview, LinkRow };

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
      const { result: _, ...preview } = await answer(await client.post('player-ids/import/preview', { body, timeout: 60_000 }), linkPreviewAnswer);
      return preview;
    },
    importApply: async (previewToken) => (await call(client, PLAYER_LINKS_API.apply, { body: { token: previewToken } }, { timeout: 60_000 })).linked,
  };
}

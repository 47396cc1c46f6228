import type { KyInstance } from 'ky';
import { kingdomNameAnswer } from '../protocol/kingdom-name';
import { answer } from './rest';

/** The kingdom's name for the public pages (no sign-in needed); empty until leadership sets one. */
export function createKingdomNameApi(client: KyInstance) {
  return {
    async publicName(): Promise<string> {
      return (await answer(await client.get('kingdom/name'), kingdomNameAnswer)).kingdomName.trim();
    },
  };
}

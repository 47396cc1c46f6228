import type { KyInstance } from 'ky';
import { KINGDOM_NAME_API } from '../protocol/kingdom-name';
import { call } from './contract';

/** The kingdom's name for the public pages (no sign-in needed); empty until leadership sets one. */
export function createKingdomNameApi(client: KyInstance) {
  return {
    async publicName(): Promise<string> {
      return (await call(client, KINGDOM_NAME_API.name)).kingdomName.trim();
    },
  };
}

import { KINGDOM_API, type Group, type KingdomSettings, type SettingsBody } from '../protocol/settings';
import type { KyInstance } from 'ky';
import { call, keyOf, scopeOf } from './contract';
import { createKingdomNameApi } from './kingdom-name';

/** Kingdom settings and eligibility groups (council and admin). */
export type { Group, KingdomSettings, SettingsBody };

export interface KingdomApi {
  settings(): Promise<KingdomSettings>;
  /** The kingdom's name for the public pages (no sign-in needed); empty until leadership sets one. */
  publicName(): Promise<string>;
  saveSettings(body: SettingsBody): Promise<KingdomSettings>;
  groups(): Promise<Group[]>;
  createGroup(name: string): Promise<Group>;
  deleteGroup(name: string): Promise<void>;
  setMember(name: string, username: string, member: boolean): Promise<Group>;
}

export function createKingdomApi(client: KyInstance): KingdomApi {
  return {
    settings: async () => (await call(client, KINGDOM_API.settings)).settings,
    publicName: createKingdomNameApi(client).publicName,
    saveSettings: async (body) => (await call(client, KINGDOM_API.saveSettings, { body })).settings,
    groups: async () => (await call(client, KINGDOM_API.groups)).groups,
    createGroup: async (name) => (await call(client, KINGDOM_API.createGroup, { body: { name } })).group,
    deleteGroup: async (name) => void (await call(client, KINGDOM_API.deleteGroup, { params: { name } })),
    setMember: async (name, username, member) => (await call(client, KINGDOM_API.setMember, { params: { name }, body: { username, member } })).group,
  };
}

/** The kingdom's queries' keys: a page reads and invalidates these, never a key of its own. */
export const kingdomKeys = {
  all: scopeOf(KINGDOM_API.settings),
  settings: keyOf(KINGDOM_API.settings),
  groups: keyOf(KINGDOM_API.groups),
} as const;

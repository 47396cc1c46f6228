import * as z from 'zod/mini';
import { group, kingdomSettings, type Group, type KingdomSettings, type SettingsBody } from '../protocol/settings';
import type { KyInstance } from 'ky';
import { answer } from './rest';
import { createKingdomNameApi } from './kingdom-name';

/** Kingdom settings, eligibility groups (council and admin) and the caller's own groups. */
export type { Group, KingdomSettings, SettingsBody };

const settingsAnswer = z.object({ result: z.literal(true), settings: kingdomSettings });
const groupsAnswer = z.object({ result: z.literal(true), groups: z.array(group) });
const groupAnswer = z.object({ result: z.literal(true), group });
const okAnswer = z.object({ result: z.literal(true) });
const myGroupsAnswer = z.object({ result: z.literal(true), groups: z.array(z.string()) });

export interface KingdomApi {
  settings(): Promise<KingdomSettings>;
  /** The kingdom's name for the public pages (no sign-in needed); empty until leadership sets one. */
  publicName(): Promise<string>;
  saveSettings(body: SettingsBody): Promise<KingdomSettings>;
  groups(): Promise<Group[]>;
  createGroup(name: string): Promise<Group>;
  deleteGroup(name: string): Promise<void>;
  setMember(name: string, username: string, member: boolean): Promise<Group>;
  myGroups(): Promise<string[]>;
}

export function createKingdomApi(client: KyInstance): KingdomApi {
  const g = (name: string) => `kingdom/groups/${encodeURIComponent(name)}`;
  return {
    async settings() {
      return (await answer(await client.get('kingdom/settings'), settingsAnswer)).settings;
    },
    publicName: createKingdomNameApi(client).publicName,
    async saveSettings(body) {
      return (await answer(await client.post('kingdom/settings', { json: body }), settingsAnswer)).settings;
    },
    async groups() {
      return (await answer(await client.get('kingdom/groups'), groupsAnswer)).groups;
    },
    async createGroup(name) {
      return (await answer(await client.post('kingdom/groups', { json: { name } }), groupAnswer)).group;
    },
    async deleteGroup(name) {
      await answer(await client.post(`${g(name)}/delete`), okAnswer);
    },
    async setMember(name, username, member) {
      return (await answer(await client.post(`${g(name)}/members`, { json: { username, member } }), groupAnswer)).group;
    },
    async myGroups() {
      return (await answer(await client.get('account/groups'), myGroupsAnswer)).groups;
    },
  };
}

import * as z from 'zod/mini';
import { group, kingdomSettings, type Group, type KingdomSettings, type SettingsBody } from '../protocol/settings';
import { answer, bearer, restClient } from './rest';

/** Kingdom settings, eligibility groups (council and admin) and the caller's own groups. */
export type { Group, KingdomSettings, SettingsBody };

const settingsAnswer = z.object({ result: z.literal(true), settings: kingdomSettings });
const groupsAnswer = z.object({ result: z.literal(true), groups: z.array(group) });
const groupAnswer = z.object({ result: z.literal(true), group });
const okAnswer = z.object({ result: z.literal(true) });
const myGroupsAnswer = z.object({ result: z.literal(true), groups: z.array(z.string()) });

export interface KingdomApi {
  settings(token: string): Promise<KingdomSettings>;
  saveSettings(token: string, body: SettingsBody): Promise<KingdomSettings>;
  groups(token: string): Promise<Group[]>;
  createGroup(token: string, name: string): Promise<Group>;
  deleteGroup(token: string, name: string): Promise<void>;
  setMember(token: string, name: string, username: string, member: boolean): Promise<Group>;
  myGroups(token: string): Promise<string[]>;
}

export function createKingdomApi(baseUrl: string): KingdomApi {
  const client = restClient(baseUrl);
  const g = (name: string) => `kingdom/groups/${encodeURIComponent(name)}`;
  return {
    async settings(token) {
      return (await answer(await client.get('kingdom/settings', { headers: bearer(token) }), settingsAnswer)).settings;
    },
    async saveSettings(token, body) {
      return (await answer(await client.post('kingdom/settings', { headers: bearer(token), json: body }), settingsAnswer)).settings;
    },
    async groups(token) {
      return (await answer(await client.get('kingdom/groups', { headers: bearer(token) }), groupsAnswer)).groups;
    },
    async createGroup(token, name) {
      return (await answer(await client.post('kingdom/groups', { headers: bearer(token), json: { name } }), groupAnswer)).group;
    },
    async deleteGroup(token, name) {
      await answer(await client.post(`${g(name)}/delete`, { headers: bearer(token) }), okAnswer);
    },
    async setMember(token, name, username, member) {
      return (await answer(await client.post(`${g(name)}/members`, { headers: bearer(token), json: { username, member } }), groupAnswer)).group;
    },
    async myGroups(token) {
      return (await answer(await client.get('account/groups', { headers: bearer(token) }), myGroupsAnswer)).groups;
    },
  };
}

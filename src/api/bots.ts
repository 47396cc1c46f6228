import type { KyInstance } from 'ky';
import { botsAnswer, commandAnswer, registeredAnswer, type Bot, type CommandBody } from '../protocol/bots';
import * as z from 'zod/mini';
import { answer } from './rest';

/** Scan bots (admins): list, register, rotate a token, revoke, send a command (its answer comes on the watch socket). */
export type { Bot, CommandBody };

const okAnswer = z.object({ result: z.literal(true) });

export interface Registered {
  bot: { id: number; name: string };
  /** Shown once: the server keeps only its hash. */
  token: string;
}

export interface BotsApi {
  list(): Promise<Bot[]>;
  register(name: string): Promise<Registered>;
  rotate(id: number): Promise<Registered>;
  revoke(id: number): Promise<void>;
  command(id: number, body: CommandBody): Promise<string>;
}

export function createBotsApi(client: KyInstance): BotsApi {
  return {
    async list() {
      return (await answer(await client.get('bots'), botsAnswer)).bots;
    },
    async register(name) {
      const { bot, token } = await answer(await client.post('bots', { json: { name } }), registeredAnswer);
      return { bot, token };
    },
    async rotate(id) {
      const { bot, token } = await answer(await client.post(`bots/${id}/token`), registeredAnswer);
      return { bot, token };
    },
    async revoke(id) {
      await answer(await client.delete(`bots/${id}`), okAnswer);
    },
    async command(id, body) {
      return (await answer(await client.post(`bots/${id}/commands`, { json: body }), commandAnswer)).command.id;
    },
  };
}

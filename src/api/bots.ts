import type { KyInstance } from 'ky';
import { BOTS_API, type Bot, type CommandBody } from '../protocol/bots';
import { call, keyOf, scopeOf } from './contract';

/** Scan bots (admins): list, register, rotate a token, revoke, send a command (its answer comes on the watch socket). */
export type { Bot, CommandBody };

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
    list: async () => (await call(client, BOTS_API.list)).bots,
    register: async (name) => {
      const { bot, token } = await call(client, BOTS_API.register, { body: { name } });
      return { bot, token };
    },
    rotate: async (id) => {
      const { bot, token } = await call(client, BOTS_API.rotate, { params: { id } });
      return { bot, token };
    },
    revoke: async (id) => void (await call(client, BOTS_API.revoke, { params: { id } })),
    command: async (id, body) => (await call(client, BOTS_API.command, { params: { id }, body })).command.id,
  };
}

/** The bots' query keys: a page reads and invalidates these, never a key of its own. */
export const botsKeys = {
  all: scopeOf(BOTS_API.list),
  list: keyOf(BOTS_API.list),
} as const;

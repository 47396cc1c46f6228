import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WebSocket } from 'ws';
import { Agent } from './agent/agent';
import { startServer } from '../server/app';
import { ephemeralConfig } from '../server/config';
import { createWatchSocket } from '../src/streams/bot-watch';
import { createRecorder } from '../src/streams/recorder';
import type { WebSocketCtor } from '../src/streams/socket';
import { version } from '../package.json';

/**
 * Records tests/fixtures/bot-logs/bots-monitor.jsonl: a real server, two real agents, and an admin's watch
 * socket through the app's own stream and recorder; a ping and a start-scan with no scan command.
 * `npx tsx scripts/record-bot-fixture.ts`
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kingdom-bot-fixture-'));
const server = await startServer(ephemeralConfig(dir, {}));
const post = async (url: string, body: unknown, token?: string) => {
  const r = await fetch(server.httpUrl + url, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
  return (await r.json()) as Record<string, unknown>;
};
await post('/auth/register', { email: 'admin@example.com', password: 'Passw0rd!', username: 'Leader', playerid: '123456' });
const token = ((await post('/auth/login', { email: 'admin@example.com', password: 'Passw0rd!' })).token as { access_token: string }).access_token;
const agents: Agent[] = [];
const ids: number[] = [];
for (const name of ['Emulator A', 'Emulator B']) {
  const made = await post('/bots', { name }, token);
  ids.push((made.bot as { id: number }).id);
  const watchDir = fs.mkdtempSync(path.join(dir, 'watch-'));
  const agent = new Agent({ server: server.httpUrl, token: made.token as string, watchDir, settleMs: 0, pollMs: 500, print: () => undefined });
  const welcomed = new Promise<void>((resolve) => (agent.onWelcome = resolve));
  agent.start();
  await welcomed;
  agents.push(agent);
}
const recorder = createRecorder({ app: `kingdom@${version}`, user: 'Leader' });
const socket = createWatchSocket(server.httpUrl.replace(/^http/, 'ws') + '/bots/watch', WebSocket as unknown as WebSocketCtor, recorder.tap('bots'));
const answers = new Set<string>();
let gotSnapshot: () => void;
const snapshot = new Promise<void>((resolve) => (gotSnapshot = resolve));
socket.events$.subscribe((ev) => {
  if (ev.kind === 'open') socket.send({ type: 'AUTHENTICATION', access_token: `Bearer ${token}` });
  if (ev.kind !== 'frames') return;
  for (const f of ev.frames) {
    if (f.event.type !== 'message') continue;
    if (f.event.msg.type === 'BOTS_SNAPSHOT') gotSnapshot();
    if (f.event.msg.type === 'COMMAND_ANSWER') answers.add(f.event.msg.answer.id);
  }
});
await snapshot;
const ask = async (command: string) => {
  const id = ((await post(`/bots/${ids[0]}/commands`, { command }, token)).command as { id: string }).id;
  while (!answers.has(id)) await new Promise((r) => setTimeout(r, 20));
};
await ask('ping');
await ask('start-scan');
agents[1].log('warn', 'Power check failed for governor 71234567: read 0');
await new Promise((r) => setTimeout(r, 300));
const out = path.join(import.meta.dirname, '../tests/fixtures/bot-logs/bots-monitor.jsonl');
fs.writeFileSync(out, recorder.toJsonl());
console.log(`wrote ${out} (${recorder.lines().length} lines)`);
for (const a of agents) await a.stop();
await server.close();
fs.rmSync(dir, { recursive: true, force: true });
process.exit(0);

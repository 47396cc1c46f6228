import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Agent } from './agent/agent';

/**
 * `npm run agent -- --server URL --token TOKEN --watch DIR [--scan-command "…"] [--settle SECONDS]
 * [--state FILE]`: the reference scan agent (see scripts/agent/agent.ts and the README).
 */
const USAGE = `Usage: KINGDOM_BOT_TOKEN=TOKEN npm run agent -- --server URL --watch DIR [--scan-command "…"] [--settle SECONDS] [--state FILE]
  --server        the Kingdom server, e.g. https://kingdom.example.com (the API's address)
  --token         the bot's token, shown once when an admin registered the bot; better in KINGDOM_BOT_TOKEN (npm and ps show arguments)
  --watch         the folder the scanner writes its .csv/.xlsx/.jsonl files to
  --scan-command  what start-scan runs (e.g. "python scanner_console.py"); without it start-scan says it is not configured
  --settle        seconds a file must stay unchanged before it counts as finished (default 120)
  --state         where to remember what was sent (default DIR/.kingdom-agent.json)`;

function fail(text: string): never {
  console.error(`${text}\n\n${USAGE}`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      server: { type: 'string' },
      token: { type: 'string' },
      watch: { type: 'string' },
      'scan-command': { type: 'string' },
      settle: { type: 'string' },
      state: { type: 'string' },
      poll: { type: 'string' },
      help: { type: 'boolean' },
    },
  }));
} catch (error) {
  fail((error as Error).message);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const token = values.token ?? process.env.KINGDOM_BOT_TOKEN;
if (!values.server) fail('--server is missing.');
if (!token) fail('--token is missing.');
if (!values.watch) fail('--watch is missing.');
try {
  new URL(values.server);
} catch {
  fail(`--server ${values.server} is not an address (http://host:port).`);
}
const watchDir = path.resolve(values.watch);
if (!fs.existsSync(watchDir) || !fs.statSync(watchDir).isDirectory()) fail(`${watchDir} is not a folder.`);
const seconds = (value: string | undefined, name: string, fallback: number) => {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) fail(`--${name} must be a number of seconds ≥ 0.`);
  return n * 1000;
};

const agent = new Agent({
  server: values.server,
  token,
  watchDir,
  scanCommand: values['scan-command'],
  stateFile: values.state ? path.resolve(values.state) : undefined,
  settleMs: seconds(values.settle, 'settle', 120_000),
  pollMs: seconds(values.poll, 'poll', 2_000),
});
agent.start();

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void agent.stop().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);

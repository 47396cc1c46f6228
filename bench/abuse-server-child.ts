/**
 * The server under attack, in its own process: `node --import tsx bench/abuse-server-child.ts <dir>`.
 * Loopback, random ports, a fresh database under `dir`, and otherwise production settings: real
 * argon2id cost, and the production limits (sign-in, sign-up, HTTP connections and timeouts, socket
 * frames), which a throwaway test server relaxes. Prints one JSON line with its URLs and runs until
 * SIGTERM, SIGINT or the end of its stdin (the parent died).
 */
import fs from 'node:fs';
import { startServer } from '../server/app';
import { ephemeralConfig, loadConfig } from '../server/config';

const dir = process.argv[2];
if (!dir) throw new Error('usage: abuse-server-child.ts <dir>');

const production = loadConfig({});
const server = await startServer(
  ephemeralConfig(dir, {
    passwordHashCost: production.passwordHashCost,
    loginRateLimit: production.loginRateLimit,
    registerRateLimit: production.registerRateLimit,
  }),
);

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  const hard = setTimeout(() => process.exit(1), 5000);
  hard.unref();
  await server.close().catch(() => undefined);
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
process.stdin.on('end', () => void stop());
process.stdin.on('error', () => void stop());
process.stdin.resume();

process.stdout.write(`${JSON.stringify({ httpUrl: server.httpUrl, auctionUrl: server.auctionUrl, userUrl: server.userUrl })}\n`);

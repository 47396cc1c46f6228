/**
 * The server under attack, in its own process:
 * `node --import tsx bench/abuse-server-child.ts <dir> [cheap-argon2]`. Loopback, random ports, a
 * fresh database under `dir`, and otherwise production settings: the production limits (sign-in,
 * sign-up, HTTP connections and timeouts, socket frames, password hashing in a low-priority process),
 * which a throwaway test server relaxes,
 * and argon2id's production cost unless `cheap-argon2` is given (for attacks that hash nothing, so
 * that setting up their accounts does not eat the benchmark's time). Prints one JSON line with its URLs and runs until
 * SIGTERM, SIGINT or the end of its stdin (the parent died).
 */
import { startServer } from '../server/app';
import { ephemeralConfig, loadConfig } from '../server/config';
import { stopWithParent } from './child-lifecycle';

const dir = process.argv[2];
if (!dir) throw new Error('usage: abuse-server-child.ts <dir>');

const production = loadConfig({});
const cheapArgon2 = process.argv[3] === 'cheap-argon2';
const server = await startServer(
  ephemeralConfig(dir, {
    ...(cheapArgon2 ? {} : { passwordHashCost: production.passwordHashCost }),
    loginRateLimit: production.loginRateLimit,
    registerRateLimit: production.registerRateLimit,
    // argon2 in its own low-priority process, as in production
    passwordHashing: production.passwordHashing,
  }),
);

stopWithParent(server, dir);
process.stdin.resume();

process.stdout.write(`${JSON.stringify({ httpUrl: server.httpUrl, auctionUrl: server.auctionUrl, userUrl: server.userUrl })}\n`);

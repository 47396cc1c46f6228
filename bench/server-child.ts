/**
 * The Kingdom server under test, in its own process (so it never shares an event loop with the
 * 1,000 client sockets): `node --import tsx bench/server-child.ts <dataDir> [databaseUrl [jwtSecret]]`.
 * With a databaseUrl (postgres://…) it runs on PostgreSQL, as DATABASE_URL makes the server do; two
 * children given the same database and the same jwtSecret serve one kingdom together (a token signed
 * by one is good at the other). Listens on 127.0.0.1,
 * random ports, prints one JSON line (its URLs and the durability settings of its database) and runs
 * until SIGTERM, SIGINT or the end of its stdin (the parent died). Only three settings differ from
 * production: cheap argon2 (setting up 1,000 accounts), a login limit that lets one address sign
 * 1,000 accounts in, and the sockets' per-address limits (all 1,000 players come from 127.0.0.1);
 * the per-connection and per-account frame budgets stay the production ones.
 */
import { sql } from 'kysely';
import { startServer } from '../server/app';
import { ephemeralConfig } from '../server/config';
import { DEFAULT_SOCKET_LIMITS } from '../server/sockets/limits';
import { stopWithParent } from './child-lifecycle';
import { timedLanes } from './common';

const [dataDir, databaseUrl, jwtSecret] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: server-child.ts <dataDir> [databaseUrl [jwtSecret]]');

const server = await startServer(
  ephemeralConfig(dataDir, {
    databaseUrl: databaseUrl || null,
    jwtSecret: jwtSecret || null,
    loginRateLimit: { perEmail: 100, perAddress: 100_000, windowMs: 60_000 },
    socketLimits: {
      ...DEFAULT_SOCKET_LIMITS,
      addressFrames: { perSecond: 1_000_000, burst: 1_000_000 },
      handshakes: { perSecond: 1_000_000, burst: 1_000_000 },
      socketsPerAddress: 100_000,
      anonymousPerAddress: 100_000,
      ...(process.env.KINGDOM_BENCH_COALESCE_MS ? { coalesceMs: Number(process.env.KINGDOM_BENCH_COALESCE_MS) } : {}),
      ...(process.env.KINGDOM_BENCH_FLUSH_GROUPS ? { flushGroups: Number(process.env.KINGDOM_BENCH_FLUSH_GROUPS) } : {}),
    },
  }),
);

// the durability settings of the server's own connection, for the SQLite baseline to copy (on PostgreSQL: the server's settings, reported)
const pragmas: Record<string, unknown> = {};
const settingNames = databaseUrl
  ? ['fsync', 'synchronous_commit', 'full_page_writes', 'wal_sync_method', 'shared_buffers', 'server_version']
  : ['journal_mode', 'synchronous', 'foreign_keys', 'busy_timeout', 'locking_mode', 'wal_autocheckpoint', 'page_size', 'cache_size', 'temp_store', 'mmap_size'];
for (const name of settingNames) {
  const { rows } = await sql.raw<Record<string, unknown>>(`${databaseUrl ? 'show' : 'pragma'} ${name}`).execute(server.db);
  pragmas[name] = rows[0] ? Object.values(rows[0])[0] : null;
}

stopWithParent(server, dataDir);

/** The engine-alone runs' requestIds, counted over every run (a requestId used again would be answered from the first bid's stored answer, not bid). */
let engineRequests = 0;

/**
 * `commits` on stdin: the write transactions run for bids so far and the bids they carried.
 * `engine-alone <seconds> [inflight]` on stdin: bids straight into the engine (AuctionEngine.createBid,
 * the call the auction socket makes) for that long: the engine's own rate with no socket in the way
 * (run it once the sockets are gone, or it broadcasts to them). Two funded players take turns on
 * every live item, so each bid outbids the other, as in the socket runs. One bid after the other
 * (inflight 1), or `inflight` at once, each on items of its own (an item has one bid in flight at a
 * time), as bids from many players arrive together and the writer commits them in one group.
 */
async function engineAlone(seconds: number, inflight: number) {
  const players = await server.db.selectFrom('users').selectAll().where('balance', '>', 0).where('rank', '=', 'user').orderBy('id').limit(2).execute();
  const items = await server.db.selectFrom('items').select(['id', 'amount', 'leader_id']).where('state', '=', 'live').orderBy('id').execute();
  if (players.length < 2 || items.length === 0) throw new Error('engine-alone needs two funded players and a live item');
  const lanes = Math.max(1, Math.min(inflight, items.length));
  const errors: Record<string, number> = {};
  const run = await timedLanes(seconds, lanes, async (lane, k) => {
    // lane l's items: those whose index is l modulo the lanes, in turn
    const own = Math.ceil((items.length - lane) / lanes);
    const item = items[lane + (k % own) * lanes];
    const player = players.find((p) => p.id !== item.leader_id) ?? players[0];
    item.amount += 1;
    const answer = await server.auction.createBid(player, { itemId: item.id, amount: item.amount, requestId: `engine-alone-${++engineRequests}` });
    if (answer?.type === 'ERROR') errors[answer.error_type] = (errors[answer.error_type] ?? 0) + 1;
    else item.leader_id = player.id;
  });
  const { transactions, ...figures } = run;
  return { bids: transactions, ...figures, inflight: lanes, errors, connections: server.hub.count() };
}

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  input += chunk;
  for (let newline = input.indexOf('\n'); newline >= 0; newline = input.indexOf('\n')) {
    const [command, arg, inflight] = input.slice(0, newline).trim().split(/\s+/);
    input = input.slice(newline + 1);
    if (command === 'commits') {
      // the engine's write transactions for bids so far, and the bids they carried (the group commit, server/auction/bid-queue.ts)
      process.stdout.write(`${JSON.stringify({ commits: server.auction.bidCommits })}\n`);
    } else if (command === 'engine-alone') {
      engineAlone(Number(arg) || 3, Number(inflight) || 1).then(
        (result) => process.stdout.write(`${JSON.stringify({ engineAlone: result })}\n`),
        (error: unknown) => process.stdout.write(`${JSON.stringify({ error: String(error) })}\n`),
      );
    }
  }
});

process.stdout.write(`${JSON.stringify({ httpUrl: server.httpUrl, auctionUrl: server.auctionUrl, userUrl: server.userUrl, pragmas })}\n`);

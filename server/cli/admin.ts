import { pathToFileURL } from 'node:url';
import { RANKS } from '../../src/protocol/ranks';
import { loadConfig } from '../config';
import { openDatabase } from '../db/open';
import { addToGroup, GROUP_NAME_MAX, removeFromGroup } from '../auction/groups';
import { VERSION } from '../admin/dashboard';
import { BackupError, writeBackup } from '../backup/backup';
import { lowerPriority } from '../backup/priority';
import { RestoreRefused, restoreBackup } from '../backup/restore';
import { findUserByEmail, setUserRank } from '../users/users';
import { COMMAND_DEFINITIONS, installCommands } from '../discord/commands';
import { readDiscordConfig } from '../discord/settings';
import { DISCORD_ERRORS } from '../../src/protocol/discord';

export const USAGE = `Usage: npm run admin -- rank EMAIL RANK
       npm run admin -- group add|remove EMAIL GROUP
       npm run admin -- backup FILE
       npm run admin -- restore FILE
       npm run admin -- discord register

Commands:
  rank EMAIL RANK           set the rank of the account with this email (RANK: ${RANKS.join(', ')})
  group add EMAIL GROUP     put the account in a group (created on first use); items may limit bidding to groups
  group remove EMAIL GROUP  take the account out of a group
  backup FILE               write a backup (the database and the uploaded images) to FILE, a zip; the server may be running
  restore FILE              replace the database and images with a backup's, after checking it; the server must be stopped
                            (the replaced ones are kept beside, as kingdom.db.replaced-TIME and uploads.replaced-TIME)
  discord register          install the slash commands in the Discord server set in Kingdom Settings (DISCORD_API_URL: where Discord is)

The database is DATA_DIR/kingdom.db (DATA_DIR defaults to ./data); the server may be running, except for restore.`;

export type AdminCommand =
  | { kind: 'rank'; email: string; rank: string }
  | { kind: 'group'; action: 'add' | 'remove'; email: string; group: string }
  | { kind: 'backup'; file: string; scheduled: boolean }
  | { kind: 'restore'; file: string }
  | { kind: 'discord-register' }
  | { kind: 'help' };

export class UsageError extends Error {}

/** Parses the arguments after `npm run admin --`; throws UsageError with a clear message. */
export function parseAdminArgs(argv: readonly string[]): AdminCommand {
  const [command, ...rest] = argv;
  if (command === undefined) throw new UsageError('Missing command.');
  if (command === 'help' || command === '--help' || command === '-h') return { kind: 'help' };
  if (command === 'group') return parseGroupArgs(rest);
  if (command === 'backup') {
    const scheduled = rest.includes('--scheduled');
    const files = rest.filter((arg) => arg !== '--scheduled');
    if (files.length !== 1 || files[0].trim() === '') throw new UsageError('The backup command takes the file to write: npm run admin -- backup FILE');
    return { kind: 'backup', file: files[0], scheduled };
  }
  if (command === 'restore') {
    if (rest.length !== 1 || rest[0].trim() === '') throw new UsageError('The restore command takes the backup file to restore: npm run admin -- restore FILE');
    return { kind: 'restore', file: rest[0] };
  }
  if (command === 'discord') {
    if (rest.length !== 1 || rest[0] !== 'register') throw new UsageError('The discord command is "discord register": it installs the slash commands in the Discord server.');
    return { kind: 'discord-register' };
  }
  if (command !== 'rank') throw new UsageError(`Unknown command "${command}".`);
  if (rest.length !== 2) throw new UsageError('The rank command takes an email and a rank.');
  const [email, rank] = rest;
  if (!(RANKS as readonly string[]).includes(rank)) throw new UsageError(`"${rank}" is not a rank: use ${RANKS.join(', ')}.`);
  return { kind: 'rank', email: email.trim().toLowerCase(), rank };
}

function parseGroupArgs(rest: readonly string[]): AdminCommand {
  const [action, email, group, ...extra] = rest;
  if (action !== 'add' && action !== 'remove') throw new UsageError('The group command is "group add EMAIL GROUP" or "group remove EMAIL GROUP".');
  if (email === undefined || group === undefined || extra.length > 0) throw new UsageError(`"group ${action}" takes an email and a group name.`);
  const name = group.trim();
  if (name.length === 0 || name.length > GROUP_NAME_MAX) throw new UsageError(`A group name has 1 to ${GROUP_NAME_MAX} characters.`);
  return { kind: 'group', action, email: email.trim().toLowerCase(), group: name };
}

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

/** Runs the admin command in the server's database (DATABASE_URL, else DATA_DIR's); answers the process exit code. */
export async function runAdminCli(argv: readonly string[], dataDir: string, io: CliIo, databaseUrl: string | null = null): Promise<number> {
  let command: AdminCommand;
  try {
    command = parseAdminArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(error.message);
    io.err(USAGE);
    return 2;
  }
  if (command.kind === 'help') {
    io.out(USAGE);
    return 0;
  }
  if (command.kind === 'backup' || command.kind === 'restore') return runBackupCommand(command, dataDir, io, databaseUrl);
  const db = await openDatabase(dataDir, databaseUrl);
  try {
    if (command.kind === 'discord-register') {
      const config = await readDiscordConfig(db);
      if (!config) {
        io.err(DISCORD_ERRORS.notConfigured);
        return 1;
      }
      const refused = await installCommands(config, loadConfig().discordApiUrl);
      if (refused) {
        io.err(refused);
        return 1;
      }
      io.out(`Installed in the Discord server ${config.guildId}: ${COMMAND_DEFINITIONS.map((c) => `/${c.name}`).join(' ')}`);
      return 0;
    }
    const user = await findUserByEmail(db, command.email);
    if (!user) {
      io.err(`No account has the email ${command.email} (database: ${databaseUrl ? 'DATABASE_URL' : dataDir}).`);
      return 1;
    }
    if (command.kind === 'group') {
      const who = `${user.username} <${user.email}>`;
      if (command.action === 'add') {
        const added = await addToGroup(db, user.id, command.group);
        io.out(added ? `${who} is now in the group ${command.group}.` : `${who} is already in the group ${command.group}; nothing changed.`);
      } else {
        const removed = await removeFromGroup(db, user.id, command.group);
        io.out(removed ? `${who} is no longer in the group ${command.group}.` : `${who} is not in the group ${command.group}; nothing changed.`);
      }
      return 0;
    }
    if (user.rank === command.rank) {
      io.out(`${user.username} <${user.email}> already has the rank ${command.rank}; nothing changed.`);
      return 0;
    }
    await setUserRank(db, user.id, command.rank);
    io.out(`${user.username} <${user.email}>: rank ${user.rank} → ${command.rank}.`);
    return 0;
  } finally {
    await db.destroy();
  }
}

const MB = 1024 * 1024;

async function runBackupCommand(
  command: Extract<AdminCommand, { kind: 'backup' | 'restore' }>,
  dataDir: string,
  io: CliIo,
  databaseUrl: string | null,
): Promise<number> {
  if (databaseUrl) {
    io.err(`The ${command.kind} command is for the SQLite database in DATA_DIR: with DATABASE_URL, use PostgreSQL's pg_dump and pg_restore (see the README).`);
    return 1;
  }
  try {
    if (command.kind === 'backup') {
      // the backup takes the CPU the server leaves, on every thread (not allowed: it runs at the shell's priority)
      lowerPriority();
      const done = await writeBackup(dataDir, command.file, { scheduled: command.scheduled, appVersion: VERSION });
      io.out(`Backup written to ${done.file}: ${(done.bytes / MB).toFixed(1)} MB (the database and ${done.uploads} image(s)), in ${(done.tookMs / 1000).toFixed(1)} s.`);
      return 0;
    }
    const done = await restoreBackup(dataDir, command.file);
    io.out(`Restored the backup taken ${new Date(done.takenAt).toISOString()} (${done.uploads} image(s)) into ${dataDir}.`);
    if (done.keptDatabase) io.out(`The database it replaced is kept as ${done.keptDatabase}.`);
    if (done.keptUploads) io.out(`The images it replaced are kept in ${done.keptUploads}.`);
    return 0;
  } catch (error) {
    if (error instanceof BackupError || error instanceof RestoreRefused) {
      io.err(error.message);
      if (error instanceof RestoreRefused) io.err('Nothing was changed.');
      return 1;
    }
    throw error;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const config = loadConfig();
    const code = await runAdminCli(
      process.argv.slice(2),
      config.dataDir,
      { out: (line) => console.log(line), err: (line) => console.error(line) },
      config.databaseUrl,
    );
    process.exit(code);
  } catch (error) {
    console.error(`admin: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

/**
 * npm run --silent replay -- FILE [--at MS]
 *
 * Replays a recorded socket log through the app's normaliser and machines and prints the board
 * after the whole log (or at MS ms after its start) as one JSON object, and nothing else. A
 * malformed log exits with status 1 and names the line on stderr.
 */
import { readFileSync } from 'node:fs';
import { LogError, parseLog } from '../src/streams/log';
import { replayLog } from '../src/streams/replay';

function usage(message: string): never {
  process.stderr.write(`${message}\nusage: npm run --silent replay -- FILE [--at MS]\n`);
  process.exit(2);
}

const args = process.argv.slice(2);
let file: string | undefined;
let at: number | undefined;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--at') {
    const value = Number(args[++i]);
    if (args[i] === undefined || !Number.isFinite(value) || value < 0) usage('--at needs a time in ms (≥ 0)');
    at = value;
  } else if (args[i].startsWith('--at=')) {
    at = Number(args[i].slice(5));
    if (!Number.isFinite(at) || at < 0) usage('--at needs a time in ms (≥ 0)');
  } else if (file === undefined) file = args[i];
  else usage(`unexpected argument: ${args[i]}`);
}
if (!file) usage('which log?');

let text: string;
try {
  text = readFileSync(file, 'utf8');
} catch (error) {
  process.stderr.write(`${file}: ${(error as Error).message}\n`);
  process.exit(1);
}

try {
  const board = replayLog(parseLog(text), { at });
  process.stdout.write(JSON.stringify(board) + '\n');
} catch (error) {
  if (error instanceof LogError) {
    process.stderr.write(`${file}: malformed log, ${error.message}\n`);
    process.exit(1);
  }
  throw error;
}

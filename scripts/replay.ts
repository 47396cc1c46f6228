/**
 * npm run --silent replay -- FILE [--at MS]
 *
 * Replays a recorded socket log through the app's normaliser and machines and prints the board
 * after the whole log (or at MS ms after its start) as one JSON object, and nothing else. A
 * malformed log exits with status 1 and names the line on stderr. The file is read and folded a
 * piece at a time, so a long log is never held whole.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { LogError } from '../src/streams/log';
import { foldLog } from '../src/replay/replay';

const PIECE_BYTES = 1 << 20;

/** The file's text, a piece at a time (a character cut between two pieces is put back together). */
function* piecesOf(fd: number): Generator<string> {
  const decoder = new StringDecoder('utf8');
  const buffer = Buffer.alloc(PIECE_BYTES);
  for (;;) {
    const n = readSync(fd, buffer, 0, PIECE_BYTES, null);
    if (n === 0) break;
    yield decoder.write(buffer.subarray(0, n));
  }
  yield decoder.end();
}

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

let fd: number;
try {
  fd = openSync(file, 'r');
} catch (error) {
  process.stderr.write(`${file}: ${(error as Error).message}\n`);
  process.exit(1);
}

try {
  const board = foldLog(piecesOf(fd), { at });
  process.stdout.write(JSON.stringify(board) + '\n');
} catch (error) {
  if (error instanceof LogError) {
    process.stderr.write(`${file}: malformed log, ${error.message}\n`);
    process.exit(1);
  }
  if ((error as NodeJS.ErrnoException).code) {
    process.stderr.write(`${file}: ${(error as Error).message}\n`);
    process.exit(1);
  }
  throw error;
} finally {
  closeSync(fd);
}

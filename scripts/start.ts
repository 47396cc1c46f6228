// `npm start`: build the client when its build is missing or older than its sources, then serve.
//
// Stopping: `npm start` runs this file as `exec node --import tsx scripts/start.ts`, so the shell npm
// starts is replaced by this very process and no wrapper sits between npm and the server. Ctrl+C
// (SIGINT) or SIGTERM, to npm or to this process, reaches the server, which closes its three ports
// and exits (server/serve.ts). During the build, the same signals stop the build first.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { serve } from '../server/serve';

const root = process.cwd();
const distIndex = path.resolve(process.env.DIST_DIR?.trim() || 'dist', 'index.html');
const SOURCES = ['src', 'public', 'index.html', 'vite.config.ts', 'tailwind.config.ts', 'package.json'];

/** The newest modification time under a file or folder (0 when it does not exist). */
function newestMtime(target: string): number {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

function buildReason(): string | null {
  if (!fs.existsSync(distIndex)) return `${path.relative(root, distIndex)} is missing`;
  const built = fs.statSync(distIndex).mtimeMs;
  const stale = SOURCES.find((source) => newestMtime(path.join(root, source)) > built);
  return stale ? `${stale} changed since the last build` : null;
}

const reason = buildReason();
if (reason) {
  console.log(`Building the client (${reason})…`);
  const outDir = path.dirname(distIndex);
  const build = spawn('npx', ['vite', 'build', '--outDir', outDir, '--emptyOutDir'], {
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  // a signal while building stops the build too, rather than leaving it running on its own
  const forward = (signal: NodeJS.Signals) => {
    build.kill(signal);
    process.exitCode = 130;
  };
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  const status = await new Promise<number | null>((resolve) => build.once('exit', (code, signal) => resolve(signal ? null : code)));
  process.off('SIGINT', forward);
  process.off('SIGTERM', forward);
  if (process.exitCode === 130) process.exit(130);
  if (status !== 0) {
    console.error('The client build failed; fix it and run npm start again.');
    process.exit(status ?? 1);
  }
} else {
  console.log('The client build is up to date.');
}

await serve();

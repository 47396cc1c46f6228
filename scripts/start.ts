// `npm start`: build the client when its build is missing or older than its sources, then serve.
import { spawnSync } from 'node:child_process';
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
  const result = spawnSync('npx', ['vite', 'build', '--outDir', outDir, '--emptyOutDir'], {
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (result.status !== 0) {
    console.error('The client build failed; fix it and run npm start again.');
    process.exit(result.status ?? 1);
  }
} else {
  console.log('The client build is up to date.');
}

await serve();

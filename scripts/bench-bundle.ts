/**
 * npm run bench:bundle — the gzip size of the JavaScript that /signin loads, and of the whole
 * build. It reads Vite's manifest: the entry's static imports, plus the sign-in page's lazy chunk
 * and its static imports (what the browser fetches to show /signin). Builds first if needed.
 */
import { execSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const DIST = 'dist';
const MANIFEST = join(DIST, '.vite', 'manifest.json');
const BUDGET_KB = 150;

interface Chunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
  isEntry?: boolean;
  src?: string;
}

if (!existsSync(MANIFEST) || process.argv.includes('--build')) execSync('npx vite build', { stdio: 'ignore' });
const manifest: Record<string, Chunk> = JSON.parse(readFileSync(MANIFEST, 'utf8'));

const gz = (file: string) => gzipSync(readFileSync(join(DIST, file)), { level: 9 }).length;

function closure(keys: string[], seen = new Set<string>()): Set<string> {
  for (const key of keys) {
    if (seen.has(key)) continue;
    seen.add(key);
    closure(manifest[key]?.imports ?? [], seen);
  }
  return seen;
}

const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
const signIn = Object.keys(manifest).find((k) => k.endsWith('src/ui/pages/auth/signin-page.tsx'));
if (!entry || !signIn) throw new Error('manifest has no entry or no sign-in page chunk');

const signInFiles = [...closure([entry, signIn])].map((k) => manifest[k].file).filter((f) => f.endsWith('.js'));
const signInBytes = signInFiles.reduce((sum, f) => sum + gz(f), 0);

const allJs = readdirSync(join(DIST, 'assets')).filter((f) => f.endsWith('.js'));
const allBytes = allJs.reduce((sum, f) => sum + gz(join('assets', f)), 0);
const css = readdirSync(join(DIST, 'assets')).filter((f) => f.endsWith('.css'));
const cssBytes = css.reduce((sum, f) => sum + gz(join('assets', f)), 0);

const kb = (n: number) => (n / 1024).toFixed(1);
console.log(`/signin JavaScript: ${kb(signInBytes)} KB gzip in ${signInFiles.length} files (budget ${BUDGET_KB} KB)`);
for (const f of signInFiles.sort((a, b) => gz(b) - gz(a))) console.log(`  ${kb(gz(f)).padStart(6)} KB  ${f}`);
console.log(`whole build JavaScript: ${kb(allBytes)} KB gzip in ${allJs.length} files; CSS ${kb(cssBytes)} KB gzip`);
if (signInBytes / 1024 > BUDGET_KB) {
  console.error(`/signin is over its ${BUDGET_KB} KB budget`);
  process.exitCode = 1;
}

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project's own lint rules (no plugin in the registry does both on a flat config without a
 * second resolver):
 *
 *   local/no-cycle          a module never imports, through any chain of value imports, itself.
 *                           Type-only imports and dynamic `import()` (lazy pages) do not count:
 *                           neither runs the imported module first.
 *   local/kebab-case-files  file names are kebab-case words, dots between parts
 *                           (`bot-watch.machine.ts`, `board.rules.test.ts`).
 */
const ROOT = dirname(fileURLToPath(import.meta.url));
const SOURCE_DIRS = ['src', 'server', 'scripts', 'bench'];
const EXTENSIONS = ['.ts', '.tsx', '.js', '.mjs'];

/** A relative specifier from `from` to the file it names, or null (a package, JSON, a missing file). */
function resolveImport(from, specifier) {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base, ...EXTENSIONS.map((e) => base + e), ...EXTENSIONS.map((e) => join(base, `index${e}`))]) {
    if (EXTENSIONS.some((e) => candidate.endsWith(e)) && existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

// `import x from`, `import { a, type B } from`, `export { a } from`, `export * from`, `import './side-effect'`;
// not `import type …` / `export type …`, not `import(…)`
const STATIC_IMPORT = /^\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s*)?['"]([^'"]+)['"]/gm;

function valueImports(file, text) {
  const targets = new Set();
  for (const match of text.matchAll(STATIC_IMPORT)) {
    const target = resolveImport(file, match[1]);
    if (target) targets.add(target);
  }
  return targets;
}

function walk(dir, out) {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, out);
    else if (EXTENSIONS.some((e) => entry.name.endsWith(e)) && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** Who imports each file (value imports), read from disk once per lint run. */
let importers = null;
function importersOnDisk() {
  if (importers) return importers;
  importers = new Map();
  for (const file of SOURCE_DIRS.flatMap((d) => walk(join(ROOT, d), []))) {
    for (const target of valueImports(file, readFileSync(file, 'utf8'))) {
      if (!importers.has(target)) importers.set(target, new Set());
      importers.get(target).add(file);
    }
  }
  return importers;
}

/** Every file from which `file` can be reached by value imports on disk. */
function reachingFiles(file) {
  const graph = importersOnDisk();
  const seen = new Set();
  const queue = [file];
  while (queue.length > 0) {
    for (const importer of graph.get(queue.pop()) ?? []) {
      if (!seen.has(importer)) {
        seen.add(importer);
        queue.push(importer);
      }
    }
  }
  return seen;
}

const noCycle = {
  meta: { type: 'problem', docs: { description: 'no import cycles' }, schema: [], messages: { cycle: 'Import cycle: {{ target }} imports {{ file }} again, through its own imports. Move what both need into a third module.' } },
  create(context) {
    const file = context.filename;
    let reaching = null;
    const check = (node) => {
      if (node.importKind === 'type' || node.exportKind === 'type' || !node.source) return;
      // `import { type A, type B } from` is type-only too
      if (node.type === 'ImportDeclaration' && node.specifiers.length > 0 && node.specifiers.every((s) => s.importKind === 'type')) return;
      const target = resolveImport(file, node.source.value);
      if (!target) return;
      reaching ??= reachingFiles(file);
      if (target === file || reaching.has(target)) {
        context.report({ node, messageId: 'cycle', data: { target: relative(ROOT, target), file: relative(ROOT, file) } });
      }
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
  },
};

const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*(?:\.[a-z0-9]+(?:-[a-z0-9]+)*)*$/;

const kebabCaseFiles = {
  meta: { type: 'suggestion', docs: { description: 'kebab-case file names' }, schema: [], messages: { name: 'File name "{{ name }}" is not kebab-case (lower-case words joined by "-", parts by ".").' } },
  create(context) {
    return {
      Program(node) {
        const name = basename(context.filename);
        if (!KEBAB.test(name)) context.report({ node, loc: { line: 1, column: 0 }, messageId: 'name', data: { name } });
      },
    };
  },
};

export const localPlugin = { rules: { 'no-cycle': noCycle, 'kebab-case-files': kebabCaseFiles } };

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every source file under `dir` (TypeScript and the .mjs boot files). */
function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.(ts|tsx|mjs)$/.test(entry.name) ? [full] : [];
  });
}

describe('comments speak of the code', () => {
  it('no source file cites an issue number or a document outside the repository', () => {
    const cited = ['server', 'src', 'scripts', 'bench', 'tests'].flatMap((dir) =>
      sources(dir)
        // (this test names what it looks for)
        .filter((file) => path.resolve(file) !== path.resolve(import.meta.filename))
        .flatMap((file) =>
        fs
          .readFileSync(file, 'utf8')
          .split('\n')
          .flatMap((line, i) => (/(DESIGN|SPEC)\.md|\b[Ii]ssues? #?\d+|\btest(\.describe)?\('#\d+ /.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
        ),
    );
    expect(cited).toEqual([]);
  });
});

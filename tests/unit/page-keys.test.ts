import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import en from '../../src/locales/en.json';
import { PAGE_KEYS } from '../../scripts/vite-precompile-messages';

/** Every source file below a folder. */
function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The English keys a file names in quotes. */
function keysIn(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  return Object.keys(en).filter((key) => text.includes(`'${key}'`) || text.includes(`"${key}"`) || text.includes(`\`${key}`));
}

describe('English texts split off the sign-in bundle', () => {
  it('holds no text the sign-in pages, the shell, the error pages or the machines (notices) show before the pages load', () => {
    // src/ui/components/stats/ holds the parts only page groups behind sign-in share (statistics views, KvK and scan parts, the confirm dialog, the share-card dialog and the share links)
    const early = ['src/ui/shell', 'src/ui/pages/auth', 'src/ui/pages/errors', 'src/machines', 'src/ui/boot', 'src/ui/components']
      .flatMap(files)
      .filter((path) => !path.startsWith(join('src/ui/components/stats')));
    early.push('src/ui/app.tsx', 'src/ui/router.tsx', 'src/ui/error-boundary.tsx');
    const split = early.flatMap((path) => keysIn(path).filter((key) => PAGE_KEYS.test(key)).map((key) => `${path}: ${key}`));
    expect(split).toEqual([]);
  });

  it('splits off the pages behind sign-in', () => {
    expect(PAGE_KEYS.test('manage.create')).toBe(true);
    expect(PAGE_KEYS.test('store.details.close')).toBe(true);
    expect(PAGE_KEYS.test('store.closed.title')).toBe(false);
    expect(PAGE_KEYS.test('signin.title')).toBe(false);
  });
});

import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The lint rules that keep the layers bite (eslint.boundaries.js, eslint.local.js and the
 * no-restricted-imports rules of eslint.config.js): a small file placed, in memory only, in one
 * layer and importing another is linted with the project's own config; a forbidden import is an
 * error, an allowed one is none. Only the imported files must exist. An import cycle is planted
 * by linting a real file's text with one import more; a file name by linting under that name.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

const RULES = ['boundaries/dependencies', 'no-restricted-imports', 'local/no-cycle', 'local/kebab-case-files'];

async function layerErrors(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\nexport const used = x;\n`, { filePath: `${root}${filePath}` });
  return result.messages.filter((m) => RULES.includes(m.ruleId ?? '')).map((m) => m.message);
}

const cases: [from: string, source: string, allowed: boolean][] = [
  ['src/protocol/virtual.ts', "import { authMachine as x } from '../machines/auth.machine';", false],
  ['src/protocol/virtual.ts', "import { ApiError as x } from '../api/client';", false],
  ['src/protocol/virtual.ts', "import { MSG as x } from './socket';", true],
  ['src/streams/virtual.ts', "import { authMachine as x } from '../machines/auth.machine';", false],
  ['src/streams/virtual.ts', "import { MSG as x } from '../protocol/socket';", true],
  ['src/api/virtual.ts', "import { authMachine as x } from '../machines/auth.machine';", false],
  ['src/api/virtual.ts', "import { user as x } from '../protocol/auth';", true],
  ['src/machines/virtual.ts', "import { cn as x } from '../ui/lib/cn';", false],
  ['src/machines/virtual.ts', "import { useState as x } from 'react';", false],
  ['src/machines/virtual.ts', "import { ApiError as x } from '../api/client';", false],
  ['src/machines/virtual.ts', "import { MSG as x } from '../protocol/socket';", true],
  ['src/auction/virtual.ts', "import { createSocket as x } from '../streams/socket';", false],
  ['src/auction/virtual.ts', "import { nextMinimum as x } from '../protocol/store';", true],
  ['src/replay/virtual.ts', "import { boardMachine as x } from '../machines/board.machine';", true],
  ['src/replay/virtual.ts', "import { ApiError as x } from '../api/client';", false],
  ['src/ui/pages/my-account/virtual.tsx', "import { TransactionsCard as x } from '../my-kingdom/kingdom-points/transactions-card';", false],
  ['src/ui/pages/my-kingdom/virtual.tsx', "import { TransactionsCard as x } from './kingdom-points/transactions-card';", true],
  ['src/ui/pages/my-kingdom/virtual.tsx', "import { Field as x } from '../../components/field';", true],
  ['server/virtual.ts', "import { authMachine as x } from '../src/machines/auth.machine';", false],
  ['server/virtual.ts', "import { ApiError as x } from '../src/api/client';", false],
  ['server/virtual.ts', "import { MSG as x } from '../src/protocol/socket';", true],
  // a shared component or ui/lib never imports a page
  ['src/ui/components/virtual.tsx', "import { TransactionsCard as x } from '../pages/my-kingdom/kingdom-points/transactions-card';", false],
  ['src/ui/components/stats/virtual.tsx', "import { TransactionsCard as x } from '../../pages/my-kingdom/kingdom-points/transactions-card';", false],
  ['src/ui/lib/virtual.ts', "import { TransactionsCard as x } from '../pages/my-kingdom/kingdom-points/transactions-card';", false],
  ['src/ui/lib/virtual.ts', "import { cn as x } from './cn';", true],
  ['src/ui/routes.virtual.ts', "import { TransactionsCard as x } from './pages/my-kingdom/kingdom-points/transactions-card';", true],
  // no page (nor any client code) imports the server
  ['src/ui/pages/admin/virtual.tsx', "import { judgeBid as x } from '../../../../server/auction/bid-view';", false],
  ['src/ui/components/virtual.tsx', "import { judgeBid as x } from '../../../server/auction/bid-view';", false],
  // domain code never imports server/http/; the routes and the composition root do
  ['server/points/virtual.ts', "import { statusOf as x } from '../http/errors';", false],
  ['server/virtual.ts', "import { buildApp as x } from './http/build-app';", false],
  ['server/points/virtual.ts', "import { NotFound as x } from '../errors';", true],
  ['server/http/routes/virtual.ts', "import { statusOf as x } from '../errors';", true],
  ['server/app.ts', "import { buildApp as x } from './http/build-app';", true],
  // the locales hold texts: the protocol's, never a machine's
  ['src/locales/virtual.ts', "import { authMachine as x } from '../machines/auth.machine';", false],
  ['src/locales/virtual.ts', "import { cn as x } from '../ui/lib/cn';", false],
  ['src/locales/virtual.ts', "import { AUTH_ERRORS as x } from '../protocol/auth';", true],
  // no import cycle: item-id.ts is imported by board-view.ts, so it may not import it back (but a type may)
  ['src/auction/item-id.ts', "import { viewBoard as x } from './board-view';", false],
  ['src/auction/item-id.ts', "import type { BoardView as x } from './board-view';", true],
  ['src/auction/virtual.ts', "import { viewBoard as x } from './board-view';", true],
  // kebab-case file names
  ['src/ui/lib/useThing.ts', "import { cn as x } from './cn';", false],
  ['tests/unit/fooBar.test.ts', "import { MSG as x } from '../../src/protocol/socket';", false],
  ['src/ui/lib/use-thing.ts', "import { cn as x } from './cn';", true],
];

describe('the layer rules', () => {
  it.each(cases)('%s: %s → allowed %s', async (from, source, allowed) => {
    const errors = await layerErrors(from, source);
    if (allowed) expect(errors).toEqual([]);
    else expect(errors.length).toBeGreaterThan(0);
  }, 60_000);

  it('names the rule the import breaks', async () => {
    const [message] = await layerErrors('src/protocol/virtual.ts', "import { authMachine as x } from '../machines/auth.machine';");
    expect(message).toContain('The protocol imports nothing of ours');
  }, 60_000);
});

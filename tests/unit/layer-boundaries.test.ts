import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The layer rules (eslint.boundaries.js, issue 11 #4) bite: a small file placed, in memory only,
 * in one layer and importing another is linted with the project's own config; a forbidden import
 * is a `boundaries/dependencies` error, an allowed one is none. The folders need not exist
 * (src/replay, src/auction may be new): only the imported files must.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

async function layerErrors(filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${source}\nexport const used = x;\n`, { filePath: `${root}${filePath}` });
  return result.messages.filter((m) => m.ruleId === 'boundaries/dependencies' || m.ruleId === 'no-restricted-imports').map((m) => m.message);
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

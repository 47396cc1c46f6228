import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { precompileMessages } from './scripts/vite-precompile-messages.ts';

export default defineConfig(({ mode }) => ({
  // tests (Vitest runs in mode "test") read the locale files as they are; the app gets them
  // precompiled. By mode, not by VITEST in the environment: a build a test starts inherits that.
  plugins: [react(), tailwindcss(), ...(mode === 'test' ? [] : [precompileMessages()])],
  build: {
    manifest: true,
    outDir: 'dist',
    // maps are written (for error reporting) but not linked from the bundles, and the server does not
    // serve them, unless asked for: SOURCE_MAPS=serve at build time links them, at run time serves them
    sourcemap: process.env.SOURCE_MAPS === 'serve' ? true : 'hidden',
    chunkSizeWarningLimit: 600,
    // a lazy page names only its style sheets to preload, not every JS chunk it shares: with 30 pages
    // the full lists cost the first page (/signin) more than a kilobyte, and a page's shared chunks
    // are one small request away when it opens (most are cached by then)
    modulePreload: { resolveDependencies: (_file, deps) => deps.filter((dep) => dep.endsWith('.css')) },
    // XState is one library every page loads with the app: one chunk, not a chunk per module group
    // the pages happen to share (each chunk costs the first page a request and its own overhead)
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'xstate', test: /node_modules[\\/]xstate[\\/]/ }] } } },
  },
  server: { port: 5173 },
  test: {
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['tests/unit/**/*.test.{ts,tsx}'], environment: 'node' },
      },
      {
        extends: true,
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          environment: 'node',
          // each file opens its own SQLite file and ports; two cores, so two forks
          pool: 'forks',
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          // the same suite on PostgreSQL: a throwaway cluster started by the set-up
          name: 'server-pg',
          include: ['tests/server/**/*.test.ts'],
          // what only SQLite has: the statement cache of better-sqlite3, a file's migration history
          exclude: ['tests/server/statement-cache.test.ts'],
          environment: 'node',
          env: { KINGDOM_TEST_DB: 'postgres' },
          globalSetup: ['tests/server/pg-global-setup.ts'],
          pool: 'forks',
          testTimeout: 20_000,
        },
      },
    ],
  },
}));

import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { layerBoundaries } from './eslint.boundaries.js';
import { localPlugin } from './eslint.local.js';

const CLIENT_CODE = { group: ['**/src/ui/**', '**/src/machines/**', '**/src/streams/**', '**/src/api/**'], message: 'The server shares only src/protocol with the client.' };
const HTTP_LAYER = { group: ['**/http/**', './http/**'], message: 'Domain code throws domain errors (server/errors.ts) and never imports server/http/: only the routes and the composition root speak HTTP.' };

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'data', 'test-results', 'playwright-report', '.tmp'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/ui/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  // The architecture is the shape of the code: machines and streams never import React or the UI,
  // the protocol imports nothing of ours, the server never imports client code but the protocol.
  {
    files: ['src/machines/**', 'src/streams/**', 'src/protocol/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['react', 'react-dom', '@xstate/react', '**/ui/**'], message: 'Machines, streams and protocol stay free of React and the UI.' },
      ] }],
    },
  },
  {
    files: ['server/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [CLIENT_CODE, HTTP_LAYER] }],
    },
  },
  // only the routes and the composition root that mounts them speak HTTP
  {
    files: ['server/http/**', 'server/app.ts', 'server/main.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [CLIENT_CODE] }],
    },
  },
  // the layers of docs/architecture.md, enforced (eslint.boundaries.js)
  ...layerBoundaries,
  // no import cycles, kebab-case file names (eslint.local.js); migrations keep their numbered names
  {
    files: ['src/**/*.{ts,tsx}', 'server/**/*.ts', 'scripts/**/*.ts', 'bench/**/*.ts'],
    plugins: { local: localPlugin },
    rules: { 'local/no-cycle': 'error' },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'server/**/*.{ts,mjs}', 'tests/**/*.{ts,tsx}', 'scripts/**/*.{ts,mjs}', 'bench/**/*.ts'],
    ignores: ['server/db/migrations/**'],
    plugins: { local: localPlugin },
    rules: { 'local/kebab-case-files': 'error' },
  },
);

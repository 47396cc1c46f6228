import { parse } from '@formatjs/icu-messageformat-parser';
import type { Plugin } from 'vite';

/**
 * Compiles the locale files' ICU messages to ASTs at build time, so the browser needs no message
 * parser: react-intl's documented set-up with the parser aliased to its `no-parser` build.
 * Texts stay word for word; only their parsing moves from the browser to the build.
 *
 * English ships with the page, so the texts of pages behind sign-in (statistics, the back office,
 * settings, groups, profile, QA, the store's page; never the sign-in pages, the shell or the notices) are split off: `en.json` holds the rest, `en.json?pages` only those, loaded right
 * after boot (src/locales/load.ts). This keeps /signin within its budget as pages add texts.
 */
export const PAGE_KEYS = /^(admin|stat|stats|scans|dashboard|metrics|governor|manage|points|bulk|history|ledger|groups|myGroups|qa|settings|kingdom|kvk|profile|bots|migrants|auto|cards|store(?!\.closed\.))\./;

export function precompileMessages(): Plugin {
  return {
    name: 'kingdom:precompile-messages',
    enforce: 'pre',
    config: () => ({
      resolve: {
        alias: [{ find: /^@formatjs\/icu-messageformat-parser$/, replacement: '@formatjs/icu-messageformat-parser/no-parser.js' }],
      },
    }),
    transform(code, id) {
      const file = /\/src\/locales\/([a-z]{2})\.json(\?pages)?$/.exec(id);
      if (!file) return null;
      const messages = JSON.parse(code) as Record<string, string>;
      let entries = Object.entries(messages);
      if (file[1] === 'en') entries = entries.filter(([key]) => PAGE_KEYS.test(key) === (file[2] === '?pages'));
      const compiled = Object.fromEntries(entries.map(([key, text]) => [key, parse(text)]));
      // `?pages` is not seen as JSON by Vite: a module of its own; otherwise still JSON for Vite's JSON plugin
      if (file[2]) return { code: `export default JSON.parse(${JSON.stringify(JSON.stringify(compiled))});`, map: null, moduleType: 'js' };
      return { code: JSON.stringify(compiled), map: null };
    },
  };
}

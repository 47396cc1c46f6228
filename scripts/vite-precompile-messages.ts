import { parse } from '@formatjs/icu-messageformat-parser';
import type { Plugin } from 'vite';

/**
 * Compiles the locale files' ICU messages to ASTs at build time, so the browser needs no message
 * parser: react-intl's documented set-up with the parser aliased to its `no-parser` build.
 * Texts stay word for word; only their parsing moves from the browser to the build.
 */
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
      if (!/\/src\/locales\/[a-z]{2}\.json$/.test(id)) return null;
      const messages = JSON.parse(code) as Record<string, string>;
      const compiled = Object.fromEntries(Object.entries(messages).map(([key, text]) => [key, parse(text)]));
      // still JSON: Vite's own JSON plugin turns it into a module after this
      return { code: JSON.stringify(compiled), map: null };
    },
  };
}

import boundaries from 'eslint-plugin-boundaries';

/**
 * The layers of docs/architecture.md as lint rules: a file in one layer may import
 * only what its layer may know. Each folder is an element; a folder that does not exist yet matches
 * no file and costs nothing. The first pattern a file matches names its element, so the page
 * groups come before the rest of src/ui.
 *
 *   src/protocol     the wire contract: imports nothing of ours
 *   src/auction      pure auction rules and views: the protocol only
 *   src/streams      RxJS: the protocol (never machines, the UI or the API)
 *   src/machines     XState: protocol, streams, auction (never React, the UI or the API)
 *   src/replay       replay orchestration: protocol, streams, machines, auction
 *   src/api          REST (ky): the protocol (never machines or the UI)
 *   src/locales      texts: the protocol only
 *   src/ui/pages/<group>  one page group never imports another: what two groups share lives
 *                    in src/ui/components or src/ui/lib, which never import a page
 *   src/ui           never server/
 *   server/          the protocol only, of the client's code (domain code never importing
 *                    server/http/ is a no-restricted-imports rule in eslint.config.js)
 */
const LOCAL = { module: { origin: 'local' } };
const to = (...types) => ({ to: { element: { types: { anyOf: types } } } });
const fromAny = (...types) => ({ element: { types: { anyOf: types } } });
const message = (text) => `${text} (docs/architecture.md, "Rules the code keeps"): {{ from.element.type }} may not import {{ to.element.type }} ({{ to.file.path }}).`;

export const layerBoundaries = [
  {
    files: ['src/**/*.{ts,tsx}', 'server/**/*.ts'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.json'] } },
      'boundaries/elements': [
        { type: 'protocol', pattern: 'src/protocol/**', partialMatch: false },
        { type: 'auction', pattern: 'src/auction/**', partialMatch: false },
        { type: 'replay', pattern: 'src/replay/**', partialMatch: false },
        { type: 'streams', pattern: 'src/streams/**', partialMatch: false },
        { type: 'machines', pattern: 'src/machines/**', partialMatch: false },
        { type: 'api', pattern: 'src/api/**', partialMatch: false },
        { type: 'locales', pattern: 'src/locales/**', partialMatch: false },
        { type: 'page', pattern: 'src/ui/pages/*/**', partialMatch: false, capture: ['group'] },
        { type: 'components', pattern: 'src/ui/components/**', partialMatch: false },
        { type: 'ui-lib', pattern: 'src/ui/lib/**', partialMatch: false },
        { type: 'ui', pattern: 'src/ui/**', partialMatch: false },
        { type: 'server', pattern: 'server/**', partialMatch: false },
        { type: 'client', pattern: 'src/*', partialMatch: false },
      ],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          policies: [
            { from: { element: { type: 'protocol' } }, disallow: { to: LOCAL }, message: message('The protocol imports nothing of ours') },
            { from: { element: { type: 'protocol' } }, allow: to('protocol') },
            { from: { element: { type: 'auction' } }, disallow: { to: LOCAL }, message: message('Auction rules use the protocol only') },
            { from: { element: { type: 'auction' } }, allow: to('protocol', 'auction') },
            { from: { element: { type: 'streams' } }, disallow: to('machines', 'replay', 'api', 'ui', 'page', 'server'), message: message('Streams know frames, not machines, the API or the UI') },
            { from: { element: { type: 'machines' } }, disallow: to('replay', 'api', 'ui', 'page', 'server'), message: message('Machines stay free of the API and the UI') },
            { from: { element: { type: 'replay' } }, disallow: to('api', 'ui', 'page', 'server'), message: message('Replay uses protocol, streams, machines and auction rules only') },
            { from: { element: { type: 'api' } }, disallow: to('machines', 'replay', 'streams', 'ui', 'page', 'server'), message: message('The API layer stays free of machines and the UI') },
            { from: { element: { type: 'locales' } }, disallow: { to: LOCAL }, message: message('Locales hold texts: they read the protocol\'s texts, not machines or the UI') },
            { from: { element: { type: 'locales' } }, allow: to('protocol', 'locales') },
            { from: fromAny('components', 'ui-lib'), disallow: to('page'), message: message('Shared components and ui/lib serve the pages: they never import one') },
            { from: fromAny('page', 'components', 'ui-lib', 'ui', 'client'), disallow: to('server'), message: message('The client reaches the server over HTTP and sockets, never by import') },
            {
              from: { element: { type: 'page' } },
              disallow: { to: { element: { type: 'page', captured: { group: '!{{ from.element.captured.group }}' } } } },
              message: message('A page group does not import another: shared parts go to src/ui/components or src/ui/lib'),
            },
            { from: { element: { type: 'server' } }, disallow: { to: LOCAL }, message: message('The server shares only src/protocol with the client') },
            { from: { element: { type: 'server' } }, allow: to('server', 'protocol') },
          ],
        },
      ],
    },
  },
];

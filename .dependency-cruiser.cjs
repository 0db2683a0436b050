// The project's boundaries, checked by `npm run lint:deps` (part of `npm test`): each rule below names one, and a
// violation fails with the rule's name, the import that broke it and the rule's comment. The module graph of the
// server (no cycle) is checked on the server's modules alone, by .dependency-cruiser.modules.cjs.
const fs = require('node:fs');
const path = require('node:path');

// dependency-cruiser scans .ts/.tsx files only when it finds a TypeScript-capable parser (TypeScript 7 is not
// one: it has no JavaScript compiler API), and @swc/core is the one it takes; the files are then read through
// Babel (.dependency-cruiser.babel.cjs). Without either it would check nothing and pass: fail loudly instead.
for (const needed of ['@swc/core', '@babel/core']) require.resolve(needed);

/** The files the apps' package.json "exports" name: the apps' public entry points. */
function exportedFiles() {
  const files = [];
  const targets = (exports) =>
    typeof exports === 'string' ? [exports] : Object.values(exports ?? {}).flatMap(targets);
  for (const app of fs.readdirSync(path.join(__dirname, 'apps'))) {
    const manifest = path.join(__dirname, 'apps', app, 'package.json');
    if (!fs.existsSync(manifest)) continue;
    const { exports } = JSON.parse(fs.readFileSync(manifest, 'utf8'));
    for (const target of targets(exports)) files.push(path.posix.join('apps', app, target));
  }
  return files;
}
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const publicEntries = `^(${exportedFiles().map(escapeRegExp).join('|')})$`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'platform-imports-no-module',
      comment:
        'apps/server/src/platform/ is what every module builds on (errors, bus, storage, mail…); it imports no ' +
        'module. Move what it needs into platform/, or let the module hand it over through app wiring.',
      severity: 'error',
      from: { path: '^apps/server/src/platform/' },
      to: { path: '^apps/server/src/modules/' },
    },
    {
      name: 'feature-imports-no-feature',
      comment:
        'A web feature (apps/web/src/features/<f>/) imports no other feature. What two features share moves ' +
        'to apps/web/src/lib/ or components/; a screen that shows another feature is composed in app/.',
      severity: 'error',
      from: { path: '^apps/web/src/features/([^/]+)/' },
      to: { path: '^apps/web/src/features/', pathNot: '^apps/web/src/features/$1/' },
    },
    {
      name: 'packages-import-no-app',
      comment:
        'packages/ (the protocol, the fixtures) are what the apps share; they import no app. Move what both ' +
        'need into the package.',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^apps/' },
    },
    {
      name: 'bench-uses-public-entries',
      comment:
        'bench/ reaches an app only through the files its package.json "exports" names ' +
        '(@parley/server, @parley/web/…). Export what a benchmark needs there instead of importing a deep path.',
      severity: 'error',
      from: { path: '^bench/' },
      to: { path: '^apps/', pathNot: publicEntries },
    },
    {
      name: 'imports-resolve',
      comment:
        'Every import resolves to a file: a deep import into a package past its "exports" does not, and a ' +
        'rule cannot check what it cannot find.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: '(^|/)node_modules/' },
    // What git ignores: builds, test output, data, the benchmarks' results and caches.
    exclude: {
      path: '(^|/)(node_modules|dist|data|coverage|test-results|playwright-report|results|\\.cache)/',
    },
    babelConfig: { fileName: path.join(__dirname, '.dependency-cruiser.babel.cjs') },
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
      // The workspaces' packages are reached by their "exports", as Node and TypeScript reach them.
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      mainFields: ['module', 'main', 'types'],
    },
  },
};

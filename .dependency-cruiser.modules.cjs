// The server's module graph, checked by `npm run lint:deps` on apps/server/src/modules alone: a module is a
// folder of modules/, and an import of any kind (type-only imports too) is an edge between two folders. Outside
// the modules the graph meets the app's wiring (app.ts, services.ts, context.ts) and db/schema.ts, which compose
// every module by design, so they and the tests (which build worlds of several modules) are left out here.
const { options } = require('./.dependency-cruiser.cjs');

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-module-cycle',
      comment:
        'Server modules form a directed graph with no cycle. Where a lower module needs something of a higher ' +
        'one, the lower module declares a small port (an interface, as chats declares ChatActivity and ' +
        'GroupAnnouncer), the higher one implements it, and the app wiring (services.ts) hands it over.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^apps/server/src/modules/([^/]+)' },
      to: { path: '^apps/server/src/modules/', pathNot: '^apps/server/src/modules/$1(/|$)', circular: true },
    },
  ],
  options: {
    ...options,
    includeOnly: { path: '^apps/server/src/modules/' },
    exclude: { path: `${options.exclude.path}|\\.test\\.ts$` },
  },
};

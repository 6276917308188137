/**
 * The layers of trackgraph as rules that fail `npm run lint` (docs/ARCHITECTURE.md explains them).
 *
 *   entry points (main, worker, cli) ──> container.ts (the one wiring site, its steps in compose/)
 *   edges (http) ──> services (search, analysis, auth, usage, artwork, webhooks) ──> core
 *   sources, engine, db, net, ops: infrastructure the container hands to services
 *
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle makes two modules one: neither can be understood, tested or replaced alone.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-orphans',
      severity: 'error',
      comment: 'A module nothing imports is dead code (entry points, declarations and configs excepted).',
      from: {
        orphan: true,
        pathNot: ['\\.d\\.ts$', '(^|/)\\.[^/]+\\.(js|cjs|mjs|ts)$', '\\.config\\.(js|cjs|mjs|ts)$', '^src/(main|worker)\\.ts$', '^src/cli/', '^src/engine/engine\\.thread\\.ts$', '^src/http/graphql/emit-schema\\.ts$'],
      },
      to: {},
    },
    {
      name: 'not-to-dev-dep',
      severity: 'error',
      comment: 'The service runs with production dependencies only (npm ci --omit=dev).',
      from: { path: '^src/' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'], pathNot: ['node_modules/@types/'] },
    },
    {
      name: 'src-not-to-test-bench-or-measure',
      severity: 'error',
      comment: 'Product code never depends on tests, benchmarks or the measuring code (measure/): the weights it ships are data it reads.',
      from: { path: '^src/' },
      to: { path: '^(test|bench|measure)/' },
    },
    {
      name: 'test-not-to-bench',
      severity: 'error',
      comment: 'Tests import only src/, measure/ and test/: a benchmark is not part of npm test.',
      from: { path: '^test/' },
      to: { path: '^bench/' },
    },
    {
      name: 'bench-not-to-test',
      severity: 'error',
      comment: 'Benchmarks import only src/, measure/ and bench/: what they share with the tests (generators, corpora readers, fits, fakes) lives in measure/.',
      from: { path: '^bench/' },
      to: { path: '^test/' },
    },
    {
      name: 'measure-not-to-test-or-bench',
      severity: 'error',
      comment: 'The measuring and fitting code (measure/) imports only src/ and measure/: both bench/ and test/ build on it, it on neither.',
      from: { path: '^measure/' },
      to: { path: '^(test|bench)/' },
    },
    {
      name: 'core-is-vocabulary',
      severity: 'error',
      comment: 'core is protocol- and storage-free vocabulary: it imports nothing else of src.',
      from: { path: '^src/core/' },
      to: { path: '^src/', pathNot: '^src/core/' },
    },
    {
      name: 'engine-is-pure',
      severity: 'error',
      comment: 'The engine turns audio into numbers: nothing of storage, protocol, sources or services.',
      from: { path: '^src/engine/' },
      to: { path: '^src/', pathNot: '^src/(engine|core)/' },
    },
    {
      name: 'engine-no-protocol-packages',
      severity: 'error',
      comment: 'The engine knows no HTTP, GraphQL or database.',
      from: { path: '^src/engine/' },
      to: { path: 'node_modules/(express|graphql|@apollo|type-graphql|kysely|pg|better-sqlite3|ioredis|bullmq|keyv)/' },
    },
    {
      name: 'sources-not-to-services-or-edges',
      severity: 'error',
      comment: 'Sources fetch and map catalogue data; ranking belongs to search, storage to analysis.',
      from: { path: '^src/sources/' },
      to: { path: '^src/(search|analysis|http|auth|usage|artwork|webhooks|ops|db|cli)/|^src/container\\.ts$' },
    },
    {
      name: 'services-not-to-edges',
      severity: 'error',
      comment: 'Services hold the rules, edges only parse and shape: a service never imports an edge or a protocol library.',
      from: { path: '^src/(search|analysis|auth|usage|artwork|webhooks|sources|net|db|ops)/' },
      to: { path: '^src/(http|cli)/|^src/(container|main|worker)\\.ts$|node_modules/(express|@apollo/server|type-graphql|graphql|@as-integrations)/' },
    },
    {
      name: 'edges-through-services',
      severity: 'error',
      comment: 'The edges reach storage, the engine and the sources only through services: a route or resolver never queries a database, runs the engine or calls a catalogue itself.',
      from: { path: '^src/http/' },
      to: { path: '^src/(db|engine|sources)/' },
    },
    {
      name: 'ops-through-interfaces',
      severity: 'error',
      comment: 'ops measures what it is handed through interfaces; it imports no service or infrastructure module.',
      from: { path: '^src/ops/' },
      to: { path: '^src/', pathNot: '^src/(ops|core)/' },
    },
    {
      name: 'one-wiring-site',
      severity: 'error',
      comment: 'Only entry points import the container: every concrete choice is made in container.ts.',
      from: { path: '^src/', pathNot: '^src/(main|worker)\\.ts$|^src/cli/' },
      to: { path: '^src/container\\.ts$' },
    },
    {
      name: 'compose-is-the-container',
      severity: 'error',
      comment: "src/compose/ holds the container's steps, one per feature: only container.ts (and the steps themselves) import them.",
      from: { path: '^src/', pathNot: '^src/container\\.ts$|^src/compose/' },
      to: { path: '^src/compose/' },
    },
  ],
  required: [
    {
      name: 'entry-preamble',
      severity: 'error',
      comment: 'Every entry point imports src/entry.ts first (the decorator-metadata polyfill type-graphql needs before any GraphQL type loads).',
      module: { path: '^src/(main|worker)\\.ts$|^src/cli/[^/]+\\.ts$|^src/http/graphql/emit-schema\\.ts$' },
      to: { path: '^src/entry\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
    moduleSystems: ['cjs', 'es6'],
  },
};

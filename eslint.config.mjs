import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

// Issue 8: all data access lives in libs/common/src/db. Everything else calls a store.
const DATA_ACCESS =
  'Data access lives in libs/common/src/db only: add an intention-named method to the store of the ' +
  'aggregate (libs/common/src/db/repositories/<aggregate>.ts, registered in createStores) and ' +
  'call ctx.stores.<store>.<method>() (the store listed in the service context). Tests needing raw documents read ' +
  "the store's collection through the engine port (db.engine.collection(SPEC), allStored in test/harness/stored.ts).";
const noDataAccess = {
  'no-restricted-syntax': [
    'error',
    {
      selector: "MemberExpression[property.name='collection']",
      message: `No collection here (it bypasses the stores). ${DATA_ACCESS}`,
    },
    {
      selector: "MemberExpression[object.property.name='db'][property.name='conn']",
      message: `No raw database connection here. ${DATA_ACCESS}`,
    },
  ],
  '@typescript-eslint/no-restricted-imports': [
    'error',
    {
      paths: [
        { name: 'mongoose', message: `No mongoose here. ${DATA_ACCESS}` },
        { name: 'mongodb', message: `No MongoDB driver here. ${DATA_ACCESS}` },
      ],
    },
  ],
};

// Issue 21: every stream the server builds is joined by libs/common/src/streams (pipeline plus a
// lifelong error listener on each stage). A stream that emits 'error' with no listener stops the
// whole process, and `.pipe()` attaches none to its destination: one client hanging up midway
// through an upload once stopped the server. Tests are clients and build hostile streams freely.
const STREAMS =
  'Join streams through @agora/common/streams (flow, through, mapChunks, passThrough, fromIterable, ' +
  'feed, streamResponse): a stage without an error listener stops the process on its first error ' +
  '(docs/security.md, "Streams and process faults").';
const STREAM_CLASSES = '/^(Transform|PassThrough|Duplex|Readable|Writable)$/';
const noBareStreams = [
  {
    selector: "CallExpression[callee.property.name='pipe']",
    message: `No bare .pipe(): it leaves the destination without an error listener. ${STREAMS}`,
  },
  {
    selector: `NewExpression[callee.name=${STREAM_CLASSES}]`,
    message: `No hand-made stream here. ${STREAMS}`,
  },
  {
    selector: `NewExpression[callee.property.name=${STREAM_CLASSES}]`,
    message: `No hand-made stream here. ${STREAMS}`,
  },
  {
    selector: `:matches(ClassDeclaration, ClassExpression)[superClass.name=${STREAM_CLASSES}]`,
    message: `No stream subclass here. ${STREAMS}`,
  },
  {
    selector: "CallExpression[callee.object.name='Readable'][callee.property.name=/^(from|fromWeb)$/]",
    message: `No unguarded Readable.from here. ${STREAMS}`,
  },
  {
    selector: "ImportDeclaration[source.value=/^(node:)?stream$/] ImportSpecifier[imported.name='pipeline']",
    message: `No callback pipeline (its last stage is nobody's to watch). ${STREAMS}`,
  },
];
// Where the stream rules apply: every process's code and the scripts, not the helper itself.
const SERVER_CODE = [
  'libs/**/*.ts',
  'services/**/*.ts',
  'standalone/**/*.ts',
  'scripts/**/*.ts',
  'bench/**/*.ts',
];
const STREAMS_HELPER = 'libs/common/src/streams/**';

// Issue 8: libs/common is imported through its subpaths (libs/common/package.json `exports`):
// no barrel that loads everything, no reaching into its sources.
const BOUNDARIES =
  'Import @agora/common/<subpath> (libs/common/package.json `exports`; docs/architecture.md, package boundaries).';
const commonBoundaries = {
  paths: [{ name: '@agora/common', message: `No barrel. ${BOUNDARIES}` }],
  patterns: [
    {
      regex: '^@agora/[^/]+/src(/|$)|(^|/)libs/common/src(/|$)',
      message: `No deep imports into a package's sources. ${BOUNDARIES}`,
    },
  ],
};
// What loads mongoose, amqplib or the S3 client: the gateway never touches the database, the
// broker or the object store, so its process must not even load them
// (test/integration/gateway/boundaries.test.ts).
const NOT_AT_THE_EDGE = [
  ...['db', 'messaging', 'storage', 'runtime', 'service'].map((sub) => `@agora/common/${sub}`),
  ...['mongoose', 'mongodb', 'amqplib', '@aws-sdk/client-s3'],
];
const gatewayBoundaries = {
  paths: [
    ...commonBoundaries.paths,
    ...NOT_AT_THE_EDGE.map((name) => ({
      name,
      message: 'The gateway never loads the database, broker or object-store clients (docs/architecture.md).',
    })),
  ],
  patterns: commonBoundaries.patterns,
};

// Issue 8: services publish and consume through the typed bus (`ctx.events`, typed from
// libs/common/src/messaging/catalogue.ts); the raw string API stays inside the messaging adapters.
const noRawBus = {
  selector:
    "MemberExpression[object.property.name='bus'][property.name=/^(publish|enqueue|subscribe|work)$/]",
  message:
    'Services use the typed bus: ctx.events.publish/enqueue/subscribe/work with a name from ' +
    'libs/common/src/messaging/catalogue.ts (add the event or job there first).',
};

// Issue 8: every route, view, handler and consumer of a service receives that service's own
// context (services/<name>/src/context.ts: the stores it uses, config, logger, ...), never the
// whole Runtime. Only the wiring (app.ts, main.ts, context.ts) builds one from the other.
const NARROW_CONTEXT =
  "Service modules take their service's context (services/<name>/src/context.ts), not Runtime: " +
  'add what is missing to the context type and its builder (docs/architecture.md, contexts).';
const serviceBoundaries = {
  paths: [
    ...commonBoundaries.paths,
    { name: '@agora/common/runtime', importNames: ['Runtime'], message: NARROW_CONTEXT },
  ],
  patterns: commonBoundaries.patterns,
};

// Issue 22: calls go routes → handlers and views → domain modules → stores (docs/architecture.md,
// layers). What sits below the routes and views never imports them.
const LAYERS =
  'A lower layer does not import routes or views: move what it needs into a domain module ' +
  '(services/social/src/access, invites, users; docs/architecture.md, layers).';
const lowerLayerBoundaries = {
  paths: serviceBoundaries.paths,
  patterns: [...serviceBoundaries.patterns, { regex: '(^|/)(views|routes)(/|$)', message: LAYERS }],
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '.tools/**',
      'data/**',
      'web/dist/**',
      'dist/**', // the compiled build (scripts/build.ts)
      'jest.config.js',
      'eslint.config.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through libs/common/config.' },
      ],
    },
  },
  {
    // The web app (web/tsconfig.json: DOM, JSX): the rules of hooks on top of the shared rules.
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: [
      'libs/common/src/config/**',
      'test/**',
      'scripts/**',
      'bench/**',
      'web/build/**',
      'web/vite.config.ts',
    ],
    rules: { 'no-restricted-properties': 'off' },
  },
  { files: ['**/*.ts'], rules: noDataAccess },
  {
    files: SERVER_CODE,
    ignores: [STREAMS_HELPER, '**/*.test.ts'],
    rules: { 'no-restricted-syntax': [...noDataAccess['no-restricted-syntax'], ...noBareStreams] },
  },
  { files: ['**/*.{ts,tsx}'], rules: { 'no-restricted-imports': ['error', commonBoundaries] } },
  { files: ['services/gateway/**'], rules: { 'no-restricted-imports': ['error', gatewayBoundaries] } },
  {
    files: ['services/**/*.ts', 'standalone/**/*.ts'],
    rules: { 'no-restricted-syntax': [...noDataAccess['no-restricted-syntax'], noRawBus, ...noBareStreams] },
  },
  {
    files: ['services/{social,admin,federation,notifications,backup}/src/**/*.ts'],
    ignores: ['services/*/src/{app,main,context}.ts', 'services/*/src/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', serviceBoundaries] },
  },
  {
    files: ['services/social/src/{activities,access,invites,users,consumers,workers,files,search}/**/*.ts'],
    ignores: ['services/*/src/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', lowerLayerBoundaries] },
  },
  {
    // The data layer itself; tests and the bench seeder that set up or check raw documents.
    files: [
      'libs/common/src/db/**',
      'bench/seed.ts',
      // Counts the database commands a request sends (the driver's command monitoring).
      'bench/outbox-profile.ts',
      'bench/sqlite-writes.ts',
      // Fills the search index with 100,000 entries in batches, below the store (ADR 0033).
      'bench/search-fts.ts',
      // Backups: seeding and comparing every raw document by hash is what they check.
      'bench/backup.ts',
      'test/harness/backup.ts',
      'test/e2e/backup.test.ts',
      'test/integration/backup/**',
      'test/integration/db/**',
      // The engine port's own conformance suite (below the stores).
      'test/integration/engine/**',
      // Each store's tests on both engines, which cut a store's writes short (a crash between
      // two of them) by writing its rows through the port.
      'test/integration/stores/**',
      // Gives those tests their own database with the port beside the stores, and records
      // the commands it sends.
      'test/harness/database.ts',
      'test/harness/stored.ts',
      // visibleFilter run on the real database against the audience table (below the stores).
      'test/integration/audience/**',
      'test/e2e/interactions-relations.test.ts',
      'test/e2e/interactions.test.ts',
      'test/e2e/invites.test.ts',
      'test/e2e/library.test.ts',
      'test/harness/notifications.ts',
      'test/e2e/timeline-cache.test.ts',
      'test/e2e/users.test.ts',
    ],
    rules: { 'no-restricted-syntax': 'off', '@typescript-eslint/no-restricted-imports': 'off' },
  },
  {
    // The data layer's own code (and the bench scripts above) still joins streams through the helper.
    files: [
      'libs/common/src/db/**',
      ...['seed', 'engine', 'outbox-profile', 'sqlite-writes', 'search-fts', 'backup'].map(
        (b) => `bench/${b}.ts`,
      ),
    ],
    rules: { 'no-restricted-syntax': ['error', ...noBareStreams] },
  },
);

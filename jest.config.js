// Eight tiers (style.md §9): unit tests beside the code, integration tests against the real
// local services, e2e tests that boot the standalone wiring and talk HTTP, the processes tier
// (every service as its own process), the security tier (a regression test per class of
// docs/security.md), the fault tier (the compiled standalone as a child process, under aborted
// requests and injected faults), two compiled servers federating (the federation tier), and stories in a real browser (docs/web.md).
const transform = {
  '^.+\\.(t|j)sx?$|^.+\\.mjs$': [
    '@swc/jest',
    { jsc: { parser: { syntax: 'typescript' }, target: 'es2023' }, module: { type: 'commonjs' } },
  ],
};
// jose (and a few others) ship ESM only; transpile them to CommonJS for Jest.
// Several dependencies ship ESM only (jose, marked, htmlparser2, http-proxy-middleware, ...): transpile
// node_modules too, except large CommonJS trees that gain nothing from it.
const transformIgnorePatterns = [
  '/node_modules/(mongoose|mongodb|bson|@aws-sdk|@smithy|@opentelemetry|@grpc|protobufjs|amqplib|@redis|redis|rate-limiter-flexible|express|body-parser|zod|typescript|@swc|jest[^/]*|@jest|pino[^/]*|testcontainers|undici|esbuild|playwright-core|axe-core)/',
];
const common = { transform, transformIgnorePatterns, testEnvironment: 'node' };

module.exports = {
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: [
        '<rootDir>/libs/*/src/**/*.test.ts',
        '<rootDir>/services/*/src/**/*.test.ts',
        '<rootDir>/web/build/**/*.test.ts',
      ],
    },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
      // The containers provider runs MongoDB 7, not FerretDB on PostgreSQL.
      ...(process.env.TEST_PROVIDER === 'containers'
        ? { testPathIgnorePatterns: ['/node_modules/', 'engine-indexes-postgres'] }
        : {}),
      globalSetup: '<rootDir>/test/harness/global-setup.ts',
      setupFilesAfterEnv: ['<rootDir>/test/harness/timeouts.ts'],
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/e2e/**/*.test.ts'],
      globalSetup: '<rootDir>/test/harness/global-setup.ts',
      setupFilesAfterEnv: ['<rootDir>/test/harness/timeouts.ts'],
    },
    {
      // Each service in its own process from its compiled entry point, with the environment of
      // deploy/k8s, against the real FerretDB, Redis and RabbitMQ (test/harness/cluster.ts).
      ...common,
      displayName: 'processes',
      testMatch: ['<rootDir>/test/processes/**/*.test.ts'],
      globalSetup: '<rootDir>/test/harness/global-setup.ts',
      setupFilesAfterEnv: ['<rootDir>/test/harness/timeouts.ts'],
    },
    {
      // The cluster of `npm run cluster` (replicas, the backup worker, a balancer in front of the
      // gateways): the main story, then a SIGKILL, a rolling SIGTERM restart and a backup stopped
      // mid-job under a bounded write load (test/cluster/, docs/testing.md).
      ...common,
      displayName: 'cluster',
      testMatch: ['<rootDir>/test/cluster/**/*.test.ts'],
      globalSetup: '<rootDir>/test/harness/global-setup.ts',
      setupFilesAfterEnv: ['<rootDir>/test/harness/timeouts.ts'],
    },
    {
      // One regression test per class of docs/security.md, through the real standalone wiring.
      ...common,
      displayName: 'security',
      testMatch: ['<rootDir>/test/security/**/*.test.ts'],
      globalSetup: '<rootDir>/test/harness/global-setup.ts',
      setupFilesAfterEnv: ['<rootDir>/test/harness/timeouts.ts'],
    },
    {
      // The compiled standalone as a child process, hit by clients that vanish midway and by
      // faults injected with --import: a crash is the process exiting (docs/testing.md, faults).
      ...common,
      displayName: 'fault',
      testMatch: ['<rootDir>/test/fault/**/*.test.ts'],
      globalSetup: '<rootDir>/test/harness/global-setup.ts',
      setupFilesAfterEnv: ['<rootDir>/test/harness/timeouts.ts'],
    },
    {
      // Two compiled standalone servers as child processes federating for real (their own
      // SQLite files, domains and keys): every activity and audience both ways, and an outage
      // of one of them (test/harness/two-compiled.ts, docs/testing.md).
      ...common,
      displayName: 'federation',
      testMatch: ['<rootDir>/test/federation/**/*.test.ts'],
      globalSetup: '<rootDir>/test/harness/global-setup.ts',
      setupFilesAfterEnv: ['<rootDir>/test/harness/timeouts.ts'],
    },
    {
      ...common,
      // Stories in a real browser (Debian's Chromium through playwright-core) against the
      // standalone server and the built web app (docs/web.md).
      displayName: 'browser',
      testMatch: ['<rootDir>/test/browser/**/*.test.ts'],
      globalSetup: '<rootDir>/test/browser/global-setup.ts',
      setupFilesAfterEnv: ['<rootDir>/test/harness/timeouts.ts'],
    },
  ],
};

/*
 * Four projects, one `npm test` (all of them). Run one with `npx jest --selectProjects <name>`
 * (npm run test:unit, test:audio, test:integration, test:browser):
 * - unit: fast, in-process, no servers (seconds);
 * - audio: the engine on signals generated in code (decoding, rhythm, key, descriptors);
 * - integration: whole apps, contracts of every store, cache and source, Redis and Postgres
 *   (127.0.0.1; each run in a schema and key prefix of its own), server processes;
 * - browser: the dashboard and the explorer in Debian's Chromium (skipped, saying so, without it).
 * Every file runs with the network off (test/setup/network-guard.ts) and with the environment of
 * an offline server (test/setup/environment.ts: sources at unreachable addresses).
 */

const os = require('node:os');

/** @type {import('jest').Config} */
const common = {
  testEnvironment: 'node',
  // swc strips the types, file by file (tsc --noEmit checks them, in CI and in lint), as ts-jest
  // did in its transpile-only mode but for far less CPU on a cold cache: a cold `npm test` 237 s
  // → 213 s (418 s → 373 s of CPU). Decorators as tsconfig.json has them (legacy, with metadata:
  // type-graphql reads it), class fields with define semantics as ES2022 gives them.
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: true },
          target: 'es2022',
          keepClassNames: true,
        },
        module: { type: 'commonjs' },
        sourceMaps: 'inline',
      },
    ],
  },
  runtime: '<rootDir>/test/setup/runtime.js',
  setupFiles: ['<rootDir>/test/setup/environment.ts'],
  setupFilesAfterEnv: ['<rootDir>/test/setup/network-guard.ts'],
};

/** @type {import('jest').Config} */
module.exports = {
  testTimeout: 30000,
  // The suite waits on servers, sockets, browsers and child processes as much as it computes, so
  // it runs more files at once than there are cores: four on two (a cold run of the whole suite:
  // 267 s with four, 467 s of CPU; three left a core idle in its waits). Files isolate their state
  // (ports 0, a Postgres schema and Redis prefix each). A count, not a percentage: from this file
  // Jest took '150%' as 150 workers.
  maxWorkers: Math.max(2, os.availableParallelism() * 2),
  // The longest files first, on a fresh clone too (test/setup/sequencer.js).
  testSequencer: '<rootDir>/test/setup/sequencer.js',
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'], testPathIgnorePatterns: ['/test/unit/engine/'] },
    { ...common, displayName: 'audio', testMatch: ['<rootDir>/test/unit/engine/**/*.test.ts'] },
    { ...common, displayName: 'integration', testMatch: ['<rootDir>/test/integration/**/*.test.ts', '<rootDir>/test/contract/**/*.test.ts'] },
    { ...common, displayName: 'browser', testMatch: ['<rootDir>/test/browser/**/*.test.ts'] },
  ],
};

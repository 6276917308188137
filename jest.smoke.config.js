/*
 * The smoke suite (`npm run test:smoke`, run by .ci/run after `npm test`): every command README
 * and docs/ name, run as a user runs it, in processes of their own (test/smoke). Not part of
 * `npm test`: it builds the project and starts servers, and takes minutes.
 */
const base = require('./jest.config.js');

/** @type {import('jest').Config} */
module.exports = {
  testTimeout: 300000,
  // The commands use both cores themselves: one file at a time.
  maxWorkers: 1,
  projects: [
    {
      ...base.projects[0],
      displayName: 'smoke',
      testMatch: ['<rootDir>/test/smoke/**/*.smoke.test.ts'],
      testPathIgnorePatterns: [],
    },
  ],
};

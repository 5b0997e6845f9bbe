import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './testing/src/sequencer.ts';
import { suiteWorkers } from './testing/src/worker.ts';

/** Fast tests that need no database, Redis or browser: `npm run test:unit`. */
const UNIT_TESTS = ['*/src/**/*.unit.test.ts', '*/test/**/*.unit.test.ts'];

// Files run in parallel, one per worker, on one PostgreSQL cluster (each file on databases of its
// own; the event store reads below its own database's open transactions, so files do not stall
// each other's projector) and each worker with a Chromium of its own (testing/src/suite-setup.ts).
// With TEST_POSTGRES_URL set (a server of your choosing), files run one at a time on it instead.
const shared = Boolean(process.env.TEST_POSTGRES_URL);

export default defineConfig({
  test: {
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    maxWorkers: shared ? 1 : suiteWorkers(),
    fileParallelism: !shared,
    expect: { poll: { timeout: 10_000 } },
    // Password hashes at scrypt N=2^10 instead of production's 2^15 (about 2 ms instead of 140 ms
    // of CPU each; the suite hashes or checks a password at every sign-in): honoured only in
    // processes vitest started (domain/src/auth/passwords.ts, passwordCost).
    env: { PASSWORD_COST_FOR_TESTS: '1024' },
    // Longest files first across the projects, so both workers finish together (testing/src/sequencer.ts).
    sequence: { sequencer: LongestFirstSequencer },
    // Each test that passed only on a retry is named and counted at the end of the run.
    reporters: ['default', './testing/src/retry-reporter.ts'],
    // `npm test` runs them all; `npm run test:unit` the unit and component projects.
    projects: [
      // Pure tests: one module graph per worker instead of one per file (isolated, importing it
      // was four fifths of their time).
      { extends: true, test: { name: 'unit', include: UNIT_TESTS, isolate: false } },
      // The product's files share one module graph per worker (isolate: false): a process started
      // and the API and projector imported anew for each file were about 3 s of a worker's time per
      // file, a third of the run. The sequencer starts each project's files together, since a
      // worker keeps its process only from one file to the next of the same project. Each file
      // still starts a platform of its own on databases of its own and stops it in afterAll, so
      // state kept at module level must belong to a platform, never to the process.
      {
        extends: true,
        test: {
          name: 'integration',
          isolate: false,
          include: ['*/src/**/*.test.ts', '*/test/**/*.test.ts'],
          exclude: [...UNIT_TESTS, '**/node_modules/**', '**/dist/**', '*/test/**/*.e2e.test.ts'],
          globalSetup: ['./testing/src/suite-setup.ts'],
        },
      },
      // Component tests: a screen's piece rendered in jsdom with the API answered by msw. They live
      // in each app's test/components/, beside the browser tests of the same screens and outside
      // src/, so neither the apps' builds nor the feature-import rule (ops/checks/imports.ts) sees them.
      // One module graph per worker: importing antd and the screens anew for each file was two
      // thirds of their time; each test renders its own providers and query client, and the setup
      // puts the address, the API's answers and the page back after each test.
      {
        extends: true,
        test: {
          name: 'component',
          include: ['console/test/components/**/*.component.test.tsx', 'portal/test/components/**/*.component.test.tsx'],
          environment: 'jsdom',
          isolate: false,
          setupFiles: ['./testing/src/component-setup.ts'],
        },
      },
      // Browser tests: a test whose click was lost on a loaded machine runs again, at most twice;
      // one that fails three times fails the run, and one that passed only on a retry is named at
      // the end of the run (testing/src/retry-reporter.ts).
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['*/test/**/*.e2e.test.ts'],
          globalSetup: ['./testing/src/suite-setup.ts'],
          // As the integration files: one process per worker for the project's files.
          isolate: false,
          retry: 2,
        },
      },
    ],
  },
});

import { defineConfig } from 'vitest/config';

/** Fast tests that need no database, Redis or browser: `npm run test:unit`. */
const UNIT_TESTS = ['*/src/**/*.unit.test.ts', '*/test/**/*.unit.test.ts'];

export default defineConfig({
  test: {
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // One file at a time: the Postgres event store reads only below the oldest transaction open
    // on the whole server, so one file's long projector batch would stall another file's
    // read-your-writes wait on the shared PostgreSQL. (`npm run test:unit` lifts it: no database.)
    fileParallelism: false,
    // `npm test` runs both; `npm run test:unit` the first only.
    projects: [
      { extends: true, test: { name: 'unit', include: UNIT_TESTS } },
      {
        extends: true,
        test: { name: 'integration', include: ['*/src/**/*.test.ts', '*/test/**/*.test.ts'], exclude: [...UNIT_TESTS, '**/node_modules/**', '**/dist/**'] },
      },
    ],
  },
});

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['*/src/**/*.test.ts', '*/test/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // One file at a time: the Postgres event store reads only below the oldest transaction open
    // on the whole server, so one file's long projector batch would stall another file's
    // read-your-writes wait on the shared PostgreSQL.
    fileParallelism: false,
  },
});

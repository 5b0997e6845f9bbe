// The integration suite's global setup (vitest.config.ts): one throwaway embedded PostgreSQL
// cluster and one Chromium per vitest worker, started once for the run and given to the
// workers through `provide`. A worker picks its own by VITEST_POOL_ID (database.ts, browser.ts).
// With TEST_POSTGRES_URL set, files run one at a time on that server and nothing is started here.

import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '@storage/embedded/postgres';
import pg from 'pg';
import { type BrowserServer, chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';
import { suiteWorkers } from './worker.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** One admin URL (database `postgres`) per worker; empty when TEST_POSTGRES_URL is set. */
    postgresUrls: string[];
    /** One Chromium per worker, to connect to; empty when TEST_POSTGRES_URL is set. */
    chromiumEndpoints: string[];
    /** Names this run's demo template databases. */
    runId: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const runId = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  project.provide('runId', runId);
  if (process.env.TEST_POSTGRES_URL) {
    project.provide('postgresUrls', []);
    project.provide('chromiumEndpoints', []);
    const serverUrl = process.env.TEST_POSTGRES_URL;
    return () => dropTemplate(serverUrl, runId);
  }
  const workers = suiteWorkers();
  const root = await mkdtemp(join(tmpdir(), 'storage-suite-'));
  // As root, PostgreSQL runs as a user of its own, which must reach its folder in here.
  await chmod(root, 0o755);
  const password = randomBytes(12).toString('hex');
  const started: EmbeddedDatabase[] = [];
  const browsers: BrowserServer[] = [];
  const stop = async () => {
    await Promise.allSettled([...started.map((c) => c.stop()), ...browsers.map((b) => b.close())]);
    await rm(root, { recursive: true, force: true });
  };
  try {
    await Promise.all(
      Array.from({ length: workers }, async (_, i) => {
        // Each cluster tries ports of its own, so clusters started at once never pick the same one.
        started[i] = await startEmbeddedPostgres(join(root, `worker-${i + 1}`), password, { throwaway: true, firstPort: 55_500 + i * 100 });
      }),
    );
    await Promise.all(
      Array.from({ length: workers }, async (_, i) => {
        browsers[i] = await chromium.launchServer({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
      }),
    );
  } catch (error) {
    await stop();
    throw error;
  }
  project.provide(
    'postgresUrls',
    started.map((c) => {
      const url = new URL(c.url);
      url.pathname = '/postgres';
      return url.toString();
    }),
  );
  project.provide(
    'chromiumEndpoints',
    browsers.map((b) => b.wsEndpoint()),
  );
  return stop;
}

/** On a shared server (TEST_POSTGRES_URL) this run's template is dropped at the end. */
async function dropTemplate(serverUrl: string, runId: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "demo_template_${runId}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

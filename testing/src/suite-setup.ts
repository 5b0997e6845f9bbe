// The integration suite's global setup (vitest.config.ts): one throwaway embedded PostgreSQL
// cluster for the run, shared by every worker (each file works on a database of its own, and the
// event store reads below its own database's open transactions, so files on one cluster do not
// hold back each other's projector), and one Chromium per vitest worker (a worker picks its own by
// VITEST_POOL_ID, browser.ts), started once and given to the workers through `provide`.
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
import { templateNames } from './templates.ts';
import { suiteWorkers } from './worker.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's cluster's admin URL (database `postgres`); null when TEST_POSTGRES_URL is set. */
    postgresUrl: string | null;
    /** One Chromium per worker, to connect to; empty when TEST_POSTGRES_URL is set. */
    chromiumEndpoints: string[];
    /** Names this run's demo template databases. */
    runId: string;
  }
}

type SuiteResources = { runId: string; postgresUrl: string | null; chromiumEndpoints: string[]; stop(): Promise<void> };

/**
 * The run's resources, shared by the projects that name this setup (integration and browser):
 * vitest runs each project's global setup in this one process, so without sharing each project
 * started a cluster and Chromiums of its own, and each cluster seeded the demo template once more.
 * Both projects' files run in one pool of workers (VITEST_POOL_ID 1..workers), so a worker still
 * has a Chromium of its own whichever project its file belongs to. Stopped after the last project.
 */
type Shared = { users: number; started: Promise<SuiteResources> };
const SHARED = Symbol.for('storage.suite-setup');
const registry = globalThis as { [SHARED]?: Shared };

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  registry[SHARED] ??= { users: 0, started: startSuite() };
  const shared = registry[SHARED];
  shared.users += 1;
  const resources = await shared.started;
  project.provide('runId', resources.runId);
  project.provide('postgresUrl', resources.postgresUrl);
  project.provide('chromiumEndpoints', resources.chromiumEndpoints);
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    delete registry[SHARED];
    await resources.stop();
  };
}

async function startSuite(): Promise<SuiteResources> {
  const runId = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  if (process.env.TEST_POSTGRES_URL) {
    const serverUrl = process.env.TEST_POSTGRES_URL;
    return { runId, postgresUrl: null, chromiumEndpoints: [], stop: () => dropTemplates(serverUrl, runId) };
  }
  const workers = suiteWorkers();
  const root = await mkdtemp(join(tmpdir(), 'storage-suite-'));
  // As root, PostgreSQL runs as a user of its own, which must reach its folder in here.
  await chmod(root, 0o755);
  const password = randomBytes(12).toString('hex');
  let cluster: EmbeddedDatabase | undefined;
  const browsers: BrowserServer[] = [];
  const stop = async () => {
    await Promise.allSettled([cluster?.stop(), ...browsers.map((b) => b.close())]);
    await rm(root, { recursive: true, force: true });
  };
  try {
    await Promise.all([
      startEmbeddedPostgres(join(root, 'cluster'), password, { throwaway: true, firstPort: 55_500 }).then((started) => {
        cluster = started;
      }),
      ...Array.from({ length: workers }, async (_, i) => {
        browsers[i] = await chromium.launchServer({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
      }),
    ]);
  } catch (error) {
    await stop();
    throw error;
  }
  const url = new URL(cluster!.url);
  url.pathname = '/postgres';
  return {
    runId,
    postgresUrl: url.toString(),
    chromiumEndpoints: browsers.map((b) => b.wsEndpoint()),
    stop,
  };
}

/** On a shared server (TEST_POSTGRES_URL) this run's templates (platform.ts) are dropped at the end. */
async function dropTemplates(serverUrl: string, runId: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    for (const name of templateNames(runId)) await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

// Every benchmark (each `bench:*` script of the root package.json) run once at the smallest size
// its options allow, as `npm run bench:…` runs it (its own Node process), so that a benchmark the
// code has left behind fails the suite instead of the next person who needs its figures. Each run
// must exit 0, print its figures and write its results file: into a folder of this file's own
// (BENCH_RESULTS_DIR), never over ops/bench/results, which keeps real runs. Targets are not
// asserted (BENCH_TARGETS=report: a miss is printed, not an exit 1): a tiny run beside the rest of
// the suite says nothing about speed.

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dropTestDatabase, TEST_POSTGRES_URL } from '@storage/testing/database';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
const benchScripts = Object.keys(scripts).filter((name) => name.startsWith('bench:'));

/** The database bench:seed kept: the demo history and its read model, which the later runs start from or read. */
interface Demo {
  name: string;
  url: string;
}

interface Smoke {
  /** The smallest run its options allow. */
  args: (demo: Demo) => string[];
  /** What its output must show: its figures, each as the benchmark labels it. */
  prints: RegExp[];
}

/** Far above what any takes (a few seconds to 15 s): only a run that hangs should meet it, however loaded the machine. */
const RUN_TIMEOUT_MS = 120_000;

// In this order: bench:seed first, kept (--keep), so that the runs that would seed the demo again
// (rebuild, landing) start from a copy of it instead, and those that read a history made
// elsewhere (reads and audit: the large history on a real run) read it.
const SMOKES: Record<string, Smoke> = {
  'bench:seed': { args: () => ['--keep'], prints: [/demo seed: [\d,]+ events with the read model built in [\d.]+ s/] },
  'bench:landing': {
    // Needs the built console and portal (`npm test` builds them first) and Chromium.
    args: (demo) => ['--demo-from', demo.name],
    prints: [/landing page JavaScript as sent: [\d.]+ KB/, /console first signed-in route as sent: [\d.]+ KB/],
  },
  'bench:rebuild': {
    // The demo history only: --large seeds a million events (minutes).
    args: (demo) => ['--demo-from', demo.name],
    prints: [
      /demo \(a copy of \w+\): [\d,]+ events, \d+ % lock heartbeats/,
      /rebuild: [\d,]+ events \(\d+ % lock heartbeats\) in [\d.]+ s = [\d,]+ events\/s/,
      /peer: INSERT/,
    ],
  },
  'bench:append': {
    args: () => ['--repeats', '1', '--seconds', '0.1', '--pool', '1', '--writers', '1'],
    prints: [/1 writers: ours [\d,]+ events\/s/, /ours\/emmett [\d.]+×, ours\/raw [\d.]+×/],
  },
  'bench:billing': {
    args: () => ['--facilities', '1', '--leases', '1'],
    prints: [/first run: 1 invoices issued in [\d.]+ s/, /second run: 0 invoices issued/, /Peer, raw PostgreSQL: 1 invoice rows and 3 event rows/],
  },
  'bench:commands': {
    // Five commands at 5/s: one of each kind the mix sends (create, edit, create, move-in, payment).
    args: () => ['--rates', '5', '--seconds', '1', '--fixtures', '3', '--sequential', '1', '--burst', '5', '--idle', '0.5'],
    prints: [
      /statements per create/,
      /not shown after 2xx \| edits overtaken by a later edit \| read-your-writes wait p99 ms/,
      /\| 5 \| [\d.]+ \| \d+ \| \d+ \| 0 \| \d+ \| \d+ \|/,
    ],
  },
  'bench:access': {
    args: () => ['--samples', '1', '--load', '0'],
    prints: [/desired state overlocked in the read model \(not at the lock.*p99 \d+ ms/, /desired state normal in the read model.*p99 \d+ ms/],
  },
  'bench:reads': {
    args: (demo) => ['--from', demo.name, '--samples', '2'],
    prints: [/\d+ cases, 2 samples each/, /Worst p95 [\d.]+ ms/],
  },
  'bench:audit': {
    args: (demo) => ['--database', demo.url, '--repeats', '1', '--deep-page', '10'],
    prints: [/audit log, no filter, first page: p95 [\d.]+ ms/, /activity feed, all, first page: p95 [\d.]+ ms/],
  },
  'bench:suite': {
    // The figures of a small report of vitest's, not a run of the suite inside the suite.
    args: () => ['--report', join(root, 'ops/test/fixtures/vitest-report.json')],
    prints: [/tests: [\d.]+ s on \d+ workers/, /worker time: [\d.]+ s = [\d.]+ s in files \+ [\d.]+ s between them/, /browser: 1 files, 12 s in them/],
  },
};

/** The benchmark's file, from its script (`node ops/bench/….ts`). */
function scriptFile(script: string): string {
  const match = /^node (ops\/bench\/[\w-]+\.ts)$/.exec(scripts[script] ?? '');
  if (!match) throw new Error(`${script} is not "node ops/bench/<file>.ts": ${scripts[script]}`);
  return join(root, match[1]!);
}

/** Runs a benchmark as its npm script does, on the suite's PostgreSQL, results into `resultsDir`. */
function runBenchmark(script: string, args: string[], resultsDir: string): Promise<{ code: number | null; output: string }> {
  // Not a process of vitest's: without VITEST the test helpers the benchmarks use find no vitest
  // to ask (they take TEST_POSTGRES_URL), and passwords hash at the product's cost.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST')));
  Object.assign(env, { DATABASE_URL: TEST_POSTGRES_URL, TEST_POSTGRES_URL, BENCH_RESULTS_DIR: resultsDir, BENCH_TARGETS: 'report' });
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [scriptFile(script), ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('benchmarks, each at its smallest size', () => {
  let demo: Demo | undefined;
  let resultsDir: string;

  beforeAll(async () => {
    resultsDir = await mkdtemp(join(tmpdir(), 'bench-smoke-'));
  });

  afterAll(async () => {
    if (demo) await dropTestDatabase(demo.name);
    await rm(resultsDir, { recursive: true, force: true });
  });

  it('has a smoke run for every bench:* script', () => {
    expect(Object.keys(SMOKES).sort()).toEqual([...benchScripts].sort());
  });

  for (const [script, smoke] of Object.entries(SMOKES)) {
    const name = script.slice('bench:'.length);
    it(
      `${script} runs, prints its figures and writes them to its results file`,
      async () => {
        if (script !== 'bench:seed' && !demo) throw new Error('bench:seed kept no demo database to start from (it runs first)');
        const { code, output } = await runBenchmark(script, smoke.args(demo!), resultsDir);
        if (script === 'bench:seed') {
          const kept = /Kept the database (\w+)/.exec(output)?.[1];
          if (kept) {
            const url = new URL(TEST_POSTGRES_URL);
            url.pathname = `/${kept}`;
            demo = { name: kept, url: url.toString() };
          }
        }
        expect(code, output).toBe(0);
        for (const figure of smoke.prints) expect(output, output).toMatch(figure);
        const file = join(resultsDir, `${name}.json`);
        expect(output).toContain(`Results written to ${file}`);
        const results = JSON.parse(await readFile(file, 'utf8'));
        expect(results).toMatchObject({ benchmark: name, node: process.version, machine: { cpus: expect.any(Number) }, options: expect.any(Object) });
        expect(Object.keys(results.figures).length).toBeGreaterThan(0);
        expect(Date.parse(results.date)).not.toBeNaN();
      },
      RUN_TIMEOUT_MS,
    );
  }
});

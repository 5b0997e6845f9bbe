// `npm run bench:suite`: the whole `npm test` as a newcomer runs it (lint, types and build, then
// every test file on the suite's workers), timed from start to end, with where the workers' time
// went, read from vitest's JSON report of the same run: in the files, or between them (a process
// started, the product imported, a file's set-up) and idle at the end. Run it on a fresh clone
// (`npm ci` first) and a quiet machine: the target is the suite on the 2-core machine.
// `-- --report <file>`: the figures of a report already written (`vitest run --reporter=json`),
// without running anything; the suite's smoke run of this benchmark does that. `-- --keep-report
// <file>`: keeps the run's report there (each file's seconds, for testing/src/sequencer.ts's table).
// A run also says where the machine's CPU went (Chromium, PostgreSQL, the test processes …) and the
// floor that puts under the run: its busy CPU time spread over every core.

import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, stripVTControlCharacters } from 'node:util';
import { suiteWorkers } from '@storage/testing/worker';
import { load, machine, startRun, targetMissed } from './measure.ts';
import { type CpuByPart, sampleCpuByPart } from './process-cpu.ts';

/** The whole `npm test` on the 2-core machine, fresh clone. */
const TARGET_SECONDS = 480;

const root = fileURLToPath(new URL('../../', import.meta.url));

/** What a vitest JSON report holds, as far as this reads it. */
interface Report {
  startTime: number;
  numTotalTests: number;
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  testResults: { name: string; startTime: number; endTime: number; status: string }[];
}

/** The project a file belongs to, by the names vitest.config.ts gives its files. */
function projectOf(file: string): string {
  if (file.endsWith('.e2e.test.ts')) return 'browser';
  if (file.endsWith('.component.test.tsx')) return 'component';
  if (file.endsWith('.unit.test.ts')) return 'unit';
  return 'integration';
}

const round1 = (seconds: number) => Math.round(seconds * 10) / 10;

/** The figures of one run's report: `workers` ran its files side by side. */
function suiteFigures(report: Report, workers: number) {
  const files = report.testResults.map((f) => ({ file: relative(root, f.name), seconds: (f.endTime - f.startTime) / 1000, failed: f.status === 'failed' }));
  const end = Math.max(report.startTime, ...report.testResults.map((f) => f.endTime));
  const testsSeconds = (end - report.startTime) / 1000;
  const inFiles = files.reduce((sum, f) => sum + f.seconds, 0);
  const byProject: Record<string, { files: number; fileSeconds: number }> = {};
  for (const f of files) {
    const name = projectOf(f.file);
    const project = byProject[name] ?? { files: 0, fileSeconds: 0 };
    byProject[name] = { files: project.files + 1, fileSeconds: round1(project.fileSeconds + f.seconds) };
  }
  return {
    testsSeconds: round1(testsSeconds),
    files: files.length,
    failedFiles: files.filter((f) => f.failed).map((f) => f.file),
    tests: { total: report.numTotalTests, passed: report.numPassedTests, failed: report.numFailedTests, skipped: report.numPendingTests },
    workers,
    workerSeconds: {
      /** The workers' time in all: each from the first file's start to the last file's end. */
      total: round1(workers * testsSeconds),
      /** In a file: its hooks and tests. */
      inFiles: round1(inFiles),
      /** Outside any file: a worker starting its process, importing the product, setting up, or idle at the end. */
      betweenFiles: round1(workers * testsSeconds - inFiles),
    },
    byProject,
    slowestFiles: [...files]
      .sort((a, b) => b.seconds - a.seconds)
      .slice(0, 10)
      .map((f) => ({ file: f.file, seconds: round1(f.seconds) })),
  };
}

/** Runs `npm test` with a JSON report beside its usual output (printed as it comes); its exit code, seconds, the report and the retries it named. */
async function runSuite(reportPath: string): Promise<{ exitCode: number; seconds: number; retried: number | null; cpu: CpuByPart | null }> {
  const started = performance.now();
  const cpu = sampleCpuByPart();
  let output = '';
  const child = spawn(
    'npm',
    ['test', '--', '--reporter=default', '--reporter=./testing/src/retry-reporter.ts', '--reporter=json', `--outputFile.json=${reportPath}`],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  child.stdout.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk);
    output += chunk.toString();
  });
  const exitCode = await new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? 1)));
  // The retry reporter's last line (testing/src/retry-reporter.ts).
  const retried = /Tests that passed only on a retry: (\d+)/.exec(stripVTControlCharacters(output));
  return { exitCode, seconds: (performance.now() - started) / 1000, retried: retried ? Number(retried[1]) : null, cpu: cpu.stop() };
}

const { values } = parseArgs({ options: { report: { type: 'string' }, 'keep-report': { type: 'string' } } });
const workers = suiteWorkers();
const run = startRun('suite', { report: values.report ?? null, workers });
console.log(`machine: ${machine()}; load ${load()}`);

let figures: ReturnType<typeof suiteFigures>;
let whole: Awaited<ReturnType<typeof runSuite>> | null = null;
if (values.report) {
  figures = suiteFigures(JSON.parse(readFileSync(values.report, 'utf8')) as Report, workers);
} else {
  const dir = mkdtempSync(join(tmpdir(), 'bench-suite-'));
  try {
    const reportPath = join(dir, 'report.json');
    whole = await runSuite(reportPath);
    figures = suiteFigures(JSON.parse(readFileSync(reportPath, 'utf8')) as Report, workers);
    if (values['keep-report']) copyFileSync(reportPath, values['keep-report']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const { workerSeconds: w } = figures;
console.log(`test files: ${figures.files} (${figures.failedFiles.length} failed), tests: ${figures.tests.passed} passed, ${figures.tests.failed} failed`);
console.log(`tests: ${figures.testsSeconds} s on ${workers} workers`);
console.log(`worker time: ${w.total} s = ${w.inFiles} s in files + ${w.betweenFiles} s between them`);
for (const [project, p] of Object.entries(figures.byProject)) console.log(`  ${project}: ${p.files} files, ${p.fileSeconds} s in them`);
if (whole) {
  const met = whole.seconds <= TARGET_SECONDS;
  if (whole.cpu) {
    const { cpu } = whole;
    console.log(`CPU: ${cpu.machineBusySeconds} s busy on ${cpu.cores} cores (a floor of ${cpu.floorSeconds} s for this work), of which:`);
    for (const [part, seconds] of Object.entries(cpu.byPart)) console.log(`  ${part}: ${seconds} s`);
    console.log(`  not seen (processes that ended between looks, interrupts): ${cpu.unattributedSeconds} s`);
  }
  console.log(
    `npm test: ${round1(whole.seconds)} s (exit ${whole.exitCode}), ${whole.retried ?? 'unknown'} passed only on a retry; target ${TARGET_SECONDS} s ${met ? 'met' : 'missed'}`,
  );
  run.write({
    npmTestSeconds: round1(whole.seconds),
    exitCode: whole.exitCode,
    // Lint, types and build, and vitest's own start before its first file.
    beforeTestsSeconds: round1(whole.seconds - figures.testsSeconds),
    passedOnlyOnRetry: whole.retried,
    ...figures,
    ...(whole.cpu && { cpuSeconds: whole.cpu }),
    target: { npmTestSeconds: TARGET_SECONDS, met },
  });
  if (!met) targetMissed();
  if (whole.exitCode !== 0) process.exitCode = 1;
} else {
  run.write({ ...figures });
}

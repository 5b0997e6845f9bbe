// What every benchmark under ops/bench shares: the server its throwaway databases go on, a
// one-off admin query there, the machine and its load as printed, percentiles, and the results
// file each run writes.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { arch, availableParallelism, cpus, loadavg, platform, release, totalmem, type } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/** The server of DATABASE_URL, else TEST_POSTGRES_URL, else the local PostgreSQL. */
export const serverUrl = process.env.DATABASE_URL ?? process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** One statement on the server on a connection of its own (CREATE/DROP DATABASE cannot run in a pool's transaction). */
export async function adminQuery(text: string, params: unknown[] = []): Promise<pg.QueryResult> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    return await admin.query(text, params);
  } finally {
    await admin.end();
  }
}

/**
 * A pg pool whose connections may be cut by the run's own DROP DATABASE … WITH (FORCE): pg's
 * Pool.end() resolves before its connections have closed on the server, and the server's
 * termination of one still closing arrives as an error event, which with no listener ends the
 * process (exit 1 after a run that went well). That termination is expected; any other error of
 * an idle connection is printed.
 */
export function droppable<T extends pg.Pool>(pool: T): T {
  pool.on('error', (error) => {
    if ((error as { code?: string }).code !== '57P01') console.error('A pooled connection failed:', error);
  });
  return pool;
}

/** The load average over 1, 5 and 15 minutes, as printed. */
export const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');

/** The machine as printed: cores, CPU model, memory. */
export const machine = () => `${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown CPU'}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB memory`;

/** The p-th percentile of values sorted ascending (nearest rank). */
export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;

/** The middle value (the mean of the two middle ones for an even count). */
export const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** CPU time the whole machine has spent busy and in all, in milliseconds, since it started (Linux's /proc/stat). */
export interface MachineCpu {
  busyMs: number;
  totalMs: number;
}

/** Linux reports /proc/stat in USER_HZ ticks, 100 a second on every architecture it supports. */
export const MS_PER_TICK = 10;

/** The machine's CPU counters now, or null where there is no /proc/stat (not Linux). */
export function machineCpu(): MachineCpu | null {
  let text: string;
  try {
    text = readFileSync('/proc/stat', 'utf8');
  } catch {
    return null;
  }
  // cpu user nice system idle iowait irq softirq steal guest guest_nice (guest time is already in user).
  const ticks = text.split('\n', 1)[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = ticks;
  const busy = user + nice + system + irq + softirq + steal;
  return { busyMs: busy * MS_PER_TICK, totalMs: (busy + idle + iowait) * MS_PER_TICK };
}

/** CPU milliseconds the whole machine spent busy between `before` and now (every process: ours, PostgreSQL, the rest), or null off Linux. */
export function machineBusyMsSince(before: MachineCpu | null): number | null {
  const now = machineCpu();
  return before && now ? now.busyMs - before.busyMs : null;
}

/** The load average as a results file records it. */
const loadFigures = () => {
  const [oneMinute = 0, fiveMinutes = 0, fifteenMinutes = 0] = loadavg().map((l) => Math.round(l * 100) / 100);
  return { oneMinute, fiveMinutes, fifteenMinutes };
};

/**
 * Where results files go: BENCH_RESULTS_DIR, else ops/bench/results (the latest real run of each
 * benchmark, kept in git). The smoke runs in the test suite set BENCH_RESULTS_DIR to a temporary
 * folder, so a tiny run never overwrites a real one.
 */
export const resultsDir = () => process.env.BENCH_RESULTS_DIR ?? fileURLToPath(new URL('./results/', import.meta.url));

/**
 * A missed target makes the run exit 1, so a scripted run notices; BENCH_TARGETS=report prints
 * and records the miss but leaves the exit code alone (the smoke runs: a tiny run on a busy
 * machine says nothing about a target). Failures of correctness exit 1 whatever it says.
 */
export function targetMissed(): void {
  if (process.env.BENCH_TARGETS !== 'report') process.exitCode = 1;
}

/**
 * JSON as the formatter of `npm run lint` prints it (objects one key a line, arrays of plain
 * values on one line when they fit), so a results file kept in git passes the lint unchanged.
 */
function toJson(value: unknown, indent: string, lineStart: number): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (value.every((v) => v === null || typeof v !== 'object')) {
      const oneLine = `[${value.map((v) => JSON.stringify(v) ?? 'null').join(', ')}]`;
      // The line also carries its key before and a comma after.
      if (lineStart + oneLine.length + 1 <= 160) return oneLine;
    }
    const inner = `${indent}  `;
    return `[\n${value.map((v) => inner + toJson(v, inner, inner.length)).join(',\n')}\n${indent}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return '{}';
    const inner = `${indent}  `;
    const lines = entries.map(([k, v]) => {
      const key = `${inner}${JSON.stringify(k)}: `;
      return key + toJson(v, inner, key.length);
    });
    return `{\n${lines.join(',\n')}\n${indent}}`;
  }
  // Six significant digits: a timer's last digits are noise, and a reader compares figures by eye.
  if (typeof value === 'number' && Number.isFinite(value) && !Number.isInteger(value)) return JSON.stringify(Number(value.toPrecision(6)));
  return JSON.stringify(value) ?? 'null';
}

/**
 * A benchmark's run: started when the benchmark starts (the load average then), and written at
 * its end to `<resultsDir>/<name>.json`, the latest run of that benchmark: when it ran, on what
 * machine and under what load, with which options, and its figures (each named for what it
 * measures). The printed output says the same; the file is what a figure is quoted from.
 */
export function startRun(name: string, options: Record<string, unknown>) {
  const startedAt = new Date();
  const loadAtStart = loadFigures();
  /** What the run found around it (the PostgreSQL version, the event store), filled in as it learns them. */
  const environment: Record<string, unknown> = {};
  return {
    environment,
    /** Writes the results file (replacing the previous run's) and says where; returns its path. */
    write(figures: Record<string, unknown>): string {
      const dir = resultsDir();
      mkdirSync(dir, { recursive: true });
      const path = join(dir, `${name}.json`);
      const cpuList = cpus();
      const results = {
        benchmark: name,
        date: new Date().toISOString(),
        startedAt: startedAt.toISOString(),
        seconds: Math.round((Date.now() - startedAt.getTime()) / 100) / 10,
        command: ['npm run', `bench:${name}`, ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' '),
        machine: {
          os: `${type()} ${release()} (${platform()} ${arch()})`,
          cpus: availableParallelism(),
          cpuModel: cpuList[0]?.model.trim() ?? 'unknown',
          memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
        },
        loadAverage: { atStart: loadAtStart, atEnd: loadFigures() },
        node: process.version,
        ...environment,
        options,
        figures,
      };
      // Written beside it and renamed into place: a reader never sees half a file.
      const partial = `${path}.${process.pid}.tmp`;
      writeFileSync(partial, `${toJson(results, '', 0)}\n`);
      renameSync(partial, path);
      console.log(`Results written to ${path}`);
      return path;
    },
  };
}

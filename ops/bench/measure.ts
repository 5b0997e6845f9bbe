// What every benchmark under ops/bench shares: the server its throwaway databases go on, a
// one-off admin query there, the machine and its load as printed, and percentiles.
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
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
const MS_PER_TICK = 10;

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

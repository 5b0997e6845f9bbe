// What every benchmark under ops/bench shares: the server its throwaway databases go on, a
// one-off admin query there, the machine and its load as printed, and percentiles.
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

import { createPool, type DatabasePool, type Interceptor, SchemaValidationError } from 'slonik';

// slonik 49 does not validate results by default: this interceptor checks every row of a
// `sql.type(schema)` query against its zod schema. Synchronously: slonik runs an async row
// transform through a queue of its own per query, ten rows at a time, yielding to the event loop
// every 100 rows, which cost more than the validation (the rent roll's 1,800 rows: p50 27.2 ms
// for the report with the async transform, see README "bench:reads"). Our row schemas have no
// async refinement; one that had would be refused here rather than skipped.
const resultValidation: Interceptor = {
  name: 'result-validation',
  transformRow: (queryContext, query, row) => {
    const parser = queryContext.resultParser;
    if (!parser) return row;
    const result = parser['~standard'].validate(row);
    if (result instanceof Promise) throw new TypeError('result-validation: a row schema must validate synchronously (no async refinement)');
    if (result.issues) throw new SchemaValidationError(query, row, result.issues);
    return result.value as typeof row;
  },
};

// Money (numeric) and dates stay exact strings; timestamps become ISO-8601; counts numbers.
const typeParsers = [
  { name: 'int8', parse: (value: string) => Number.parseInt(value, 10) },
  { name: 'numeric', parse: (value: string) => value },
  { name: 'date', parse: (value: string) => value },
  { name: 'timestamptz', parse: (value: string) => new Date(value).toISOString() },
  { name: 'timestamp', parse: (value: string) => new Date(`${value}Z`).toISOString() },
];

/**
 * The connection string with JIT compilation off for its sessions (unless it sets its own
 * `options`). PostgreSQL compiles a query whose estimated cost passes jit_above_cost to machine
 * code first; on the large history the reports and the dashboard cross that line and compiling
 * took longer than running: the rent roll of all facilities 3.2 s with JIT, 0.57 s without.
 */
function withoutJit(connectionUri: string): string {
  const url = new URL(connectionUri);
  if (!url.searchParams.has('options')) url.searchParams.set('options', '-c jit=off');
  return url.toString();
}

/** Connections of a projector's own pool: a catch-up holds one, the reactions one, the rest read and retry. */
export const PROJECTOR_POOL_SIZE = 4;

export async function createDatabasePool(connectionUri: string, options: { maxPoolSize?: number } = {}): Promise<DatabasePool> {
  return createPool(withoutJit(connectionUri), {
    interceptors: [resultValidation],
    typeParsers,
    maxPoolSize: options.maxPoolSize ?? 10,
    captureStackTrace: false,
    // slonik's default sends `DISCARD ALL` each time a connection goes back to the pool (a round
    // trip per query outside a transaction). Nothing here leaves session state behind: session
    // advisory locks are released in a `finally` on the connection that took them, `SET` is only
    // `SET LOCAL` inside transactions, and no temporary table or named prepared statement is used.
    resetConnection: async () => {},
  });
}

export type { DatabasePool };

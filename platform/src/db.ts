import { createPool, type DatabasePool, type Interceptor, SchemaValidationError } from 'slonik';

// slonik 49 does not validate results by default: this interceptor checks every row of a
// `sql.type(schema)` query against its zod schema.
const resultValidation: Interceptor = {
  name: 'result-validation',
  transformRowAsync: async (queryContext, query, row) => {
    const parser = queryContext.resultParser;
    if (!parser) return row;
    const result = await parser['~standard'].validate(row);
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

export async function createDatabasePool(connectionUri: string, options: { maxPoolSize?: number } = {}): Promise<DatabasePool> {
  return createPool(connectionUri, {
    interceptors: [resultValidation],
    typeParsers,
    maxPoolSize: options.maxPoolSize ?? 10,
    captureStackTrace: false,
  });
}

export type { DatabasePool };

// CSV downloads (RFC 4180), written as they are read so that a large export never sits in memory.

const NEEDS_QUOTES = /[",\r\n]/;
// A spreadsheet runs a cell that starts like this as a formula; numbers are left as they are.
const FORMULA_START = /^[=+\-@\t\r]/;
const NUMBER = /^-?\d+(\.\d+)?$/;

export type CsvValue = string | number | boolean | null;

export function csvField(value: CsvValue): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text) && !NUMBER.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvRecord(values: readonly CsvValue[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

/** The header record, then one record per row of every batch; a BOM first, so spreadsheets read it as UTF-8. */
export async function* csvDocument<Row>(
  columns: ReadonlyArray<{ header: string; value: (row: Row) => CsvValue }>,
  batches: AsyncIterable<readonly Row[]>,
): AsyncGenerator<string> {
  yield `\uFEFF${csvRecord(columns.map((c) => c.header))}`;
  for await (const batch of batches) yield batch.map((row) => csvRecord(columns.map((c) => c.value(row)))).join('');
}

/** `attachment; filename="..."` for a download named by the server. */
export function attachment(filename: string): string {
  return `attachment; filename="${filename.replace(/[^\w.-]/g, '_')}"`;
}

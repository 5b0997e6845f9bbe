// CSV downloads (RFC 4180), written as they are read so that a large export never sits in memory.
// Bidi controls in a field are shown inert (contracts text.ts): a name cannot reorder what a
// spreadsheet shows.

import { Readable } from 'node:stream';
import { inertBidiControls } from '@storage/contracts/text';

const NEEDS_QUOTES = /[",\r\n]/;
// A spreadsheet runs a cell that starts like this as a formula; numbers are left as they are.
const FORMULA_START = /^[=+\-@\t\r]/;
const NUMBER = /^-?\d+(\.\d+)?$/;

export type CsvValue = string | number | boolean | null;

export function csvField(value: CsvValue): string {
  if (value === null) return '';
  let text = inertBidiControls(String(value));
  if (typeof value === 'string' && FORMULA_START.test(text) && !NUMBER.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvRecord(values: readonly CsvValue[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

export type CsvColumns<Row> = ReadonlyArray<{ header: string; value: (row: Row) => CsvValue }>;

/** The last record of a download that failed after its first bytes were sent. */
export const CSV_EXPORT_INCOMPLETE = 'The export stopped early because of a server error: this file is incomplete. Please download it again.';

/**
 * The header record, then one record per row of every batch; a BOM first, so spreadsheets read it
 * as UTF-8. With `onError`, a failure part-way is reported to it and the document ends with a
 * record saying it is incomplete (instead of a dropped connection).
 */
export async function* csvDocument<Row>(
  columns: CsvColumns<Row>,
  batches: AsyncIterable<readonly Row[]>,
  onError?: (error: unknown) => void,
): AsyncGenerator<string> {
  yield `\uFEFF${csvRecord(columns.map((c) => c.header))}`;
  try {
    for await (const batch of batches) yield batch.map((row) => csvRecord(columns.map((c) => c.value(row)))).join('');
  } catch (error) {
    if (!onError) throw error;
    onError(error);
    yield csvRecord([CSV_EXPORT_INCOMPLETE]);
  }
}

/** Reads the first batch now, then replays it and the rest. */
async function started<Row>(batches: AsyncIterable<readonly Row[]>): Promise<AsyncIterable<readonly Row[]>> {
  const iterator = batches[Symbol.asyncIterator]();
  const first = await iterator.next();
  return {
    async *[Symbol.asyncIterator]() {
      if (first.done) return;
      yield first.value;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
    },
  };
}

/**
 * A CSV download as a stream to send. The first batch is read before anything is sent, so a query
 * that fails (bad input, a database error) is an ordinary error answer; a failure after that is
 * logged and ends the file with a record saying so, and the response ends cleanly.
 */
export async function csvDownload<Row>(
  columns: CsvColumns<Row>,
  batches: AsyncIterable<readonly Row[]>,
  log: { error(details: object, message: string): void },
): Promise<Readable> {
  const rows = await started(batches);
  return Readable.from(csvDocument(columns, rows, (err) => log.error({ err }, 'CSV export failed after it started')));
}

/** `attachment; filename="..."` for a download named by the server. */
export function attachment(filename: string): string {
  return `attachment; filename="${filename.replace(/[^\w.-]/g, '_')}"`;
}

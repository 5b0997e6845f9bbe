// CSV as spreadsheets read it (RFC 4180): every cell quoted when needed, CRLF line ends, and bidi
// controls shown inert (text.ts), so a name cannot reorder what a spreadsheet shows.

import { inertBidiControls } from './text.ts';

const needsQuotes = /[",\r\n]/;
// A cell starting like a formula would run as one in a spreadsheet: it is kept as text.
const formulaStart = /^[=+\-@\t\r]/;

function cell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = inertBidiControls(String(value));
  if (typeof value === 'string' && formulaStart.test(text) && !/^-?\d+(\.\d+)?$/.test(text)) text = `'${text}`;
  return needsQuotes.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number | null | undefined>>): string {
  return `${[header, ...rows].map((row) => row.map(cell).join(',')).join('\r\n')}\r\n`;
}

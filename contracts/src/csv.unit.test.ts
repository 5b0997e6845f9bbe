import { describe, expect, it } from 'vitest';
import { toCsv } from './csv.ts';

describe('toCsv', () => {
  it('writes a header and rows with CRLF line ends, quoting only where needed', () => {
    expect(
      toCsv(
        ['Name', 'Note'],
        [
          ['Ada', 'plain'],
          ['Grace "Amazing"', 'a, b'],
          ['Line', 'one\ntwo'],
        ],
      ),
    ).toBe('Name,Note\r\nAda,plain\r\n"Grace ""Amazing""","a, b"\r\nLine,"one\ntwo"\r\n');
  });

  it('leaves empty cells for missing values and writes numbers as they are', () => {
    expect(toCsv(['A', 'B', 'C'], [[null, undefined, 42]])).toBe('A,B,C\r\n,,42\r\n');
  });

  it('keeps a formula-like text from running in a spreadsheet, but not a negative amount', () => {
    expect(toCsv(['X'], [['=HYPERLINK("x")'], ['-12.50'], ['@cmd']])).toBe('X\r\n"\'=HYPERLINK(""x"")"\r\n-12.50\r\n\'@cmd\r\n');
  });

  it('shows a bidi override in a name as U+FFFD, so the cell cannot read reversed', () => {
    expect(toCsv(['Name'], [['invoice\u202Efdp.exe'], ['\u202E=1+1'], ['محمد علي']])).toBe('Name\r\ninvoice\uFFFDfdp.exe\r\n\uFFFD=1+1\r\nمحمد علي\r\n');
  });
});

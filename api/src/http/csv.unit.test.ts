import { describe, expect, it } from 'vitest';
import { csvDocument, csvField, csvRecord } from './csv.ts';

describe('csv', () => {
  it('quotes fields with a comma, a quote or a line break, doubling the quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('Smith, Jr.')).toBe('"Smith, Jr."');
    expect(csvField('the "Vault"')).toBe('"the ""Vault"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
  });

  it('writes null as an empty field and numbers as they are', () => {
    expect(csvRecord([null, 3, '-12.50', true])).toBe(',3,-12.50,true\r\n');
  });

  it('keeps a spreadsheet from running text as a formula', () => {
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField('@sum')).toBe("'@sum");
  });

  it('writes the header, then a record per row of every batch', async () => {
    async function* batches() {
      yield [{ name: 'A' }, { name: 'B, C' }];
      yield [{ name: 'D' }];
    }
    let text = '';
    for await (const chunk of csvDocument([{ header: 'Name', value: (row: { name: string }) => row.name }], batches())) text += chunk;
    expect(text).toBe('\uFEFFName\r\nA\r\n"B, C"\r\nD\r\n');
  });
});

import { describe, expect, it } from 'vitest';
import { CSV_EXPORT_INCOMPLETE, csvDocument, csvDownload, csvField, csvRecord } from './csv.ts';

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

  it('shows bidi controls in a field as U+FFFD and keeps real right-to-left names as they are', () => {
    expect(csvField('invoice\u202Efdp.exe')).toBe('invoice\uFFFDfdp.exe');
    expect(csvField('\u2067a, b\u2069')).toBe('"\uFFFDa, b\uFFFD"');
    expect(csvField('محمد علي')).toBe('محمد علي');
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

  describe('csvDownload', () => {
    const columns = [{ header: 'Name', value: (row: { name: string }) => row.name }];
    const read = async (stream: AsyncIterable<unknown>) => {
      let text = '';
      for await (const chunk of stream) text += String(chunk);
      return text;
    };

    it('fails before sending anything when the first batch fails, so the route answers an error status', async () => {
      // biome-ignore lint/correctness/useYield: a source whose first batch fails yields nothing
      async function* batches(): AsyncGenerator<Array<{ name: string }>> {
        throw new Error('invalid byte sequence');
      }
      const errors: unknown[] = [];
      await expect(csvDownload(columns, batches(), { error: (details) => errors.push(details) })).rejects.toThrow('invalid byte sequence');
      expect(errors).toEqual([]);
    });

    it('ends a download that fails part-way cleanly, with a record saying it is incomplete, and logs the error', async () => {
      async function* batches() {
        yield [{ name: 'A' }];
        throw new Error('connection lost');
      }
      const errors: Array<{ err?: unknown }> = [];
      const stream = await csvDownload(columns, batches(), { error: (details) => errors.push(details) });
      expect(await read(stream)).toBe(`\uFEFFName\r\nA\r\n${csvRecord([CSV_EXPORT_INCOMPLETE])}`);
      expect((errors[0]?.err as Error | undefined)?.message).toBe('connection lost');
    });

    it('streams every batch when nothing fails, and an empty export is its header', async () => {
      async function* batches() {
        yield [{ name: 'A' }];
        yield [{ name: 'B' }];
      }
      const log = {
        error: () => {
          throw new Error('no error expected');
        },
      };
      expect(await read(await csvDownload(columns, batches(), log))).toBe('\uFEFFName\r\nA\r\nB\r\n');
      expect(await read(await csvDownload(columns, (async function* () {})(), log))).toBe('\uFEFFName\r\n');
    });
  });
});

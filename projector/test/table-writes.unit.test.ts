import { TableWrites } from '@storage/projector/read-model-session';
import { sql } from 'slonik';
import { describe, expect, it } from 'vitest';

// A batch's writes go as few statements as they can: the clauses of one data-modifying WITH, the
// checkpoints its main statement. PostgreSQL runs those clauses in an order of its own, so a
// table written twice (two runs of rows, whose order the activity feed's identity records) has
// its second write start a new statement.

const write = (table: string, n: number) => ({ table, query: sql.unsafe`INSERT INTO ${sql.identifier([table])} VALUES (${n})` });
const text = (statements: ReturnType<typeof TableWrites.joined>) => statements.map((s) => s.sql.replace(/\s+/g, ' ').trim());

describe('the writes of a batch, joined', () => {
  it('go in one statement with the checkpoints as its main statement', () => {
    const writes = new TableWrites([write('customers', 1), write('activities', 2)]);
    expect(text(TableWrites.joined([writes], sql.unsafe`UPDATE projection_checkpoints SET position_hi = 1`))).toEqual([
      'WITH "write_0" AS (INSERT INTO "customers" VALUES ($slonik_1)), "write_1" AS (INSERT INTO "activities" VALUES ($slonik_2)) UPDATE projection_checkpoints SET position_hi = 1',
    ]);
  });

  it('start a new statement where a table is written a second time, so its writes keep their order', () => {
    const first = new TableWrites([write('audit_log', 1), write('activities', 2)]);
    const second = new TableWrites([write('activities', 3), write('customers', 4)]);
    const statements = TableWrites.joined([first, second], sql.unsafe`UPDATE projection_checkpoints SET position_hi = 1`);
    expect(text(statements)).toEqual([
      'WITH "write_0" AS (INSERT INTO "audit_log" VALUES ($slonik_1)) INSERT INTO "activities" VALUES ($slonik_2)',
      'WITH "write_0" AS (INSERT INTO "activities" VALUES ($slonik_1)), "write_1" AS (INSERT INTO "customers" VALUES ($slonik_2)) UPDATE projection_checkpoints SET position_hi = 1',
    ]);
    expect(statements.map((s) => s.values)).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });

  it('are the checkpoints alone when nothing changed, and nothing at all when nothing moved', () => {
    expect(text(TableWrites.joined([new TableWrites([])], sql.unsafe`UPDATE projection_checkpoints SET position_hi = 1`))).toEqual([
      'UPDATE projection_checkpoints SET position_hi = 1',
    ]);
    expect(TableWrites.joined([], null)).toEqual([]);
  });

  it('refuse the rows of a fresh session, which go by COPY', () => {
    const fresh = new TableWrites([{ table: 'customers', copy: { statement: 'COPY "customers" (id) FROM STDIN', rows: 'x\n' } }]);
    expect(() => TableWrites.joined([fresh])).toThrow(/copied/);
  });
});

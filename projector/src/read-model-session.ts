import { COPY_NULL, copyText } from '@storage/platform/copy-from';
import { type CommonQueryMethods, type QuerySqlToken, sql } from 'slonik';
import { z } from 'zod';
import { errorText } from './error-text.ts';
import { type CounterTables, keyColumn, type RowOf, type TableName } from './read-model-tables.ts';

// A batch of events is applied to the read tables through one session: rows are read once
// (those the batch's events name in one query per table), changed in memory as each event is
// applied in order, and written back at the end with one set-based statement per table. A row
// changed a thousand times in a batch is written once, so the live projector and a rebuild
// share the same code and a rebuild runs at the speed of the set-based writes. Unqualified
// table names follow the search path, which a rebuild points at its shadow copies. A rebuild's
// session (fresh) is the only writer of tables that started empty, so it knows which rows are new:
// those go in by COPY, which PostgreSQL takes at a third of the CPU of parsing them out of JSON.

interface Shape {
  /** Columns the database lets us write (not identity or generated ones). */
  writable: Set<string>;
  /** Columns of type json or jsonb: their values are written as JSON. */
  json: Set<string>;
  keyType: string;
  /** A row's own column list (as the projection built it) → the columns written, sorted, and whether some are left out. */
  layouts: Map<string, Layout>;
  /** How a row is read as JSON, with the values the pool's type parsers give; null when a column's type is not one it can. */
  asJson: AsJson | null;
}

/** A row read as one jsonb value (so that several tables' rows come in one statement), and turned back into the row SELECT * gives. */
interface AsJson {
  /** The row as jsonb, `t` its alias. */
  select: ReturnType<typeof sql.fragment>;
  decode(value: Record<string, unknown>): AnyRow;
}

/**
 * Column types whose JSON value is the value platform/db.ts's type parsers give for their text
 * (numeric is read as text: exact; a timestamp is turned into ISO-8601 as the parser does).
 */
const jsonSafeTypes = new Set(['bigint', 'boolean', 'date', 'integer', 'jsonb', 'json', 'smallint', 'text', 'text[]', 'uuid', 'uuid[]', 'character varying']);

function asJsonOf(columns: ReadonlyArray<{ name: string; type: string }>): AsJson | null {
  const numeric = columns.filter((c) => c.type === 'numeric' || c.type.startsWith('numeric('));
  const timestamps = columns.filter((c) => c.type === 'timestamp with time zone').map((c) => c.name);
  const others = columns.filter((c) => !numeric.includes(c) && !timestamps.includes(c.name));
  if (others.some((c) => !jsonSafeTypes.has(c.type) && !c.type.startsWith('character varying(')) || numeric.length > 50) return null;
  const names = columns.map((c) => c.name);
  const asText =
    numeric.length === 0
      ? sql.fragment``
      : sql.fragment` || jsonb_build_object(${sql.join(
          numeric.map((c) => sql.fragment`${c.name}::text, ${sql.identifier(['t', c.name])}::text`),
          sql.fragment`, `,
        )})`;
  return {
    select: sql.fragment`to_jsonb(t)${asText}`,
    decode(value) {
      const row: AnyRow = {};
      for (const name of names) row[name] = value[name];
      for (const name of timestamps) if (row[name] !== null) row[name] = new Date(row[name] as string).toISOString();
      return row;
    },
  };
}

/** At most this many rows asked for are read in one statement for all tables; more (a rebuild's batches) by a SELECT * per table, whose rows cost less to send and parse. */
const JOINED_PREFETCH_KEYS = 200;

const ShapeRow = z.object({ name: z.string(), writable: z.boolean(), type: z.string() });

/** Table shapes, the same for the live tables and their shadow copies; read once per process. */
const shapes = new Map<string, Promise<Shape>>();

function shapeOf(tx: CommonQueryMethods, table: TableName): Promise<Shape> {
  let shape = shapes.get(table);
  if (!shape) {
    shape = tx
      .any(
        sql.type(ShapeRow)`
          SELECT a.attname::text AS name, (a.attidentity = '' AND a.attgenerated = '') AS writable,
                 format_type(a.atttypid, a.atttypmod) AS type
          FROM pg_attribute a
          WHERE a.attrelid = ${`public.${table}`}::regclass AND a.attnum > 0 AND NOT a.attisdropped
          ORDER BY a.attnum`,
      )
      .then((columns) => {
        const key = columns.find((c) => c.name === keyColumn[table]);
        if (!key) throw new Error(`${table} has no column ${keyColumn[table]}`);
        return {
          writable: new Set(columns.filter((c) => c.writable).map((c) => c.name)),
          json: new Set(columns.filter((c) => c.type === 'json' || c.type === 'jsonb').map((c) => c.name)),
          keyType: key.type,
          layouts: new Map(),
          asJson: asJsonOf(columns),
        };
      });
    shape.catch(() => shapes.delete(table));
    shapes.set(table, shape);
  }
  return shape;
}

/** A type name the catalogue printed (uuid, text), as a query fragment. */
function typeSql(type: string) {
  if (!/^[a-z][a-z0-9 ]*$/.test(type)) throw new Error(`Unexpected key type ${type}`);
  return sql.fragment(Object.freeze(Object.assign([type], { raw: Object.freeze([type]) })));
}

type AnyRow = Record<string, unknown>;

/** Writing a table's rows back failed: names the table, so the failure can be laid at its owner's door. */
export class TableWriteError extends Error {
  readonly table: string;
  constructor(table: string, cause: unknown) {
    super(`writing ${table} failed: ${errorText(cause)}`, { cause });
    this.name = 'TableWriteError';
    this.table = table;
  }
}

/** A connection that also takes rows by `COPY … FROM STDIN` (a rebuild's writer). */
export interface CopyConnection {
  query(query: QuerySqlToken): Promise<unknown>;
  /** `statement` is a `COPY … FROM STDIN`, `rows` its lines in COPY's text format. */
  copy(statement: string, rows: string): Promise<unknown>;
}

type TableWrite = { table: string; query: QuerySqlToken } | { table: string; copy: { statement: string; rows: string } };

/**
 * The changed rows of a session, taken as statements (their values fixed when taken): written
 * where the session reads (flush), or on another connection while the session goes on (a rebuild).
 */
export class TableWrites {
  private readonly statements: ReadonlyArray<TableWrite>;

  constructor(statements: ReadonlyArray<TableWrite>) {
    this.statements = statements;
  }

  get size(): number {
    return this.statements.length;
  }

  /**
   * The writes of these sessions, then `last`, as few statements as they go in: consecutive ones
   * joined as the clauses of one data-modifying WITH, `last` its main statement. PostgreSQL runs
   * such clauses in an order of its own, so a table written twice (rows of two column layouts, in
   * the order they were first changed) has its second write start a new statement. A failure
   * names no table: for a batch that is done again table by table (writeTo) when it fails. No
   * COPY: a fresh session's writes go by writeTo.
   */
  static joined(writes: ReadonlyArray<TableWrites>, last: QuerySqlToken | null = null): QuerySqlToken[] {
    const groups: Array<{ tables: Set<string>; queries: QuerySqlToken[] }> = [];
    let group: (typeof groups)[number] | undefined;
    for (const write of writes.flatMap((w) => w.statements)) {
      if (!('query' in write)) throw new Error('new rows of a fresh session are copied: write them with writeTo');
      if (!group || group.tables.has(write.table)) {
        group = { tables: new Set(), queries: [] };
        groups.push(group);
      }
      group.tables.add(write.table);
      group.queries.push(write.query);
    }
    if (last) {
      if (!group) groups.push({ tables: new Set(), queries: [last] });
      else group.queries.push(last);
    }
    return groups.map(({ queries }) => {
      const main = queries.at(-1)!;
      if (queries.length === 1) return main;
      const clauses = sql.join(
        queries.slice(0, -1).map((query, i) => sql.fragment`${sql.identifier([`write_${i}`])} AS (${query})`),
        sql.fragment`, `,
      );
      return sql.unsafe`WITH ${clauses} ${main}`;
    });
  }

  /** Runs the statements in order; a failure names its table. A fresh session's writes need a CopyConnection. */
  async writeTo(connection: CommonQueryMethods | CopyConnection): Promise<void> {
    for (const write of this.statements) {
      try {
        if ('query' in write) await connection.query(write.query);
        else if ('copy' in connection) await connection.copy(write.copy.statement, write.copy.rows);
        else throw new Error('new rows of a fresh session are copied: write them on a CopyConnection');
      } catch (error) {
        throw new TableWriteError(write.table, error);
      }
    }
  }
}
type CounterName = keyof CounterTables;
type CounterFigures<C extends CounterName> = Partial<Record<CounterTables[C]['figures'], number | bigint>>;

const counterConstraint: { [C in CounterName]: CounterTables[C]['constraint'] } = {
  metrics_daily: 'metrics_daily_key',
  metrics_building_daily: 'metrics_building_daily_key',
  audit_log_days: 'audit_log_days_key',
  activity_days: 'activity_days_key',
};

const bigintAsText = (_key: string, value: unknown) => (typeof value === 'bigint' ? value.toString() : value);

/**
 * A JSON value for jsonb_populate_recordset: big integers as text, which it reads exactly. Most
 * batches hold none, and JSON.stringify without a replacer is several times faster.
 */
function toJson(rows: unknown): string {
  try {
    return JSON.stringify(rows);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return JSON.stringify(rows, bigintAsText);
  }
}

/**
 * A column's value in COPY's text format, read by the column's input function as
 * jsonb_populate_recordset would read its JSON: null and undefined are NULL, JSON columns take
 * the value as JSON, other columns its text. Undefined: a value only JSON can carry (an object
 * for a column that is not JSON), left to the JSON statement.
 */
function copyValue(value: unknown, json: boolean): string | undefined {
  if (value === null || value === undefined) return COPY_NULL;
  if (json) return copyText(toJson(value));
  switch (typeof value) {
    case 'string':
      return copyText(value);
    case 'number':
      // As JSON has it: a number that is not finite is null.
      return Number.isFinite(value) ? String(value) : COPY_NULL;
    case 'bigint':
      return value.toString();
    case 'boolean':
      return value ? 't' : 'f';
    default:
      return value instanceof Date ? value.toISOString() : undefined;
  }
}

const quoteIdentifier = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The columns of a row that are written (sorted; and joined by commas, to compare), and whether the row has others. */
interface Layout {
  /** The row's own columns, in its order. */
  own: string[];
  columns: string;
  list: string[];
  /** Per column: whether it is JSON. */
  json: boolean[];
  partial: boolean;
}

/** Whether the row's own columns are, in order, those of the layout. */
function fits(row: AnyRow, layout: Layout): boolean {
  let i = 0;
  for (const column in row) if (column !== layout.own[i++]) return false;
  return i === layout.own.length;
}

/**
 * The layout of a row, kept per list of its own columns (the projections build rows of a table a
 * few ways); mostly that of the row before, which is checked first.
 */
function layoutOf(shape: Shape, row: AnyRow, previous: Layout | undefined): Layout {
  if (previous && fits(row, previous)) return previous;
  const own = Object.keys(row);
  const id = own.join(',');
  let layout = shape.layouts.get(id);
  if (!layout) {
    const list = own.filter((c) => shape.writable.has(c)).sort();
    layout = { own, columns: list.join(','), list, json: list.map((c) => shape.json.has(c)), partial: list.length < own.length };
    shape.layouts.set(id, layout);
  }
  return layout;
}

function pick(row: AnyRow, columns: Set<string>): AnyRow {
  const picked: AnyRow = {};
  for (const column in row) if (columns.has(column)) picked[column] = row[column];
  return picked;
}

/** The row as one line of COPY's text format, or null when a value can only go as JSON. */
function copyLine(row: AnyRow, { list, json }: Layout): string | null {
  let line = '';
  for (let i = 0; i < list.length; i++) {
    const value = copyValue(row[list[i]!], json[i]!);
    if (value === undefined) return null;
    line += i === 0 ? value : `\t${value}`;
  }
  return `${line}\n`;
}

/** Rows written by one statement, in the order they were changed or appended: new ones copied (fresh session), or upserted. */
interface Run {
  layout: Layout;
  rows: AnyRow[];
  copy: string[] | null;
}

/** The statement that writes a run of rows: COPY for new rows of a fresh session, the upsert for the others. */
function runWrite(table: TableName, { layout, rows: group, copy }: Run): TableWrite {
  const columns = layout.list;
  if (copy) {
    return { table, copy: { statement: `COPY ${quoteIdentifier(table)} (${columns.map(quoteIdentifier).join(', ')}) FROM STDIN`, rows: copy.join('') } };
  }
  const updated = columns.filter((c) => c !== keyColumn[table]);
  const list = sql.join(
    columns.map((c) => sql.identifier([c])),
    sql.fragment`, `,
  );
  const query = sql.unsafe`
    INSERT INTO ${sql.identifier([table])} (${list})
    SELECT ${list} FROM jsonb_populate_recordset(NULL::${sql.identifier([table])}, ${toJson(group)}::jsonb)
    ON CONFLICT (${sql.identifier([keyColumn[table]])}) DO UPDATE SET ${sql.join(
      updated.map((c) => sql.fragment`${sql.identifier([c])} = EXCLUDED.${sql.identifier([c])}`),
      sql.fragment`, `,
    )}`;
  return { table, query };
}

/** What one projection may touch: its own tables, and reads of those it declares. */
interface Access {
  projection: string;
  writes: ReadonlySet<string>;
  reads: ReadonlySet<string>;
}

export class ReadModelSession {
  /** Null: the whole session (the runner's); set: one projection's view of it. */
  private access: Access | null = null;
  /** Per table: key → the row as it stands now in this batch, or null when it does not exist. */
  private readonly rows = new Map<TableName, Map<string, AnyRow | null>>();
  /** Per table, the keys of rows to write back, in the order they were first changed. */
  private readonly changed = new Map<TableName, Set<string>>();
  /** `${table} ${column} ${value}` lookups already loaded from the database. */
  private readonly looked = new Set<string>();
  private readonly counters = new Map<CounterName, Map<string, { key: AnyRow; figures: Map<string, bigint> }>>();
  /**
   * Rows added by append, per table, not held: in a fresh session already lines of COPY, otherwise
   * rows for the upsert (one run per set of columns). A table appended to is never read back.
   */
  private readonly appended = new Map<TableName, Run[]>();

  private readonly tx: CommonQueryMethods;
  /** A dry run's session (see dryRun): the keys of the rows it would have read, per table; it reads nothing. */
  private missed: Map<TableName, Set<string>> | null = null;
  /** A fresh session's keys written so far, per table: a row not among them is not in the table yet. */
  private readonly written: Map<TableName, Set<string>> | null;

  /**
   * Reads (and, by flush, writes) go through `tx`: a transaction, or a connection of a rebuild's
   * own. `fresh`: the tables started empty and this session is their only writer (a rebuild's
   * shadow copies), so the rows it never wrote are new and go in by COPY (see CopyConnection).
   */
  constructor(tx: CommonQueryMethods, options: { fresh?: boolean } = {}) {
    this.tx = tx;
    this.written = options.fresh ? new Map() : null;
  }

  /**
   * A copy of this session for a dry run of a batch (the runner's prefetchByDryRun): it holds
   * copies of this one's rows, and where it would read a row it does not hold, it notes the key in
   * `missed` and takes the row as missing; it reads nothing from the database, and what it changes
   * is dropped with it.
   */
  dryRun(): { session: ReadModelSession; missed: Map<TableName, Set<string>> } {
    const session = new ReadModelSession(this.tx);
    for (const [table, rows] of this.rows) session.rows.set(table, structuredClone(rows));
    for (const lookup of this.looked) session.looked.add(lookup);
    session.missed = new Map();
    return { session, missed: session.missed };
  }

  /** This session as one projection may use it: the same rows, with its access checked. */
  for(projection: { name: string; tables: readonly string[]; reads?: readonly string[] }): ReadModelSession {
    const view = Object.assign(Object.create(ReadModelSession.prototype) as ReadModelSession, this);
    view.access = { projection: projection.name, writes: new Set(projection.tables), reads: new Set([...projection.tables, ...(projection.reads ?? [])]) };
    return view;
  }

  private check(table: string, kind: 'reads' | 'writes'): void {
    if (this.appended.has(table as TableName)) {
      throw new Error(`${table} is appended to, its rows not held: it can only be appended to in this session`);
    }
    this.checkAccess(table, kind);
  }

  private checkAccess(table: string, kind: 'reads' | 'writes'): void {
    if (this.access && !this.access[kind].has(table)) {
      throw new Error(
        `The ${this.access.projection} projection ${kind === 'reads' ? 'reads' : 'writes'} ${table}, which it does not ${kind === 'reads' ? 'declare' : 'own'}`,
      );
    }
  }

  private cache(table: TableName): Map<string, AnyRow | null> {
    let rows = this.rows.get(table);
    if (!rows) {
      rows = new Map();
      this.rows.set(table, rows);
    }
    return rows;
  }

  private remember(table: TableName, loaded: readonly AnyRow[]): void {
    const rows = this.cache(table);
    const key = keyColumn[table];
    // A row already in the session is newer than the stored one.
    for (const row of loaded) if (!rows.get(String(row[key]))) rows.set(String(row[key]), { ...row });
  }

  /**
   * Loads the rows with these keys that the session does not hold yet: a live batch's few in one
   * statement for every table, as JSON (a round trip per table was most of a small batch's
   * statements); a rebuild's many in one SELECT * per table.
   */
  async prefetch(keys: Map<TableName, Set<string>>): Promise<void> {
    if (this.missed) return this.noteMissed(keys);
    const loads: Array<{ table: TableName; missing: string[]; shape: Shape }> = [];
    for (const [table, wanted] of keys) {
      const rows = this.cache(table);
      const missing = [...wanted].filter((k) => !rows.has(k));
      if (missing.length > 0) loads.push({ table, missing, shape: await shapeOf(this.tx, table) });
    }
    const joinable = loads.filter((load) => load.shape.asJson !== null);
    const joined = joinable.length > 1 && joinable.reduce((n, load) => n + load.missing.length, 0) <= JOINED_PREFETCH_KEYS ? joinable : [];
    const keyIn = ({ table, missing, shape }: (typeof loads)[number]) =>
      sql.fragment`${sql.identifier([keyColumn[table]])} = ANY(${sql.array(missing, 'text')}::${typeSql(shape.keyType)}[])`;
    for (const load of loads) {
      if (joined.includes(load)) continue;
      const found = (await this.tx.any(sql.unsafe`SELECT * FROM ${sql.identifier([load.table])} WHERE ${keyIn(load)}`)) as readonly AnyRow[];
      this.loaded(load.table, load.missing, found);
    }
    if (joined.length === 0) return;
    const found = (await this.tx.any(
      sql.unsafe`${sql.join(
        joined.map(
          (load, i) => sql.fragment`SELECT ${i}::int AS load, ${load.shape.asJson!.select} AS row FROM ${sql.identifier([load.table])} t WHERE ${keyIn(load)}`,
        ),
        sql.fragment` UNION ALL `,
      )}`,
    )) as ReadonlyArray<{ load: number; row: Record<string, unknown> }>;
    for (const [i, load] of joined.entries()) {
      this.loaded(
        load.table,
        load.missing,
        found.filter((f) => f.load === i).map((f) => load.shape.asJson!.decode(f.row)),
      );
    }
  }

  /** A dry run's reads: the keys it does not hold are noted, and taken as rows that do not exist. */
  private noteMissed(keys: Map<TableName, Set<string>>): void {
    for (const [table, wanted] of keys) {
      const rows = this.cache(table);
      for (const key of wanted) {
        if (rows.has(key)) continue;
        rows.set(key, null);
        let missed = this.missed!.get(table);
        if (!missed) {
          missed = new Set();
          this.missed!.set(table, missed);
        }
        missed.add(key);
      }
    }
  }

  /** Holds the rows found for these keys, and that the others do not exist. */
  private loaded(table: TableName, keys: readonly string[], found: readonly AnyRow[]): void {
    const rows = this.cache(table);
    for (const k of keys) rows.set(k, null);
    for (const row of found) rows.set(String(row[keyColumn[table]]), { ...row });
  }

  async get<T extends TableName>(table: T, key: string | null | undefined): Promise<RowOf<T> | undefined> {
    this.check(table, 'reads');
    if (key === null || key === undefined) return undefined;
    const rows = this.cache(table);
    if (!rows.has(key)) await this.prefetch(new Map([[table, new Set([key])]]));
    return (rows.get(key) ?? undefined) as RowOf<T> | undefined;
  }

  /**
   * The rows whose `column` equals `value`, in the order they were stored (rows added in this
   * batch last, in the order they were added).
   */
  async find<T extends TableName>(table: T, column: keyof RowOf<T> & string, value: string): Promise<Array<RowOf<T>>> {
    this.check(table, 'reads');
    const lookup = `${table} ${column} ${value}`;
    // A dry run looks only among the rows it holds (a lookup by column is not loaded ahead).
    if (!this.looked.has(lookup) && !this.missed) {
      const found = (await this.tx.any(sql.unsafe`SELECT * FROM ${sql.identifier([table])} WHERE ${sql.identifier([column])} = ${value}`)) as readonly AnyRow[];
      this.remember(table, found);
      this.looked.add(lookup);
    }
    const matching = [...this.cache(table).values()].filter((row): row is AnyRow => row !== null && row[column] === value);
    const order = (row: AnyRow) => (typeof row.recorded_order === 'number' ? row.recorded_order : Number.POSITIVE_INFINITY);
    return matching.sort((a, b) => order(a) - order(b)) as Array<RowOf<T>>;
  }

  /** Adds a row, or replaces the one with its key. */
  insert<T extends TableName>(table: T, row: RowOf<T>): void {
    this.check(table, 'writes');
    this.put(table, String((row as AnyRow)[keyColumn[table]]), { ...row });
  }

  /**
   * Adds a row no projection reads back or changes again (a log's), with a key no other row has.
   * The row is not held: a fresh session turns it into a line of COPY at once, which spares a
   * rebuild a million audit rows in its cache. A table appended to can only be appended to.
   */
  async append<T extends TableName>(table: T, row: RowOf<T>): Promise<void> {
    this.checkAccess(table, 'writes');
    let runs = this.appended.get(table);
    if (!runs) {
      if (this.rows.has(table)) throw new Error(`${table} is held by this session: it cannot be appended to as well`);
      runs = [];
      this.appended.set(table, runs);
    }
    const shape = await shapeOf(this.tx, table);
    let last = runs[runs.length - 1];
    const layout = layoutOf(shape, row as AnyRow, last?.layout);
    const stored = layout.partial ? pick(row as AnyRow, shape.writable) : (row as AnyRow);
    const line = this.written ? copyLine(stored, layout) : null;
    if (!last || last.layout.columns !== layout.columns || (last.copy === null) !== (line === null)) {
      last = { layout, rows: [], copy: line === null ? null : [] };
      runs.push(last);
    }
    // Only a row kept until the writes are taken is copied (the caller may change it meanwhile); a line is fixed.
    if (line === null) last.rows.push(stored === row ? { ...stored } : stored);
    else last.copy!.push(line);
  }

  /** Holds a row the caller no longer touches (a copy) as changed. */
  private put(table: TableName, key: string, row: AnyRow): void {
    this.cache(table).set(key, row);
    let changed = this.changed.get(table);
    if (!changed) {
      changed = new Set();
      this.changed.set(table, changed);
    }
    changed.add(key);
  }

  /** Changes some columns of a row; returns the row after the change, or undefined when there is no such row. */
  async update<T extends TableName>(table: T, key: string | null | undefined, changes: Partial<RowOf<T>>): Promise<RowOf<T> | undefined> {
    this.check(table, 'writes');
    const row = await this.get(table, key);
    if (!row) return undefined;
    const updated = { ...row, ...changes };
    this.put(table, String((updated as AnyRow)[keyColumn[table]]), updated);
    return updated;
  }

  /** Adds to figures kept per key; the additions are written (summed) with the batch. */
  count<C extends CounterName>(table: C, key: CounterTables[C]['key'], figures: CounterFigures<C>): void {
    this.check(table, 'writes');
    const additions = (Object.entries(figures) as Array<[string, number | bigint]>).filter(([, value]) => BigInt(value) !== 0n);
    if (additions.length === 0) return;
    let counters = this.counters.get(table);
    if (!counters) {
      counters = new Map();
      this.counters.set(table, counters);
    }
    const id = JSON.stringify(key);
    let counter = counters.get(id);
    if (!counter) {
      counter = { key: { ...key }, figures: new Map() };
      counters.set(id, counter);
    }
    for (const [figure, value] of additions) {
      counter.figures.set(figure, (counter.figures.get(figure) ?? 0n) + BigInt(value));
    }
  }

  /** Writes every changed row and counter back: one statement per table and set of columns. */
  async flush(): Promise<void> {
    await (await this.takeWrites()).writeTo(this.tx);
  }

  /** The statements that write every changed row and counter back; the session then holds nothing unwritten. */
  async takeWrites(): Promise<TableWrites> {
    const statements: TableWrite[] = [];
    for (const [table, keys] of this.changed) {
      statements.push(...this.rowWrites(table, keys, await shapeOf(this.tx, table)));
    }
    this.changed.clear();
    for (const [table, runs] of this.appended) {
      statements.push(...runs.map((run) => runWrite(table, run)));
      runs.length = 0;
    }
    for (const [table, counters] of this.counters) {
      const query = this.counterWrite(table, counters);
      if (query) statements.push({ table, query });
    }
    this.counters.clear();
    return new TableWrites(statements);
  }

  /** Rows held in memory (what a long session, such as a rebuild's, forgets now and then). */
  get cachedRows(): number {
    let n = 0;
    for (const rows of this.rows.values()) n += rows.size;
    return n;
  }

  /** Forgets every row read or written, once the writes taken are stored: later reads go to the database again. */
  forget(): void {
    if (this.changed.size > 0 || this.counters.size > 0 || [...this.appended.values()].some((runs) => runs.length > 0))
      throw new Error('The session holds changes not yet taken for writing');
    this.rows.clear();
    this.looked.clear();
  }

  private rowWrites(table: TableName, keys: Set<string>, shape: Shape): TableWrite[] {
    const rows = this.cache(table);
    let written = this.written?.get(table);
    if (this.written && !written) {
      written = new Set();
      this.written.set(table, written);
    }
    // Rows made by a projection leave out columns the database fills in; stored ones have them all.
    // One statement per run of rows with the same columns, in the order the rows were first
    // changed: a table whose identity column records that order (the activity feed's
    // recorded_order) then gets it right even when rows with other columns sit in between. In a
    // fresh session a run is also all new rows (copied) or all rows written before (upserted).
    const runs: Run[] = [];
    let last: Run | undefined;
    let layout: Layout | undefined;
    for (const key of keys) {
      const row = rows.get(key);
      if (!row) continue;
      layout = layoutOf(shape, row, layout);
      const stored = layout.partial ? pick(row, shape.writable) : row;
      let line: string | null = null;
      if (written && !written.has(key)) {
        written.add(key);
        line = copyLine(stored, layout);
      }
      if (last && last.layout.columns === layout.columns && (last.copy === null) === (line === null)) {
        if (line === null) last.rows.push(stored);
        else last.copy!.push(line);
      } else {
        last = line === null ? { layout, rows: [stored], copy: null } : { layout, rows: [], copy: [line] };
        runs.push(last);
      }
    }
    return runs.map((run) => runWrite(table, run));
  }

  private counterWrite(table: CounterName, counters: Map<string, { key: AnyRow; figures: Map<string, bigint> }>): QuerySqlToken | null {
    const figures = [...new Set([...counters.values()].flatMap((c) => [...c.figures.keys()]))].sort();
    const keyColumns = Object.keys([...counters.values()][0]?.key ?? {});
    if (figures.length === 0) return null;
    const rows = [...counters.values()].map((c) => ({ ...c.key, ...Object.fromEntries(figures.map((f) => [f, c.figures.get(f) ?? 0n])) }));
    const list = sql.join(
      [...keyColumns, ...figures].map((c) => sql.identifier([c])),
      sql.fragment`, `,
    );
    return sql.unsafe`
      INSERT INTO ${sql.identifier([table])} (${list})
      SELECT ${list} FROM jsonb_populate_recordset(NULL::${sql.identifier([table])}, ${toJson(rows)}::jsonb)
      ON CONFLICT ON CONSTRAINT ${sql.identifier([counterConstraint[table]])} DO UPDATE SET ${sql.join(
        figures.map((f) => sql.fragment`${sql.identifier([f])} = ${sql.identifier([table, f])} + EXCLUDED.${sql.identifier([f])}`),
        sql.fragment`, `,
      )}`;
  }
}

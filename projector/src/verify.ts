import { comparePositions, type EventStore, type Position } from '@storage/eventstore/port';
import { CheckpointRow, toPosition } from '@storage/platform/checkpoints';
import { type DatabasePool, type DatabaseTransactionConnection, sql } from 'slonik';
import { z } from 'zod';
import type { Projection } from './projection.ts';
import { readModelProjections } from './projections.ts';
import { applyToShadow, buildShadow, type RebuildPacing, type RebuildProgress, SHADOW_SCHEMA, type ShadowBuild, withRebuildLock } from './rebuild.ts';
import { catchUp } from './runner.ts';

export interface RowDifference {
  table: string;
  /** The row's key (primary, or first unique), column → value. */
  key: Record<string, unknown>;
  kind: 'missing from live' | 'not in rebuild' | 'different';
  /** For 'different': column → the live and the rebuilt value. */
  columns: Record<string, { live: unknown; rebuilt: unknown }>;
}

export interface Verification {
  eventsApplied: number;
  tablesCompared: number;
  rowsCompared: number;
  differences: RowDifference[];
}

const FailureRow = z.object({ projection: z.string(), event_id: z.string(), event_type: z.string() });
const ColumnRow = z.object({ column_name: z.string(), is_key: z.boolean(), differs_legitimately: z.boolean() });
const JsonRow = z.object({ live: z.record(z.string(), z.unknown()).nullable(), rebuilt: z.record(z.string(), z.unknown()).nullable() });

/**
 * Rows are matched by the primary key, or the table's first unique key when it has none.
 * Columns stamped by the database when the row was written (defaults of now(), identity
 * numbers) legitimately differ between the live and the rebuilt table; every other one must match.
 */
async function tableColumns(tx: DatabaseTransactionConnection, table: string) {
  return tx.any(sql.type(ColumnRow)`
    SELECT c.column_name::text,
      EXISTS (
        SELECT 1 FROM pg_attribute a
        WHERE a.attrelid = ${`public.${table}`}::regclass AND a.attname = c.column_name AND a.attnum = ANY((
          SELECT i.indkey FROM pg_index i WHERE i.indrelid = a.attrelid AND i.indisunique AND i.indpred IS NULL
          ORDER BY i.indisprimary DESC, i.indexrelid LIMIT 1
        )::int2[])
      ) AS is_key,
      (c.is_identity = 'YES' OR coalesce(c.column_default ILIKE 'now()%' OR c.column_default ILIKE 'CURRENT_TIMESTAMP%', false)) AS differs_legitimately
    FROM information_schema.columns c
    WHERE c.table_schema = 'public' AND c.table_name = ${table}
    ORDER BY c.ordinal_position`);
}

async function compareTable(tx: DatabaseTransactionConnection, table: string): Promise<{ rows: number; differences: RowDifference[] }> {
  const columns = await tableColumns(tx, table);
  const keys = columns.filter((c) => c.is_key).map((c) => c.column_name);
  if (keys.length === 0) throw new Error(`${table} has no unique key to compare rows by`);
  const ignored = sql.array(
    columns.filter((c) => c.differs_legitimately).map((c) => c.column_name),
    'text',
  );
  // As jsonb: equal when a nullable key column is null on both sides, and hash-joinable.
  const keyOf = (alias: string) =>
    sql.fragment`jsonb_build_array(${sql.join(
      keys.map((k) => sql.identifier([alias, k])),
      sql.fragment`, `,
    )})`;
  const rows = await tx.oneFirst(sql.type(z.object({ count: z.number() }))`SELECT count(*)::int AS count FROM ${sql.identifier(['public', table])}`);
  const mismatches = await tx.any(sql.type(JsonRow)`
    SELECT live, rebuilt FROM (
      SELECT CASE WHEN l IS NULL THEN NULL ELSE to_jsonb(l) - ${ignored}::text[] END AS live,
             CASE WHEN s IS NULL THEN NULL ELSE to_jsonb(s) - ${ignored}::text[] END AS rebuilt
      FROM ${sql.identifier(['public', table])} l FULL JOIN ${sql.identifier([SHADOW_SCHEMA, table])} s ON ${keyOf('l')} = ${keyOf('s')}
    ) pairs
    WHERE live IS DISTINCT FROM rebuilt`);
  const differences = mismatches.map(({ live, rebuilt }): RowDifference => {
    const either = (live ?? rebuilt)!;
    const key = Object.fromEntries(keys.map((k) => [k, either[k]]));
    if (!live) return { table, key, kind: 'missing from live', columns: {} };
    if (!rebuilt) return { table, key, kind: 'not in rebuild', columns: {} };
    const changed = Object.keys(live).filter((c) => JSON.stringify(live[c]) !== JSON.stringify(rebuilt[c]));
    return { table, key, kind: 'different', columns: Object.fromEntries(changed.map((c) => [c, { live: live[c], rebuilt: rebuilt[c] }])) };
  });
  return { rows, differences };
}

/** Times the live checkpoints are brought to one position before a verification gives up. */
const SETTLE_ATTEMPTS = 5;

/**
 * Rebuilds the projections into shadow tables and compares them with the live ones row by row (a
 * projection that reads others' tables is rebuilt with copies of those, which are not compared).
 * The comparison holds the projections' checkpoints, so the live projector waits, and first
 * brings the shadow tables to the live position. It needs every projection at one position: a
 * projection failing on an event (projection_failures) makes it stop and say so.
 */
export async function verifyReadModel(
  pool: DatabasePool,
  store: EventStore,
  projections: Projection[] = readModelProjections,
  onProgress: (progress: RebuildProgress) => void = () => {},
  pacing?: RebuildPacing,
): Promise<Verification> {
  const names = sql.array(
    projections.map((p) => p.name),
    'text',
  );
  return withRebuildLock(pool, async (connection) => {
    try {
      const build = await buildShadow(pool, connection, store, projections, onProgress, pacing);
      for (let attempt = 1; ; attempt++) {
        await catchUp(pool, store, readModelProjections);
        const verification = await connection.transaction(async (tx): Promise<Verification | null> => {
          const checkpoints = await tx.any(
            sql.type(CheckpointRow)`
              SELECT position_hi::text, position_lo::text FROM projection_checkpoints
              WHERE name = ANY(${names})
              ORDER BY name FOR UPDATE`,
          );
          const failed = await tx.maybeOne(sql.type(FailureRow)`
            SELECT projection, event_id, event_type FROM projection_failures
            WHERE projection = ANY(${names}) OR holds && ${names}
            ORDER BY first_failed_at LIMIT 1`);
          if (failed) {
            throw new Error(
              `The ${failed.projection} projection is failing on event ${failed.event_id} (${failed.event_type}); ` +
                'verify once it has recovered (the projector log and the health answer say why and when it is tried again)',
            );
          }
          const positions = checkpoints.map(toPosition);
          const live = positions.reduce<Position | null>((max, p) => (p && (!max || comparePositions(p, max) > 0) ? p : max), null);
          // A lane that was catching up when the checkpoints were taken: catch up again.
          if (positions.some((p) => (p === null ? live !== null : live === null || comparePositions(p, live) !== 0))) return null;
          return compareWithShadow(tx, store, build, live);
        });
        if (verification) return verification;
        if (attempt === SETTLE_ATTEMPTS) throw new Error('The live projections did not come to one position; verify again');
      }
    } finally {
      await connection.query(sql.unsafe`DROP SCHEMA IF EXISTS ${sql.identifier([SHADOW_SCHEMA])} CASCADE`);
    }
  });
}

/** Brings the shadow tables to the live position `live` and compares them, table by table. */
async function compareWithShadow(tx: DatabaseTransactionConnection, store: EventStore, build: ShadowBuild, live: Position | null): Promise<Verification> {
  let eventsApplied = build.eventsApplied;
  if (build.position && (!live || comparePositions(live, build.position) < 0)) {
    throw new Error('The live read model is behind the history (is the projector running?); verify again once it has caught up');
  }
  for (let after = build.position; live && (!after || comparePositions(after, live) < 0); ) {
    const batch = (await store.readAll({ after, limit: 5000 })).filter((e) => comparePositions(e.position, live) <= 0);
    if (batch.length === 0) break;
    await applyToShadow(tx, build.projections, batch);
    after = batch[batch.length - 1]!.position;
    eventsApplied += batch.length;
  }
  let rowsCompared = 0;
  const differences: RowDifference[] = [];
  for (const table of build.tables) {
    const result = await compareTable(tx, table);
    rowsCompared += result.rows;
    differences.push(...result.differences);
  }
  return { eventsApplied, tablesCompared: build.tables.length, rowsCompared, differences };
}

export function describeDifference(d: RowDifference): string {
  const key = Object.entries(d.key)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(', ');
  if (d.kind !== 'different') return `${d.table} (${key}): ${d.kind}`;
  const columns = Object.entries(d.columns)
    .map(([c, v]) => `${c}: live ${JSON.stringify(v.live)}, rebuilt ${JSON.stringify(v.rebuilt)}`)
    .join('; ');
  return `${d.table} (${key}): ${columns}`;
}

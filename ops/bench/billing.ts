import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { InvoiceStatus } from '@storage/contracts/enums';
import { type BillingDay, runBillingDay } from '@storage/domain/billing/run';
import { connectEventStore } from '@storage/eventstore/connect';
import type { EventStore } from '@storage/eventstore/port';
import { createDatabasePool } from '@storage/platform/db';
import { migrateReadModel } from '@storage/platform/migrate';
import { readModelProjections } from '@storage/projector/projections';
import { rebuildReadModel } from '@storage/projector/rebuild';
import { catchUp, ensureCheckpoints } from '@storage/projector/runner';
import { BENCH_TIME_ZONES, seedBillingLeases } from '@storage/seed/billing-leases';
import { type DatabasePool, sql } from 'slonik';
import { adminQuery, load, machine, serverUrl, startRun, targetMissed } from './measure.ts';

// `npm run bench:billing [-- --facilities 20 --leases 1000]`: the billing day for 20,000 active
// leases across 20 facilities in several time zones. The leases moved in during October 2026, their
// move-in invoices are paid and they are billed through October 31; the day runs at noon UTC on
// October 27, the issue day of November's rent (5 days before the 1st) in every facility's zone, so
// it issues one invoice per lease. Then it runs again: it must issue nothing. The peer is raw
// PostgreSQL: the same invoice rows and their events as rows, written set-based in one transaction.
// A throwaway database on the server of DATABASE_URL, else TEST_POSTGRES_URL, else the local
// PostgreSQL on 5432 (like bench:rebuild); EVENTSTORE_URL puts the events in EventStoreDB instead.

const TARGET_SECONDS = 60;
const MONTH = '2026-10';
const BILLING_NOW = new Date('2026-10-27T12:00:00Z');
const ISSUE_DATE = '2026-10-27';

const { values } = parseArgs({
  options: {
    facilities: { type: 'string', default: '20' },
    leases: { type: 'string', default: '1000' },
    /** Leaves the database behind (its name is printed), to look into with psql. */
    keep: { type: 'boolean', default: false },
  },
});
const facilities = Number(values.facilities);
const leasesPerFacility = Number(values.leases);
if (!Number.isInteger(facilities) || facilities < 1) throw new Error('--facilities must be a whole number of at least 1');
if (!Number.isInteger(leasesPerFacility) || leasesPerFacility < 1) throw new Error('--leases must be a whole number of at least 1');
const leaseCount = facilities * leasesPerFacility;
const run = startRun('billing', { facilities, leasesPerFacility, keep: values.keep, eventStore: process.env.EVENTSTORE_URL ? 'EventStoreDB' : 'postgres' });

const seconds = (since: number) => (performance.now() - since) / 1000;
const cpuSeconds = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
};
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/** Counts the event store calls of each kind and the time they took (summed over calls in flight at once). */
function counted(store: EventStore) {
  const calls = new Map<string, { n: number; ms: number }>();
  const wrapped = new Proxy(store, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== 'function' || key === 'close') return value;
      return async (...args: unknown[]) => {
        const started = performance.now();
        try {
          return await value.apply(target, args);
        } finally {
          const entry = calls.get(String(key)) ?? { n: 0, ms: 0 };
          entry.n++;
          entry.ms += performance.now() - started;
          calls.set(String(key), entry);
        }
      };
    },
  });
  /** The calls since the last report: as printed, and by kind for the results file. */
  const report = () => {
    const text = [...calls].map(([key, { n, ms }]) => `${fmt(n)} ${key} (${(ms / n).toFixed(1)} ms each)`).join(', ');
    const byKind = Object.fromEntries([...calls].map(([key, { n, ms }]) => [key, { calls: n, msEach: ms / n }]));
    calls.clear();
    return { text, byKind };
  };
  return { store: wrapped, report };
}

function totals(day: BillingDay) {
  const sum = (key: 'invoicesIssued' | 'lateFeesCharged' | 'invoicesOverdue') => day.runs.reduce((n, run) => n + run[key], 0);
  return {
    issued: sum('invoicesIssued'),
    lateFees: sum('lateFeesCharged'),
    overdue: sum('invoicesOverdue'),
    skipped: day.runs.reduce((n, run) => n + run.skipped.length, 0),
    dates: [...new Set(day.runs.filter((r) => r.facilityId).map((r) => r.billingDate))].join(', '),
  };
}

/** Where 'sent' sorts among the statuses, as the invoices projection writes status_rank. */
const SENT_RANK = (InvoiceStatus.options as readonly string[]).indexOf('sent') + 1;

/**
 * The peer: what the day's output is as plain rows, written set-based in one transaction: an
 * invoice row per active lease (the read model's invoices table, indexes and all) and its three
 * events (invoice generated, sent, lease billed) as rows of a copy of the event table. The row
 * carries every column the projection fills (the customer's name and search text, the status's
 * rank), since the table's NOT NULL columns without defaults refuse a row without them.
 */
async function peer(pool: DatabasePool): Promise<{ seconds: number; invoices: number; events: number }> {
  await pool.query(sql.unsafe`CREATE TABLE peer_invoices (LIKE invoices INCLUDING ALL)`);
  await pool.query(sql.unsafe`CREATE TABLE peer_events (LIKE event_store.events INCLUDING ALL)`);
  const started = performance.now();
  const counts = await pool.transaction(async (tx) => {
    const invoices = await tx.query(sql.unsafe`
      INSERT INTO peer_invoices (id, invoice_number, customer_id, lease_id, amount, due_date, status, status_rank, description, lines, facility_id,
        search_text, customer_last_name, customer_first_name, created_at, updated_at)
      SELECT gen_random_uuid(), 'INV-202611-' || upper(left(l.id::text, 8)), l.customer_id, l.id, l.monthly_rate, DATE '2026-11-01', 'sent',
        ${SENT_RANK}, 'Rent Nov 1 – Nov 30, 2026',
        jsonb_build_array(jsonb_build_object('kind', 'rent', 'description', 'Rent Nov 1 – Nov 30, 2026', 'amount', l.monthly_rate::text,
          'periodStart', '2026-11-01', 'periodEnd', '2026-11-30')),
        u.facility_id,
        lower(concat_ws(' ', 'INV-202611-' || left(l.id::text, 8), c.first_name, c.last_name, c.first_name || ' ' || c.last_name, c.email)),
        c.last_name, c.first_name, now(), now()
      FROM leases l JOIN units u ON u.id = l.unit_id JOIN customers c ON c.id = l.customer_id WHERE l.is_active`);
    const metadata = sql.unsafe`jsonb_build_object('actor', jsonb_build_object('type', 'system'), 'correlationId', gen_random_uuid(), 'causationId', NULL, 'schemaVersion', 1, 'occurredAt', now())`;
    const events = await tx.query(sql.unsafe`
      INSERT INTO peer_events (stream_name, revision, id, type, data, metadata)
      SELECT e.stream_name, e.revision, gen_random_uuid(), e.type, e.data, ${metadata}
      FROM peer_invoices i
      CROSS JOIN LATERAL (VALUES
        ('invoice-' || i.id, 0, 'invoice_generated',
          to_jsonb(i) - 'search_text' - 'facility_id' - 'customer_last_name' - 'customer_first_name' - 'status_rank'),
        ('invoice-' || i.id, 1, 'invoice_sent', jsonb_build_object('invoiceId', i.id)),
        ('lease-' || i.lease_id, 2, 'lease_rent_billed',
          jsonb_build_object('leaseId', i.lease_id, 'invoiceId', i.id, 'periodStart', '2026-11-01', 'periodEnd', '2026-11-30'))
      ) AS e(stream_name, revision, type, data)`);
    return { invoices: invoices.rowCount, events: events.rowCount };
  });
  return { seconds: seconds(started), ...counts };
}

async function main() {
  const name = `bench_billing_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await adminQuery(`CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  let pool: DatabasePool | undefined;
  let store: EventStore | undefined;
  try {
    await migrateReadModel(databaseUrl);
    pool = await createDatabasePool(databaseUrl);
    store = await connectEventStore({ eventStoreUrl: process.env.EVENTSTORE_URL, databaseUrl });
    await ensureCheckpoints(pool, readModelProjections);
    const version = await pool.oneFirst(sql.unsafe`SELECT current_setting('server_version')`);
    console.log(`Machine: ${machine()}, ` + `PostgreSQL ${String(version)}, event store: ${store.kind}; load average (1/5/15 min) ${load()}`);
    run.environment.postgres = String(version);
    run.environment.eventStore = store.kind;

    let started = performance.now();
    const appended = await seedBillingLeases(store, { facilities, leasesPerFacility, month: MONTH });
    const seedSeconds = seconds(started);
    console.log(
      `Seeded ${fmt(leaseCount)} active leases in ${facilities} facilities (${BENCH_TIME_ZONES.slice(0, facilities).join(', ')}): ` +
        `${fmt(appended)} events in ${seedSeconds.toFixed(1)} s`,
    );
    started = performance.now();
    await rebuildReadModel(pool, store, readModelProjections);
    const rebuildSeconds = seconds(started);
    console.log(`Read model built from them in ${rebuildSeconds.toFixed(1)} s`);

    const probe = counted(store);
    const deps = { store: probe.store, pool };
    console.log(`Billing day at ${BILLING_NOW.toISOString()} (${ISSUE_DATE} in every facility's zone, November's issue day); load ${load()}`);
    started = performance.now();
    let cpu = process.cpuUsage();
    const first = totals(await runBillingDay(deps, BILLING_NOW));
    const firstSeconds = seconds(started);
    const firstCpu = cpuSeconds(cpu);
    const rate = first.issued / firstSeconds;
    console.log(
      `  first run: ${fmt(first.issued)} invoices issued in ${firstSeconds.toFixed(1)} s = ${fmt(rate)} invoices/s ` +
        `(target: the day under ${TARGET_SECONDS} s: ${firstSeconds < TARGET_SECONDS ? 'met' : 'not met'}); ` +
        `dates ${first.dates}; late fees ${first.lateFees}, overdue ${first.overdue}, skipped ${first.skipped}; ` +
        `this process used ${firstCpu.toFixed(1)} s of CPU (the rest: PostgreSQL and waiting)`,
    );
    const firstCalls = probe.report();
    console.log(`  event store calls: ${firstCalls.text}`);
    if (first.issued !== leaseCount) console.log(`  EXPECTED ${fmt(leaseCount)} invoices, one per lease`);
    started = performance.now();
    const projected = await catchUp(pool, store, readModelProjections);
    const catchUpSeconds = seconds(started);
    console.log(`  projector caught up with the run's ${fmt(projected)} events in ${catchUpSeconds.toFixed(1)} s`);

    started = performance.now();
    cpu = process.cpuUsage();
    const second = totals(await runBillingDay(deps, BILLING_NOW));
    const secondSeconds = seconds(started);
    const secondCpu = cpuSeconds(cpu);
    console.log(
      `  second run: ${fmt(second.issued)} invoices issued in ${secondSeconds.toFixed(1)} s (${secondCpu.toFixed(1)} s of CPU here)` +
        (second.issued === 0 ? ' (nothing, as it must)' : ' (MUST BE 0: exactly once is broken)'),
    );
    const secondCalls = probe.report();
    console.log(`  event store calls: ${secondCalls.text}`);

    const raw = await peer(pool);
    console.log(
      `Peer, raw PostgreSQL: ${fmt(raw.invoices)} invoice rows and ${fmt(raw.events)} event rows written set-based in one transaction in ` +
        `${raw.seconds.toFixed(2)} s; our first run / peer = ${(firstSeconds / raw.seconds).toFixed(1)}×`,
    );
    console.log(`Load average after: ${load()}`);
    run.write({
      activeLeases: leaseCount,
      seedEvents: appended,
      seedSeconds,
      readModelBuildSeconds: rebuildSeconds,
      firstRun: {
        invoicesIssued: first.issued,
        expectedInvoices: leaseCount,
        seconds: firstSeconds,
        invoicesPerSecond: rate,
        thisProcessCpuSeconds: firstCpu,
        billingDates: first.dates,
        lateFeesCharged: first.lateFees,
        invoicesOverdue: first.overdue,
        leasesSkipped: first.skipped,
        eventStoreCalls: firstCalls.byKind,
      },
      projectorCatchUp: { events: projected, seconds: catchUpSeconds },
      secondRun: { invoicesIssued: second.issued, seconds: secondSeconds, thisProcessCpuSeconds: secondCpu, eventStoreCalls: secondCalls.byKind },
      peerRawPostgres: { invoiceRows: raw.invoices, eventRows: raw.events, seconds: raw.seconds, firstRunOverPeer: firstSeconds / raw.seconds },
      target: { dayUnderSeconds: TARGET_SECONDS, met: firstSeconds < TARGET_SECONDS },
    });
    // One invoice per lease, then none: correctness, whatever BENCH_TARGETS says.
    if (first.issued !== leaseCount || second.issued !== 0) process.exitCode = 1;
    else if (firstSeconds >= TARGET_SECONDS) targetMissed();
  } finally {
    await store?.close();
    await pool?.end();
    if (values.keep) console.log(`Kept the database ${name}`);
    else await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
}

await main();

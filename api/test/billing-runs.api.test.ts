import { randomUUID } from 'node:crypto';
import { BillingRun } from '@storage/contracts/billing';
import { streams } from '@storage/contracts/events';
import { InvoiceDetail } from '@storage/contracts/invoices';
import { generateInvoice } from '@storage/domain/invoices/commands';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

describe('billing runs API and invoice lines', () => {
  let platform: TestPlatform;
  let cookie: string;
  let riverside: { id: string; name: string };
  let oakHill: { id: string; name: string };
  const inject = (method: 'GET' | 'POST', url: string, payload?: unknown, as = cookie) =>
    platform.api.app.inject({ method, url, payload: payload as object, headers: { cookie: as } });

  /** A run as the engine records it: billing_run_completed on the run's own stream, at the time given. */
  const recordRun = async (facilityId: string | null, billingDate: string, ranAt: string, counts: Partial<{ issued: number; skipped: number }> = {}) => {
    const runId = randomUUID();
    const skipped = Array.from({ length: counts.skipped ?? 0 }, (_, i) => ({ leaseId: randomUUID(), reason: `Lease ${i + 1} has no rent` }));
    const { position } = await platform.api.store.append(
      streams.billingDay(facilityId, billingDate),
      [
        {
          id: randomUUID(),
          type: 'billing_run_completed',
          data: { runId, facilityId, billingDate, invoicesIssued: counts.issued ?? 0, lateFeesCharged: 1, invoicesOverdue: 2, skipped },
          metadata: { actor: { type: 'system' }, correlationId: randomUUID(), causationId: null, schemaVersion: 1, occurredAt: ranAt },
        },
      ],
      { expectedRevision: 'any' },
    );
    expect(await platform.api.afterAppend(position, 15_000)).toBe(true);
    return runId;
  };

  const addFacility = async (name: string) => {
    const response = await inject('POST', '/api/facilities', {
      name: `${name} ${randomUUID().slice(0, 6)}`,
      address: '1 Main St',
      timeZone: 'America/Los_Angeles',
    });
    expect(response.statusCode).toBe(201);
    return response.json() as { id: string; name: string };
  };

  beforeAll(async () => {
    platform = await startTestPlatform();
    cookie = await platform.signIn('owner');
    riverside = await addFacility('Riverside');
    oakHill = await addFacility('Oak Hill');
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('answers 401 when signed out, and an empty list for a facility with no run', async () => {
    expect((await platform.api.app.inject({ method: 'GET', url: '/api/billing-runs' })).statusCode).toBe(401);
    const quiet = await addFacility('Quiet');
    const empty = await inject('GET', `/api/billing-runs?facilityId=${quiet.id}`);
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual([]);
    expect(empty.headers['x-total-count']).toBe('0');
  });

  it('lists the runs newest first with the facility name, one facility with facilityId, a page at a time', async () => {
    // The scheduler's own first run (at start) is older than these: they lead the list.
    const before = Number((await inject('GET', '/api/billing-runs')).headers['x-total-count']);
    const first = await recordRun(riverside.id, '2030-11-01', '2030-11-01T08:00:05.000Z', { issued: 12 });
    const second = await recordRun(oakHill.id, '2030-11-01', '2030-11-01T06:00:07.000Z', { issued: 3, skipped: 2 });
    const third = await recordRun(riverside.id, '2030-11-02', '2030-11-02T08:00:04.000Z');

    const all = await inject('GET', '/api/billing-runs');
    expect(all.statusCode).toBe(200);
    const runs = z.array(BillingRun).parse(all.json());
    expect(runs.slice(0, 3).map((r) => r.id)).toEqual([third, first, second]);
    expect(all.headers['x-total-count']).toBe(String(before + 3));
    expect(runs[2]).toEqual({
      id: second,
      facilityId: oakHill.id,
      facilityName: oakHill.name,
      billingDate: '2030-11-01',
      ranAt: expect.any(String),
      invoicesIssued: 3,
      lateFeesCharged: 1,
      invoicesOverdue: 2,
      skipped: [
        { leaseId: expect.any(String), reason: 'Lease 1 has no rent' },
        { leaseId: expect.any(String), reason: 'Lease 2 has no rent' },
      ],
    });
    expect(Date.parse(runs[2]!.ranAt)).toBe(Date.parse('2030-11-01T06:00:07.000Z'));

    const scoped = await inject('GET', `/api/billing-runs?facilityId=${riverside.id}`);
    const scopedIds: string[] = scoped.json().map((r: BillingRun) => r.id);
    expect(scopedIds.slice(0, 2)).toEqual([third, first]);
    expect(scopedIds).not.toContain(second);
    expect(scoped.json().every((r: BillingRun) => r.facilityId === riverside.id)).toBe(true);

    const secondPage = await inject('GET', '/api/billing-runs?page=2&pageSize=2');
    expect(secondPage.json()[0].id).toBe(second);
    expect(secondPage.headers['x-total-count']).toBe(String(before + 3));
  });

  it('refuses a bad facilityId or page with 400 naming it', async () => {
    for (const [query, field] of [
      ['facilityId=riverside', 'facilityId'],
      ['page=0', 'page'],
      ['pageSize=500', 'pageSize'],
      ['sort=ranAt', 'sort'],
    ] as const) {
      const response = await inject('GET', `/api/billing-runs?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().field, query).toBe(field);
    }
  });

  it('lets every staff role read the history', async () => {
    for (const role of ['manager', 'clerk', 'auditor'] as const) {
      const session = await platform.signIn(role);
      expect((await inject('GET', '/api/billing-runs', undefined, session)).statusCode, role).toBe(200);
    }
  });

  it("shows an invoice's lines in its detail, with their periods; an invoice typed in has its amount as one line", async () => {
    const customer = await inject('POST', '/api/customers', {
      firstName: 'Rachel',
      lastName: 'Martinez',
      email: `rachel-${randomUUID().slice(0, 6)}@example.com`,
    });
    expect(customer.statusCode).toBe(201);
    const customerId = customer.json().id;
    const lines = [
      { kind: 'prorated_rent' as const, description: 'Rent, Nov 20 – Nov 30, 2026', amount: '36.67', periodStart: '2026-11-20', periodEnd: '2026-11-30' },
      { kind: 'deposit' as const, description: 'Deposit', amount: '50.00', periodStart: null, periodEnd: null },
      { kind: 'admin_fee' as const, description: 'Admin fee', amount: '20.00', periodStart: null, periodEnd: null },
    ];
    const ctx = { store: platform.api.store, actor: { type: 'system' as const }, correlationId: randomUUID(), now: new Date() };
    const invoiceId = randomUUID();
    const generated = await generateInvoice(
      ctx,
      {
        invoiceNumber: `INV-${randomUUID().slice(0, 6)}`,
        customerId,
        leaseId: null,
        amount: '106.67',
        dueDate: '2026-11-20',
        status: 'sent',
        description: 'Move-in',
        lines,
      },
      invoiceId,
    );
    expect(await platform.api.afterAppend(generated.position!, 15_000)).toBe(true);
    const detail = InvoiceDetail.parse((await inject('GET', `/api/invoices/${invoiceId}`)).json());
    expect(detail.lines).toEqual(lines);
    expect(detail.amount).toBe('106.67');

    // The late fee the engine adds: a line of its own, and the invoice's history and the audit log say so.
    const fee = { kind: 'late_fee', description: 'Late fee', amount: '25.00', periodStart: null, periodEnd: null };
    const added = await platform.api.store.append(
      streams.invoice(invoiceId),
      [
        {
          id: randomUUID(),
          type: 'invoice_line_added',
          data: { invoiceId, customerId, line: fee, amount: '131.67' },
          metadata: { actor: { type: 'system' }, correlationId: randomUUID(), causationId: null, schemaVersion: 1, occurredAt: new Date().toISOString() },
        },
      ],
      { expectedRevision: 'any' },
    );
    expect(await platform.api.afterAppend(added.position, 15_000)).toBe(true);
    const withFee = InvoiceDetail.parse((await inject('GET', `/api/invoices/${invoiceId}`)).json());
    expect(withFee.lines).toEqual([...lines, fee]);
    expect(withFee.amount).toBe('131.67');
    expect(withFee.history.map((h) => h.description)).toContain(`Late fee of $25.00 added to ${withFee.invoiceNumber}`);
    const audit = (await inject('GET', `/api/audit/events?type=invoice_line_added&stream=invoice-${invoiceId}`)).json();
    expect(audit.map((e: { description: string }) => e.description)).toEqual([`Late fee of $25.00 added to ${withFee.invoiceNumber}`]);

    const typedIn = await inject('POST', '/api/invoices', {
      invoiceNumber: `INV-${randomUUID().slice(0, 6)}`,
      customerId,
      amount: '45.00',
      dueDate: '2026-12-01',
      description: 'Lock cut',
    });
    expect(typedIn.statusCode).toBe(201);
    const typedDetail = InvoiceDetail.parse((await inject('GET', `/api/invoices/${typedIn.json().id}`)).json());
    expect(typedDetail.lines).toEqual([{ kind: 'adjustment', description: 'Lock cut', amount: '45.00', periodStart: null, periodEnd: null }]);
  });
});

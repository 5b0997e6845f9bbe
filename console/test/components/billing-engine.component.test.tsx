import { BillingRun } from '@storage/contracts/billing';
import { InvoiceDetail } from '@storage/contracts/invoices';
import { answer, answerPage } from '@storage/testing/component-api';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BillingRunsTable } from '../../src/features/billing-runs/components/billing-runs-table.tsx';
import { InvoiceDetailDrawer } from '../../src/features/invoices/components/invoice-detail-drawer.tsx';
import { FACILITIES, renderConsole } from './render.tsx';

// What the billing engine leaves for staff to read, line by line: an invoice's lines (their kinds,
// periods and the total) in its details, and the billing-run history (each run's counts, the leases
// it skipped and why, the facility in scope asked for, and an empty history). That the engine's
// own events show there is billing-engine.e2e.test.ts.

const [riverside, harbor] = FACILITIES as [(typeof FACILITIES)[0], (typeof FACILITIES)[0]];

describe("an invoice's lines in its details", () => {
  const invoiceId = '3b2a1c0d-9e8f-4a7b-8c6d-5e4f3a2b1c0d';
  const customerId = '1f2e3d4c-5b6a-4978-8a9b-0c1d2e3f4a5b';
  const detail: InvoiceDetail = {
    id: invoiceId,
    invoiceNumber: 'INV-LINES-1',
    customerId,
    leaseId: null,
    amount: '165.00',
    dueDate: '2026-12-01',
    paidDate: null,
    status: 'sent',
    description: 'Rent for December',
    createdAt: '2026-11-24T08:00:00.000Z',
    updatedAt: '2026-11-24T08:00:00.000Z',
    customer: { id: customerId, facilityId: riverside.id, email: 'ada@example.test', firstName: 'Ada', lastName: 'Brooks' },
    lines: [
      { kind: 'rent', description: 'Unit A-101 rent', amount: '120.00', periodStart: '2026-12-01', periodEnd: '2026-12-31' },
      { kind: 'late_fee', description: 'Late fee', amount: '25.00', periodStart: null, periodEnd: null },
      { kind: 'admin_fee', description: 'Admin fee', amount: '20.00', periodStart: null, periodEnd: null },
    ],
    payments: [],
    history: [],
  };

  it('lists each line with its kind, its period (— without one) and amount, then the total', async () => {
    renderConsole(<InvoiceDetailDrawer invoiceId={invoiceId} onClose={() => undefined} />, {
      path: '/billing',
      api: [answer('get', `/api/invoices/${invoiceId}`, InvoiceDetail, detail)],
    });
    const lines = await screen.findAllByTestId('invoice-line');
    expect(lines.map((line) => line.textContent)).toEqual([
      'Unit A-101 rentRentDec 1 – Dec 31, 2026$120.00',
      'Late feeLate fee—$25.00',
      'Admin feeAdmin fee—$20.00',
    ]);
    expect(screen.getByTestId('invoice-lines-total').textContent).toBe('Total$165.00');
  });
});

describe('the billing-run history', () => {
  const runs: BillingRun[] = [
    {
      id: 'run-harbor',
      facilityId: harbor.id,
      facilityName: harbor.name,
      billingDate: '2030-11-27',
      ranAt: '2030-11-27T08:00:03.000Z',
      invoicesIssued: 17,
      lateFeesCharged: 2,
      invoicesOverdue: 3,
      skipped: [],
    },
    {
      id: 'run-riverside',
      facilityId: riverside.id,
      facilityName: riverside.name,
      billingDate: '2030-11-26',
      ranAt: '2030-11-26T08:00:03.000Z',
      invoicesIssued: 41,
      lateFeesCharged: 2,
      invoicesOverdue: 3,
      skipped: [
        { leaseId: 'a1b2c3d4-0000-4000-8000-000000000001', reason: 'The lease has no monthly rent' },
        { leaseId: 'a1b2c3d4-0000-4000-8000-000000000002', reason: 'The lease ended before the period' },
      ],
    },
  ];

  it('shows each run as the server orders them, with the skipped leases and why behind their count', async () => {
    const { user } = renderConsole(<BillingRunsTable />, { path: '/billing?view=runs', api: [answerPage('/api/billing-runs', BillingRun, runs)] });
    const rows = await screen.findAllByTestId('billing-run-row');
    expect(rows).toHaveLength(2);
    for (const text of ['Harbor Point Storage', 'Nov 27, 2030', '17']) expect(rows[0]!.textContent).toContain(text);
    for (const text of ['Riverside Self Storage', 'Nov 26, 2030', '41']) expect(rows[1]!.textContent).toContain(text);
    const skipped = rows[1]!.querySelector('details')!;
    expect(skipped.open).toBe(false);
    await user.click(within(skipped).getByText('2'));
    expect(skipped.open).toBe(true);
    within(skipped).getByText(/The lease has no monthly rent/);
    within(skipped).getByText(/The lease ended before the period/);
    expect(rows[0]!.querySelector('details')).toBeNull();
  });

  it('asks for the runs of the facility in the header’s scope', async () => {
    const history = answerPage('/api/billing-runs', BillingRun, [runs[0]!]);
    renderConsole(<BillingRunsTable />, { path: `/billing?view=runs&facility=${harbor.id}`, api: [history] });
    await screen.findAllByTestId('billing-run-row');
    expect(history.sent[0]!.search.get('facilityId')).toBe(harbor.id);
  });

  it('says so when nothing has run yet (a new install, a facility just added)', async () => {
    renderConsole(<BillingRunsTable />, { path: '/billing?view=runs', api: [answerPage('/api/billing-runs', BillingRun, [])] });
    await screen.findByText('No billing runs yet');
    expect(screen.queryByTestId('billing-run-row')).toBeNull();
  });
});

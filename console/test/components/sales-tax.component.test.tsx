import { BillingSettingsAnswer, defaultBillingSettings, UpdateBillingSettingsRequest } from '@storage/contracts/billing';
import { SalesTaxReport as SalesTaxReportAnswer } from '@storage/contracts/reports';
import { answer } from '@storage/testing/component-api';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SalesTaxReport } from '../../src/features/reports/components/ledger-reports.tsx';
import { BillingSettingsCard } from '../../src/features/settings/components/billing-settings-card.tsx';
import { FACILITIES, fill, renderConsole } from './render.tsx';

// Sales tax: its section of the Billing settings card (per facility scope, read-only for roles that
// may not change billing settings), and its card on the Reports screen.

const riverside = FACILITIES[0]!;
const own = { ...defaultBillingSettings, salesTax: { rent: '8.875', adminFee: '0', lateFee: '0', merchandise: '0' } };
const card = async () => within((await screen.findByText('Billing', { selector: '.ant-card-head-title *' })).closest('.ant-card') as HTMLElement);

describe('the Billing settings card: Sales Tax', () => {
  it("shows the facility's rates, refuses a rate over 25% and saves the rates with its own settings", async () => {
    const scoped = answer('get', '/api/settings/billing', BillingSettingsAnswer, { business: null, facility: own, effective: own });
    const saved = answer('put', '/api/settings/billing', BillingSettingsAnswer, { business: null, facility: own, effective: own });
    const { user } = renderConsole(<BillingSettingsCard canChange />, { path: `/settings?facility=${riverside.id}`, api: [scoped, saved] });
    const billing = await card();
    await billing.findByText('Sales Tax');
    expect((await billing.findByLabelText('Tax on Rent')).getAttribute('value')).toBe('8.875');
    await fill(user, billing.getByLabelText('Tax on the Late Fee'), '30');
    await user.click(billing.getByRole('button', { name: 'Save Billing Settings' }));
    await billing.findByText('Tax on the late fee must be at most 25');
    expect(saved.sent).toHaveLength(0);

    await fill(user, billing.getByLabelText('Tax on the Late Fee'), '1.5');
    await fill(user, billing.getByLabelText('Tax on the Admin Fee'), '');
    await user.click(billing.getByRole('button', { name: 'Save Billing Settings' }));
    await screen.findByText('Billing settings saved successfully');
    const body = UpdateBillingSettingsRequest.parse(saved.sent[0]!.body);
    expect(body.facilityId).toBe(riverside.id);
    expect(body.settings?.salesTax).toEqual({ rent: '8.875', adminFee: '0', lateFee: '1.5', merchandise: '0' });
  });

  it('is read-only for a role that may not change billing settings', async () => {
    const scoped = answer('get', '/api/settings/billing', BillingSettingsAnswer, { business: own, facility: null, effective: own });
    renderConsole(<BillingSettingsCard canChange={false} />, { role: 'clerk', path: '/settings', api: [scoped] });
    const billing = await card();
    for (const label of ['Tax on Rent', 'Tax on the Admin Fee', 'Tax on the Late Fee']) {
      expect((await billing.findByLabelText(label)).hasAttribute('disabled')).toBe(true);
    }
    expect(billing.queryByRole('button', { name: 'Save Billing Settings' })).toBeNull();
  });
});

describe('the Sales Tax report card', () => {
  const report = {
    from: '2026-03-01',
    to: '2026-03-31',
    rows: [
      { facilityId: riverside.id, facility: riverside.name, kind: 'rent', kindLabel: 'Rent', billed: '1000.00', taxable: '1000.00', tax: '88.75' },
      { facilityId: riverside.id, facility: riverside.name, kind: 'admin_fee', kindLabel: 'Admin fee', billed: '40.00', taxable: '20.00', tax: '1.00' },
    ],
    totals: { billed: '1040.00', taxable: '1020.00', tax: '89.75' },
  };

  it('shows billed, taxable and tax per facility and charge with the total, for the days chosen, and downloads the same as CSV', async () => {
    const taxes = answer('get', '/api/reports/sales-tax', SalesTaxReportAnswer, report);
    renderConsole(<SalesTaxReport facilityId={riverside.id} />, { path: '/reports', api: [taxes] });
    const card = within(await screen.findByTestId('sales-tax-report'));
    const rows = await card.findAllByTestId('sales-tax-row');
    expect(rows.map((row) => row.textContent)).toEqual([
      `${riverside.name}Rent$1,000.00$1,000.00$88.75`,
      `${riverside.name}Admin fee$40.00$20.00$1.00`,
      'TotalAll charges$1,040.00$1,020.00$89.75',
    ]);
    expect(taxes.sent[0]!.search.get('facilityId')).toBe(riverside.id);
    expect(card.getByRole('link', { name: 'Download Sales Tax as CSV' }).getAttribute('href')).toBe(
      `/api/reports/sales-tax.csv?facilityId=${riverside.id}&from=2026-03-01&to=2026-03-31`,
    );
    card.getByText(/not revenue/);
    // jsdom types no keys into a date input: the change a picked day makes.
    fireEvent.change(card.getByLabelText('From'), { target: { value: '2026-02-01' } });
    await waitFor(() => expect(taxes.sent.at(-1)!.search.get('from')).toBe('2026-02-01'));
  });

  it('says when nothing taxable was issued', async () => {
    const none = answer('get', '/api/reports/sales-tax', SalesTaxReportAnswer, {
      ...report,
      rows: [],
      totals: { billed: '0.00', taxable: '0.00', tax: '0.00' },
    });
    renderConsole(<SalesTaxReport facilityId={null} />, { path: '/reports', api: [none] });
    await screen.findByText('No taxable charges issued in these days');
  });
});

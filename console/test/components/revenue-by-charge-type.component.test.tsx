import { RevenueByChargeType, type RevenueByChargeTypeRow } from '@storage/contracts/reports';
import { answer } from '@storage/testing/component-api';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { RevenueByChargeTypeReport } from '../../src/features/reports/components/ledger-reports.tsx';
import { renderConsole } from './render.tsx';

// Revenue by Charge Type shows protection premiums, promotions' discounts and merchandise in
// columns of their own, each month and in the total.

const zero = '0.00';
const month = (changes: Partial<RevenueByChargeTypeRow>): RevenueByChargeTypeRow => ({
  month: '2026-02',
  rent: zero,
  proratedRent: zero,
  deposit: zero,
  adminFee: zero,
  lateFee: zero,
  credit: zero,
  adjustment: zero,
  protection: zero,
  discount: zero,
  merchandise: zero,
  charged: zero,
  tax: zero,
  voided: zero,
  writtenOff: zero,
  net: zero,
  ...changes,
});

describe('the Revenue by Charge Type report', () => {
  it('shows Protection, Promotions and Merchandise beside the other kinds', async () => {
    const february = month({ proratedRent: '81.43', protection: '12.00', discount: '-40.72', merchandise: '15.00', charged: '67.71', net: '67.71' });
    const { month: _month, ...totals } = february;
    renderConsole(<RevenueByChargeTypeReport facilityId={null} />, {
      api: [answer('get', '/api/reports/revenue-by-charge-type', RevenueByChargeType, { rows: [february], totals })],
    });
    const table = await screen.findByRole('table', { name: 'Revenue by charge type per month' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((header) => header.textContent);
    expect(headers.slice(headers.indexOf('Adjustment'), headers.indexOf('Charged') + 1)).toEqual([
      'Adjustment',
      'Protection',
      'Promotions',
      'Merchandise',
      'Charged',
    ]);
    const row = (await within(table).findByText('Feb 2026')).closest('tr')!;
    const cells = within(row)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    const at = (header: string) => cells[headers.indexOf(header)];
    expect([at('Protection'), at('Promotions'), at('Merchandise'), at('Charged')]).toEqual(['$12.00', '-$40.72', '$15.00', '$67.71']);
  });
});

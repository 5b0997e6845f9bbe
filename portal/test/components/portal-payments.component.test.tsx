import { PortalPayment } from '@storage/contracts/payments';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PaymentList } from '../../src/features/portal/payment-list.tsx';

// The renter's payments on the Bills & Payments tab: each row says when, how much, how and what it
// paid, and links its receipt; a payment staff gave back says so.

const desk = PortalPayment.parse({
  id: '6f1c2a4e-1d2b-4c3d-9e8f-7a6b5c4d3e2f',
  paidDate: '2026-03-05',
  amount: '120.00',
  method: 'cash',
  methodLabel: 'Cash',
  applied: [
    { invoiceId: '9b4c7d2f-2e3a-4b6c-8d9e-8f7a6b5c4d3e', invoiceNumber: 'INV-1001', description: 'Rent Mar 1 – Mar 31, 2026', amount: '60.00' },
    { invoiceId: '1a2b3c4d-2e3a-4b6c-8d9e-8f7a6b5c4d3e', invoiceNumber: 'INV-1002', description: null, amount: '40.00' },
  ],
  credited: '20.00',
  refunded: '0.00',
  status: 'paid',
  statusLabel: 'Paid',
  receiptUrl: '/api/customer/payments/6f1c2a4e-1d2b-4c3d-9e8f-7a6b5c4d3e2f/receipt.pdf',
});

const refunded = PortalPayment.parse({
  ...desk,
  id: '0d9e8f7a-1d2b-4c3d-9e8f-7a6b5c4d3e2f',
  paidDate: '2026-04-02',
  amount: '50.00',
  method: 'card',
  methodLabel: 'Card',
  applied: [{ invoiceId: desk.applied[0]!.invoiceId, invoiceNumber: 'INV-1003', description: 'Rent Apr 1 – Apr 30, 2026', amount: '50.00' }],
  credited: '0.00',
  refunded: '50.00',
  status: 'refunded',
  statusLabel: 'Refunded',
  receiptUrl: '/api/customer/payments/0d9e8f7a-1d2b-4c3d-9e8f-7a6b5c4d3e2f/receipt.pdf',
});

describe('the renter’s payments', () => {
  it('lists each payment with its date, amount, method, what it paid, its standing and its receipt', () => {
    render(<PaymentList payments={[refunded, desk]} />);
    const table = screen.getByRole('table', { name: 'Payments' });
    const rows = within(table).getAllByTestId('portal-payment');
    expect(rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent))).toEqual([
      ['Apr 2, 2026', '$50.00', 'Card', 'Invoice INV-1003 (Rent Apr 1 – Apr 30, 2026)', 'Refunded', 'Download receipt'],
      [
        'Mar 5, 2026',
        '$120.00',
        'Cash',
        'Invoice INV-1001 (Rent Mar 1 – Mar 31, 2026) $60.00; Invoice INV-1002 $40.00; $20.00 kept as credit',
        'Paid',
        'Download receipt',
      ],
    ]);
    const receipt = screen.getByRole('link', { name: 'Download receipt, $120.00 paid Mar 5, 2026' });
    expect(receipt.getAttribute('href')).toBe(desk.receiptUrl);
    expect(receipt.hasAttribute('download')).toBe(true);
  });

  it('says so when nothing has been paid', () => {
    render(<PaymentList payments={[]} />);
    expect(screen.getByRole('heading', { name: 'Payments' })).toBeTruthy();
    expect(screen.getByText('No payments yet.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });
});

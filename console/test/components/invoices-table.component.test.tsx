import { InvoiceListItem } from '@storage/contracts/invoices';
import { answerPage, neverAnswer, refuse } from '@storage/testing/component-api';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import BillingPage from '../../src/app/routes/billing.tsx';
import { renderConsole } from './render.tsx';

// Billing's All Invoices table: its rows, and what it says while loading, when empty and on failure;
// who may create an invoice. Sorting and paging through the URL are the browser's (list-views).

const invoice = (invoiceNumber: string, extra: Partial<InvoiceListItem> = {}): InvoiceListItem => ({
  id: crypto.randomUUID(),
  invoiceNumber,
  customerId: '0f1e2d3c-4b5a-4697-8887-766554433221',
  leaseId: null,
  amount: '120.00',
  dueDate: '2025-02-01',
  paidDate: null,
  status: 'sent',
  description: null,
  createdAt: '2025-01-27T10:00:00.000Z',
  updatedAt: '2025-01-27T10:00:00.000Z',
  customer: { id: '0f1e2d3c-4b5a-4697-8887-766554433221', facilityId: null, email: 'grace.hopper@example.com', firstName: 'Grace', lastName: 'Hopper' },
  ...extra,
});

describe('All Invoices', () => {
  it('shows a row per invoice with its customer, amount, status and due date, and the count', async () => {
    renderConsole(<BillingPage />, {
      path: '/billing',
      api: [answerPage('/api/invoices', InvoiceListItem, [invoice('INV-0001'), invoice('INV-0002', { amount: '1234.50', status: 'overdue' })])],
    });
    const rows = await screen.findAllByTestId('invoice-row');
    expect(rows).toHaveLength(2);
    const second = within(rows[1]!);
    second.getByText('INV-0002');
    second.getByRole('link', { name: 'Grace Hopper' });
    second.getByText('$1,234.50');
    second.getByText('Overdue');
    second.getByText('Feb 1, 2025');
    expect(screen.getByTestId('invoice-count').textContent).toBe('2 invoices');
  });

  it('says No invoices found when there are none', async () => {
    renderConsole(<BillingPage />, { path: '/billing', api: [answerPage('/api/invoices', InvoiceListItem, [])] });
    await screen.findByText('No invoices found');
    expect(screen.queryByTestId('invoice-row')).toBeNull();
  });

  it('shows five placeholder rows while the invoices load', async () => {
    renderConsole(<BillingPage />, { path: '/billing', api: [neverAnswer('get', '/api/invoices')] });
    await screen.findAllByTestId('invoice-placeholder-row');
    expect(screen.getAllByTestId('invoice-placeholder-row')).toHaveLength(5);
  });

  it("says the invoices could not load, in the server's words", async () => {
    renderConsole(<BillingPage />, {
      path: '/billing',
      api: [refuse('get', '/api/invoices', 400, { message: 'status: must be one of draft, sent, paid, overdue, void', field: 'status' })],
    });
    await screen.findByText('Could not load invoices');
    await screen.findByText('status: must be one of draft, sent, paid, overdue, void');
  });

  it('offers a clerk Create Invoice', async () => {
    renderConsole(<BillingPage />, { role: 'clerk', path: '/billing', api: [answerPage('/api/invoices', InvoiceListItem, [])] });
    await screen.findByRole('button', { name: /Create Invoice/ });
  });

  it('offers an auditor no Create Invoice', async () => {
    renderConsole(<BillingPage />, { role: 'auditor', path: '/billing', api: [answerPage('/api/invoices', InvoiceListItem, [invoice('INV-0001')])] });
    await screen.findByTestId('invoice-row');
    expect(screen.queryByRole('button', { name: /Create Invoice/ })).toBeNull();
  });
});

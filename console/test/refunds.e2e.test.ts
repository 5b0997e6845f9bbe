import type { InvoiceDetail, InvoiceListItem } from '@storage/contracts/invoices';
import type { Ledger } from '@storage/contracts/ledger';
import { expectAccessible } from '@storage/testing/axe';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { demoStaffScreens } from './staff-browser.ts';

// A refund in Chromium on the demo data: from a paid invoice's drawer on the customer page, the
// owner refunds part of a payment with a reason; the invoice is owed again, and the Statement tab
// shows the refund in the renter's words.

describe('Refund a payment from the invoice drawer', { timeout: 120_000 }, () => {
  const demo = demoStaffScreens();

  const get = async <T>(page: Page, path: string): Promise<T> => (await page.request.get(`${demo.product.baseUrl}${path}`)).json() as Promise<T>;

  /** A paid invoice on the first page of its customer's invoices, with a payment of money (not credit) to refund. */
  async function paidInvoice(page: Page) {
    const paid = await get<InvoiceListItem[]>(page, '/api/invoices?status=paid&pageSize=50');
    for (const invoice of paid) {
      const detail = await get<InvoiceDetail>(page, `/api/invoices/${invoice.id}`);
      const payment = detail.payments.find((p) => p.status === 'completed' && p.method !== 'account_credit' && p.amountRefunded === '0.00');
      if (!payment || Number(payment.amount) < 5) continue;
      const firstPage = await get<InvoiceListItem[]>(page, `/api/invoices?customerId=${invoice.customer.id}&pageSize=20`);
      if (firstPage.some((i) => i.id === invoice.id)) return { invoice, payment };
    }
    throw new Error('The demo has no paid invoice with a payment to refund');
  }

  it('refunds 5.00 of a payment with a reason: the invoice reopens and the statement shows the refund', async () => {
    const page = await demo.wide.newPage();
    const { invoice, payment } = await paidInvoice(page);
    await page.goto(`${demo.product.baseUrl}/customers/${invoice.customer.id}`);
    await page.getByRole('tab', { name: 'Invoices' }).click();
    const row = page.getByTestId('customer-invoice-row').filter({ hasText: invoice.invoiceNumber });
    await row.getByRole('button', { name: 'View' }).click();
    const drawer = page.locator('.invoice-detail-drawer');
    await drawer.getByText(`Invoice ${invoice.invoiceNumber}`, { exact: true }).waitFor();
    const paymentRow = drawer.getByTestId('invoice-payment-row').filter({ has: page.getByRole('button', { name: /^Refund the payment/ }) });
    await paymentRow
      .first()
      .getByRole('button', { name: /^Refund the payment/ })
      .click();

    const dialog = page.getByRole('dialog', { name: 'Refund Payment' });
    expect(await dialog.getByLabel('Amount').inputValue()).toBe(payment.amount);
    await dialog.getByRole('button', { name: 'Refund' }).click();
    await dialog.getByText('Reason is required').waitFor();
    await dialog.getByLabel('Amount').fill('5.00');
    await dialog.getByLabel('Reason').fill('Gate code did not work for two days');
    await expectAccessible(page, 'Refund Payment dialog');
    await demo.product.screenshot(page, 'refund-payment-1440');
    await dialog.getByRole('button', { name: 'Refund' }).click();
    await page.getByText('Refund of $5.00 recorded').waitFor();
    await dialog.waitFor({ state: 'hidden' });

    // The drawer follows: the refund's own row, and the invoice owed again.
    await drawer.getByTestId('invoice-payment-row').filter({ hasText: 'Refunded' }).first().waitFor();
    await drawer.getByTestId('invoice-payment-row').filter({ hasText: 'Completed, $5.00 refunded' }).waitFor();
    await drawer.getByText(/^Refund of \$5\.00 by .+: Gate code did not work for two days \(the invoice is now (sent|overdue)\)$/).waitFor();
    const after = await get<InvoiceDetail>(page, `/api/invoices/${invoice.id}`);
    expect(['sent', 'overdue']).toContain(after.status);
    expect(after.payments.find((p) => p.id === payment.id)?.amountRefunded).toBe('5.00');

    await page.keyboard.press('Escape');
    await drawer.locator('.ant-drawer-content-wrapper').waitFor({ state: 'hidden' });
    await page.getByRole('tab', { name: 'Statement' }).click();
    const refundRow = page.getByTestId('statement-row').filter({ hasText: 'Gate code did not work for two days' });
    await refundRow.waitFor();
    expect(await refundRow.textContent()).toContain('Refund');
    expect(await refundRow.textContent()).toContain('$5.00');
    const ledger = await get<Ledger>(page, `/api/customers/${invoice.customer.id}/ledger`);
    expect(ledger.entries.filter((e) => e.kind === 'refund' && e.amount === '5.00')).toHaveLength(1);
    await page.close();
  });
});

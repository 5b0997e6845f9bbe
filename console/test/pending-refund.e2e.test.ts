import { randomUUID } from 'node:crypto';
import { streams } from '@storage/contracts/events';
import type { CommandContext } from '@storage/domain/commands/handle';
import { addCustomer } from '@storage/domain/customers/commands';
import { generateInvoice, sendInvoice } from '@storage/domain/invoices/commands';
import { recordIntentPayment } from '@storage/domain/payments/record';
import { refundPayment } from '@storage/domain/payments/refunds';
import type { Position } from '@storage/eventstore/port';
import type { PaymentProvider } from '@storage/platform/payments/provider';
import { createTestProvider } from '@storage/platform/payments/test-provider';
import { type ProductUnderTest, startProductUnderTest } from '@storage/testing/browser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, signedInContext } from './staff-browser.ts';

// A card refund the provider made but our records have not issued yet (a crash between the two)
// shows in the invoice drawer as "Refund pending" beside the payment, until the reconciliation
// finishes it.

describe('A pending card refund in the invoice drawer', { timeout: 120_000 }, () => {
  let product: ProductUnderTest;
  beforeAll(async () => {
    product = await startProductUnderTest();
  }, 240_000);
  afterAll(async () => {
    await product?.close();
  });

  it('shows "Refund pending" on the refund of a card payment whose record was interrupted', async () => {
    const { api } = product.platform;
    const ctx = (): CommandContext => ({ store: api.store, actor: { type: 'system' }, correlationId: randomUUID(), now: new Date() });
    const settle = async (result: { position: Position | null }) => {
      if (result.position) await api.afterAppend(result.position, 10_000);
    };
    const tag = randomUUID().slice(0, 8);
    const customer = await addCustomer(ctx(), {
      firstName: 'Petra',
      lastName: `Pending${tag}`,
      email: `petra-${tag}@example.com`,
      phone: null,
      address: null,
      emergencyContact: null,
      emergencyPhone: null,
      status: 'active',
      facilityId: null,
    });
    await settle(customer);
    if (customer.state.status === 'none') throw new Error('no customer');
    const customerId = customer.state.customerId;
    const invoiceNumber = `INV-PR-${tag}`;
    const made = await generateInvoice(ctx(), {
      invoiceNumber,
      customerId,
      leaseId: null,
      amount: '90.00',
      dueDate: '2099-01-01',
      status: 'draft',
      description: 'Rent',
    });
    if (made.state.status === 'none') throw new Error('no invoice');
    const invoiceId = made.state.invoiceId;
    await settle(await sendInvoice(ctx(), invoiceId));
    const provider = createTestProvider(api.pool);
    const nextYear = String((new Date().getUTCFullYear() + 1) % 100).padStart(2, '0');
    const intent = await provider.createIntent({ amount: '90.00', invoiceId, customerId, customerEmail: 'petra@example.com' });
    await provider.confirmIntent(intent.id, { cardNumber: '4242 4242 4242 4242', expiry: `12/${nextYear}`, cvc: '123' }, new Date());
    await settle(await recordIntentPayment(ctx(), api.pool, provider, { paymentIntentId: intent.id }));
    const paymentId = (await api.store.readStream(streams.invoice(invoiceId))).find((e) => e.type === 'payment_received')!.data.paymentId as string;
    const crashing: PaymentProvider = {
      ...provider,
      async refund(...args: Parameters<PaymentProvider['refund']>) {
        await provider.refund(...args);
        throw new Error('process stopped');
      },
    };
    await refundPayment(ctx(), api.pool, crashing, paymentId, { amount: '25.00', reason: 'Gate broken' }).catch(() => undefined);
    const requested = (await api.store.readStream(streams.invoice(invoiceId))).filter((e) => e.type === 'payment_refund_requested');
    if (requested.length !== 1) throw new Error('the refund was not requested');

    const context = await signedInContext(product, DESKTOP);
    const page = await context.newPage();
    await page.goto(`${product.baseUrl}/customers/${customerId}`);
    await page.getByRole('tab', { name: 'Invoices' }).click();
    await page.getByTestId('customer-invoice-row').filter({ hasText: invoiceNumber }).getByRole('button', { name: 'View' }).click();
    const drawer = page.locator('.invoice-detail-drawer');
    await drawer.getByText(`Invoice ${invoiceNumber}`, { exact: true }).waitFor();
    await drawer.getByTestId('invoice-payment-row').filter({ hasText: 'Refund pending' }).filter({ hasText: '$25.00' }).waitFor();
    await drawer.getByTestId('invoice-payment-row').filter({ hasText: 'Completed' }).filter({ hasText: '$90.00' }).waitFor();
    // The pending refund holds its amount: the Refund dialog offers what is left net of it.
    await drawer.getByRole('button', { name: /^Refund the payment of \$90\.00/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Refund Payment' });
    await dialog.getByText('$65.00 can be refunded.', { exact: false }).waitFor();
    expect(await dialog.getByLabel('Amount').inputValue()).toBe('65.00');
    await context.close();
  });
});

import { randomUUID } from 'node:crypto';
import { expectAccessible } from '@storage/testing/axe';
import { type ProductUnderTest, startProductUnderTest } from '@storage/testing/browser';
import type { BrowserContext, Page } from 'playwright-core';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Paying a bill in Chromium with the built-in test provider: the portal gate, Pay Now, the test
// card form, the success page, and back to the portal showing the bill paid; and paying an amount
// of the renter's choosing toward the whole balance.

const eventually = { timeout: 15_000 };
const nextYear = String((new Date().getUTCFullYear() + 1) % 100).padStart(2, '0');

describe('checkout and payment in Chromium', { timeout: 120_000 }, () => {
  let product: ProductUnderTest;
  let staff: string;

  beforeAll(async () => {
    product = await startProductUnderTest();
    staff = await product.platform.signIn('clerk');
  }, 240_000);
  afterAll(async () => {
    await product?.close();
  });

  const inject = (url: string, payload: object) => product.platform.api.app.inject({ method: 'POST', url, payload, headers: { cookie: staff } });

  async function projected(stream: string) {
    const last = (await product.platform.api.store.readStream(stream)).at(-1);
    if (last) expect(await product.platform.api.afterAppend(last.position, 15_000)).toBe(true);
  }

  /** A renter with one sent bill, and a browser context that passed the portal gate. */
  async function renterWithBill(amount: string): Promise<{ context: BrowserContext; page: Page; email: string; invoiceId: string; invoiceNumber: string }> {
    const tag = randomUUID().slice(0, 8);
    const email = `payer-${tag}@example.com`;
    const customer = await inject('/api/customers', { firstName: 'Paula', lastName: `Payer${tag}`, email, phone: '(555) 010-4321', status: 'active' });
    expect(customer.statusCode, customer.body).toBe(201);
    await projected(`customer-${customer.json().id}`);
    const invoiceNumber = `INV-${Date.now()}-${tag}`;
    const dueDate = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    const invoice = await inject('/api/invoices', {
      invoiceNumber,
      customerId: customer.json().id,
      amount,
      dueDate,
      status: 'sent',
      description: 'Monthly rent',
    });
    expect(invoice.statusCode, invoice.body).toBe(201);
    await projected(`invoice-${invoice.json().id}`);

    const context = await product.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const verified = await page.request.post(`${product.baseUrl}/api/customer/verify`, { data: { email, phoneLast4: '4321' } });
    expect(verified.status()).toBe(200);
    return { context, page, email, invoiceId: invoice.json().id, invoiceNumber };
  }

  /** Every URL the page asks for, to check that none names the renter's email. */
  function recordRequests(page: Page): string[] {
    const urls: string[] = [];
    page.on('request', (request) => urls.push(request.url()));
    return urls;
  }
  function expectNoEmailIn(urls: string[], email: string) {
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect(decodeURIComponent(url).toLowerCase(), url).not.toContain(email.split('@')[0]!.toLowerCase());
  }

  async function fillCard(page: Page, cardNumber: string) {
    await page.getByLabel('Card number').fill(cardNumber);
    await page.getByLabel('Expiry').fill(`12/${nextYear}`);
    await page.getByLabel('CVC').fill('123');
  }

  it('pays a bill from the portal with the test card and shows it paid back in the portal', async () => {
    const { context, page, email, invoiceId, invoiceNumber } = await renterWithBill('120.00');
    const urls = recordRequests(page);
    await page.goto(`${product.baseUrl}/customer-portal`);
    await page.getByRole('tab', { name: 'Bills & Payments' }).click();
    await page.getByRole('link', { name: 'Pay Now' }).click();

    await page.getByRole('heading', { name: `Invoice ${invoiceNumber}` }).waitFor(eventually);
    await expect(page.getByText('Monthly rent').isVisible()).resolves.toBe(true);
    expect(await page.evaluate(() => [sessionStorage.getItem('currentInvoiceId'), sessionStorage.getItem('currentCustomerEmail')])).toEqual([invoiceId, null]);
    await expectAccessible(page, 'Checkout');
    await fillCard(page, '4242 4242 4242 4242');
    await product.screenshot(page, 'portal-checkout');
    await page.getByRole('button', { name: 'Pay $120.00' }).click();
    await page.getByText('Payment Successful', { exact: true }).waitFor(eventually);

    await page.waitForURL(/\/payment-success\?/, eventually);
    const url = new URL(page.url());
    expect(url.searchParams.has('email')).toBe(false);
    expect(url.searchParams.get('redirect_status')).toBe('succeeded');
    const paymentIntentId = url.searchParams.get('payment_intent')!;
    expect(paymentIntentId).toMatch(/^pi_test_/);
    await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor(eventually);
    await page.getByText('Your payment has been processed and your account updated.').waitFor();
    await page.getByText(paymentIntentId).waitFor();
    await product.screenshot(page, 'portal-payment-success');
    await expectAccessible(page, 'Payment success');

    await page.getByRole('link', { name: 'Return to Customer Portal' }).click();
    await page.waitForURL(/\/customer-portal\?payment_success=true$/, eventually);
    await page.getByRole('tab', { name: 'Bills & Payments' }).click();
    await page.getByText('PAID', { exact: true }).waitFor(eventually);
    const payments = (await product.platform.api.store.readStream(`invoice-${invoiceId}`)).filter((e) => e.type === 'payment_received');
    expect(payments).toHaveLength(1);
    expectNoEmailIn(urls, email);
    await context.close();
  });

  it('pays part of the balance from the portal: the oldest bill first, and the balance drops by the amount paid', async () => {
    const { context, page, invoiceId, invoiceNumber } = await renterWithBill('80.00');
    const stored = await product.platform.api.store.readStream(`invoice-${invoiceId}`);
    const customerId = (stored[0]!.data as { customerId: string }).customerId;
    const olderNumber = `INV-${Date.now()}-old`;
    const older = await inject('/api/invoices', {
      invoiceNumber: olderNumber,
      customerId,
      amount: '100.00',
      dueDate: new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10),
      status: 'sent',
      description: 'Last month',
    });
    expect(older.statusCode, older.body).toBe(201);
    await projected(`invoice-${older.json().id}`);

    await page.goto(`${product.baseUrl}/customer-portal`);
    await page.getByRole('tab', { name: 'Bills & Payments' }).click();
    await page.getByText('Minimum due $100.00').waitFor(eventually);
    await page.getByRole('link', { name: 'Pay an Amount' }).click();
    await page.getByRole('heading', { name: 'Pay toward your balance' }).waitFor(eventually);
    const amount = page.getByLabel('Amount to pay');
    expect(await amount.inputValue()).toBe('180.00');
    expect([await amount.getAttribute('min'), await amount.getAttribute('max')]).toEqual(['100.00', '180.00']);
    await page.getByText('Any amount from $100.00 (the minimum due) up to $180.00 (your whole balance).', { exact: false }).waitFor();
    await expectAccessible(page, 'Checkout of an amount');
    await amount.fill('130.00');
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await fillCard(page, '4242 4242 4242 4242');
    await product.screenshot(page, 'portal-checkout-amount');
    await page.getByRole('button', { name: 'Pay $130.00' }).click();
    await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor(eventually);
    await page.getByText('Your payment has been applied to your bills, oldest first.').waitFor();
    // What it paid, oldest first, the balance it left, and its receipt; a phone's width and a wide screen both hold it.
    const lines = page.getByRole('region', { name: 'What it paid' });
    await lines.getByText(`Invoice ${olderNumber}`).waitFor();
    await lines.getByText(`Invoice ${invoiceNumber}`).waitFor();
    await page.getByText('Your balance now').waitFor();
    const receiptPath = await page.getByRole('link', { name: 'Download receipt' }).getAttribute('href');
    const receipt = await page.request.get(`${product.baseUrl}${receiptPath}`);
    expect([receipt.status(), receipt.headers()['content-type']]).toEqual([200, 'application/pdf']);
    for (const width of [390, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${width} px`).toBe(true);
      await product.screenshot(page, `portal-payment-result-${width}`);
      if (width === 390) await expectAccessible(page, 'Payment result on a phone');
    }

    await page.getByRole('link', { name: 'Return to Customer Portal' }).click();
    await page.getByText('$50.00 Due').waitFor(eventually);
    await page.getByRole('tab', { name: 'Bills & Payments' }).click();
    const olderRow = page.getByRole('listitem').filter({ hasText: olderNumber });
    await olderRow.getByText('PAID', { exact: true }).waitFor(eventually);
    const newerRow = page.getByRole('listitem').filter({ hasText: invoiceNumber });
    await newerRow.getByRole('link', { name: 'Pay Now' }).waitFor();
    // Partly paid: the bill shows what is left of it, not its whole amount.
    await newerRow.getByText('$50.00 left of $80.00').waitFor();
    const paid = (await product.platform.api.store.readStream(`invoice-${invoiceId}`)).filter((e) => e.type === 'payment_received');
    expect(paid.map((e) => e.data)).toEqual([expect.objectContaining({ amount: '30.00', method: 'card' })]);
    await context.close();
  });

  it("shows 'Payment Failed' with the provider's message for a declined card, and records nothing", async () => {
    const { context, page, invoiceId, invoiceNumber } = await renterWithBill('80.00');
    await page.goto(`${product.baseUrl}/checkout/${invoiceId}`);
    await page.getByRole('heading', { name: `Invoice ${invoiceNumber}` }).waitFor(eventually);
    await fillCard(page, '4000 0000 0000 0002');
    await page.getByRole('button', { name: 'Pay $80.00' }).click();
    await page.getByText('Payment Failed', { exact: true }).waitFor(eventually);
    await page.getByText('Your card was declined.').waitFor();
    expect(page.url()).toContain('/checkout/');
    const payments = (await product.platform.api.store.readStream(`invoice-${invoiceId}`)).filter((e) => e.type === 'payment_received');
    expect(payments).toHaveLength(0);
    await context.close();
  });

  it('tells the renter a second charge on a bill already paid was refunded, and records one payment and one refund', async () => {
    const { context, page, email, invoiceId } = await renterWithBill('60.00');
    const stored = await product.platform.api.store.readStream(`invoice-${invoiceId}`);
    const customerId = (stored[0]!.data as { customerId: string }).customerId;
    // The bill is paid through a second tab's intent, made before one live intent per invoice.
    const intentOf = async (status: string) => {
      const id = `pi_test_e2e${randomUUID().replaceAll('-', '')}`;
      await product.platform.api.pool.query(sql.unsafe`
        INSERT INTO test_payment_intents (id, client_secret, amount, currency, status, invoice_id, customer_id, customer_email)
        VALUES (${id}, ${`${id}_secret_x`}, 60.00, 'usd', ${status}, ${invoiceId}, ${customerId}, ${email})`);
      return id;
    };
    const first = await intentOf('succeeded');
    const second = await intentOf('succeeded');
    for (const paymentIntentId of [first, second]) {
      await page.goto(
        `${product.baseUrl}/payment-success?${new URLSearchParams({ payment_intent: paymentIntentId, redirect_status: 'succeeded' }).toString()}`,
      );
      await page.getByText(paymentIntentId).waitFor(eventually);
      const heading = paymentIntentId === first ? 'Payment Successful!' : 'Payment Refunded';
      await page.getByRole('heading', { name: heading }).waitFor(eventually);
    }
    await page
      .getByText(
        'This bill could not take this card payment (it was already paid, or its amount had changed), so the payment has been refunded to you in full.',
      )
      .waitFor();
    const events = (await product.platform.api.store.readStream(`invoice-${invoiceId}`)).map((e) => e.type);
    expect(events.filter((type) => type === 'payment_received')).toHaveLength(1);
    expect(events.filter((type) => type === 'payment_refunded')).toHaveLength(1);
    await context.close();
  });

  it('sends a signed-out renter from a checkout link to the gate, and back to the checkout once verified', async () => {
    const { context, invoiceId, invoiceNumber, email } = await renterWithBill('33.00');
    const page = await product.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${product.baseUrl}/checkout/${invoiceId}`);
    await page.waitForURL((url) => url.pathname === '/customer-portal' && url.searchParams.get('next') === `/checkout/${invoiceId}`, eventually);
    await page.getByLabel('Email Address').fill(email);
    await page.getByLabel('Last 4 Digits of Phone').fill('4321');
    await page.getByRole('button', { name: 'Access My Account' }).click();
    await page.waitForURL(`${product.baseUrl}/checkout/${invoiceId}`, eventually);
    await page.getByRole('heading', { name: `Invoice ${invoiceNumber}` }).waitFor(eventually);
    await page.getByRole('button', { name: /^Pay / }).waitFor(eventually);
    await page.close();
    await context.close();
  });

  it('keeps the spinner when the invoice cannot be loaded', async () => {
    const { context, page } = await renterWithBill('10.00');
    // The page logs the failed load once it has given up on it: from then on nothing would replace the spinner.
    const gaveUp = page.waitForEvent('console', {
      predicate: (message) => message.type() === 'error' && message.text().startsWith('Loading the checkout failed'),
      ...eventually,
    });
    await page.goto(`${product.baseUrl}/checkout/${randomUUID()}`);
    await page.getByRole('status', { name: 'Loading checkout' }).waitFor(eventually);
    await gaveUp;
    expect(await page.getByRole('status', { name: 'Loading checkout' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: /^Pay / }).count()).toBe(0);
    await context.close();
  });
});

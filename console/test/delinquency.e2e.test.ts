import { randomUUID } from 'node:crypto';
import { addDays } from '@storage/domain/billing/calendar';
import { runBillingDay } from '@storage/domain/billing/run';
import type { CommandContext } from '@storage/domain/commands/handle';
import { addCustomer } from '@storage/domain/customers/commands';
import { generateInvoice, sendInvoice } from '@storage/domain/invoices/commands';
import { animationsDone } from '@storage/testing/animations';
import { expectAccessible } from '@storage/testing/axe';
import { type ProductUnderTest, startProductUnderTest } from '@storage/testing/browser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A renter's delinquency on the customer page in Chromium: the timeline of the steps taken, the
// next step with its date and the amount that stops it, and a manager's pause and resume.

describe('the Delinquency tab on the customer page', { timeout: 120_000 }, () => {
  let product: ProductUnderTest;
  const today = new Date().toISOString().slice(0, 10);

  beforeAll(async () => {
    product = await startProductUnderTest();
  }, 120_000);
  afterAll(async () => {
    await product?.close();
  });

  it('shows the steps taken, the next one and what stops it, and pauses and resumes the schedule', async () => {
    const { api } = product.platform;
    const ctx = (now = new Date()): CommandContext => ({ store: api.store, actor: { type: 'system' }, correlationId: randomUUID(), now });
    const tag = randomUUID().slice(0, 8);
    const customer = await addCustomer(ctx(), {
      firstName: 'Tim',
      lastName: `Behind${tag}`,
      email: `tim-${tag}@example.com`,
      phone: null,
      address: null,
      emergencyContact: null,
      emergencyPhone: null,
      status: 'active',
      facilityId: null,
    });
    if (customer.state.status === 'none') throw new Error('no customer');
    const customerId = customer.state.customerId;
    // Billed five days before it fell due twenty days ago: its steps count from the due date.
    const due = addDays(today, -20);
    const billedOn = addDays(due, -5);
    const billedAt = new Date(`${billedOn}T12:00:00Z`);
    const invoice = await generateInvoice(ctx(billedAt), {
      invoiceNumber: `INV-E-${tag}`,
      customerId,
      leaseId: null,
      amount: '95.50',
      dueDate: due,
      status: 'draft',
      description: null,
    });
    if (invoice.state.status === 'none') throw new Error('no invoice');
    const sent = await sendInvoice(ctx(billedAt), invoice.state.invoiceId, billedOn);
    // The billing day nominates renters from the read model.
    if (sent.position) await api.afterAppend(sent.position, 10_000);
    // The billing days of the late notice and of the lockout, in order: the schedule takes one
    // step on each (the second catches up the days between them).
    for (const date of [addDays(due, 5), addDays(due, 15)]) {
      const day = await runBillingDay({ pool: api.pool, store: api.store }, new Date(), { date });
      if (day.position) await api.afterAppend(day.position, 10_000);
    }

    const page = await product.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await product.signIn(page);
    await page.goto(`${product.baseUrl}/customers/${customerId}`);
    await page.getByRole('tab', { name: 'Delinquency' }).click();
    const tab = page.getByTestId('customer-delinquency');
    await tab.getByText('Delinquent', { exact: true }).waitFor();
    await tab.getByText(`Late Notice: day 5 after INV-E-${tag} was due, $95.50 past due`).waitFor();
    await tab.getByText(`Lockout: day 15 after INV-E-${tag} was due, $95.50 past due`).waitFor();
    const dateWords = (iso: string) => new Date(`${iso}T00:00:00`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
    await tab
      .getByTestId('next-step')
      .getByText(`Next: Pre-Lien Notice on ${dateWords(addDays(due, 30))} (INV-E-${tag})`)
      .waitFor();
    await tab.getByTestId('next-step').getByText('Pay $95.50 to stop it').waitFor();
    await expectAccessible(page, 'customer delinquency tab');

    await tab.getByRole('button', { name: 'Pause' }).click();
    const dialog = page.getByRole('dialog', { name: 'Pause the Delinquency Schedule' });
    await dialog.getByRole('button', { name: 'Pause' }).click();
    await dialog.getByText('Reason is required').waitFor();
    const until = addDays(today, 14);
    await dialog.getByLabel('Until').fill(until);
    await dialog.getByLabel('Reason').fill('Promised to pay on the 1st');
    // The error message's exit animation moves the button: clicked once the form stands still.
    await dialog.getByText('Reason is required').waitFor({ state: 'detached' });
    await animationsDone(page);
    await dialog.getByRole('button', { name: 'Pause' }).click();
    // Either outcome is waited for, so that a refusal fails with its reason rather than a timeout.
    const outcome = page.locator('.ant-notification-notice').filter({ hasText: /Schedule paused|Failed to pause the schedule/ });
    await outcome.first().waitFor();
    expect(await outcome.first().textContent()).toContain('Schedule paused');
    await dialog.waitFor({ state: 'hidden' });
    await tab.getByText('Paused', { exact: true }).waitFor();
    await tab.getByText(`Paused until ${dateWords(until)}: Promised to pay on the 1st`).waitFor();
    await tab
      .getByTestId('next-step')
      .getByText(`Next: Pre-Lien Notice on ${dateWords(addDays(until, 1))} (INV-E-${tag})`)
      .waitFor();

    await tab.getByRole('button', { name: 'Resume' }).click();
    const resume = page.getByRole('dialog', { name: 'Resume the Delinquency Schedule' });
    await resume.getByLabel('Reason').fill('Did not pay after all');
    await resume.getByRole('button', { name: 'Resume' }).click();
    await page.getByText('Schedule resumed').waitFor();
    await tab.getByText('Delinquent', { exact: true }).waitFor();
    await tab.getByText('Resumed: Did not pay after all').waitFor();
    await product.screenshot(page, 'customer-delinquency-1440');
    await page.close();
  });

  it('lets the owner change the schedule on Settings → Delinquency', async () => {
    const page = await product.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await product.signIn(page);
    await page.goto(`${product.baseUrl}/settings`);
    const card = page.getByTestId('delinquency-settings-card');
    await card.getByLabel('Lockout day').waitFor();
    await card.getByLabel('Lockout day').fill('20');
    await card.getByLabel('Lockout threshold').fill('50');
    await card.getByRole('checkbox', { name: 'Auction Scheduled' }).uncheck();
    await expectAccessible(page, 'delinquency settings card');
    await product.screenshot(page, 'delinquency-settings-1440');
    await card.getByRole('button', { name: 'Save Delinquency Schedule' }).click();
    await page.getByText('Delinquency schedule saved successfully').waitFor();
    const saved = (await (await page.request.get(`${product.baseUrl}/api/settings/delinquency`)).json()) as { business: unknown };
    expect(saved.business).toEqual([
      { kind: 'late_notice', day: 5, threshold: '0.00' },
      { kind: 'lockout', day: 20, threshold: '50.00' },
      { kind: 'pre_lien_notice', day: 30, threshold: '0.00' },
      { kind: 'lien', day: 45, threshold: '0.00' },
    ]);
    await page.close();
  });
});

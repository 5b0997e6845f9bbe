import { randomUUID } from 'node:crypto';
import { addDays } from '@storage/domain/billing/calendar';
import { runBillingDay } from '@storage/domain/billing/run';
import type { CommandContext } from '@storage/domain/commands/handle';
import { addFacility } from '@storage/domain/facilities/commands';
import { startLease } from '@storage/domain/leases/commands';
import { type ProductUnderTest, startProductUnderTest } from '@storage/testing/browser';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

// Issue 13's journey on the screens, in Chromium: a renter who fell behind is locked out (Lock
// Management shows the lock Desired Overlocked, the customer page the steps, the portal the code
// suspended), pays everything in the portal with the test card, and within seconds staff see the
// lock Desired Normal, the schedule Cleared, and the renter their code working again.

describe('a lockout and a restore on the screens', { timeout: 180_000 }, () => {
  let product: ProductUnderTest;

  beforeAll(async () => {
    product = await startProductUnderTest();
  }, 120_000);
  afterAll(async () => {
    await product?.close();
  });

  it('locks a renter out on the lockout day, and lets them back in when they pay in the portal', async () => {
    const { api } = product.platform;
    const tag = randomUUID().slice(0, 6).toUpperCase();
    const facilityId = randomUUID();
    const ctx = (now = new Date()): CommandContext => ({ store: api.store, actor: { type: 'system' }, correlationId: randomUUID(), now });
    await addFacility(ctx(), { name: `Lockout Storage ${tag}`, address: '15 Overlock Way', phone: null, managerName: null }, facilityId);
    const page = await product.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await product.signIn(page);
    const call = async (path: string, data: unknown) => {
      const response = await page.request.post(`${product.baseUrl}${path}`, { data });
      expect(response.status(), await response.text()).toBe(201);
      return response.json();
    };
    const unit = await call('/api/units', { unitNumber: `L-${tag}`, building: 'L', monthlyRate: '100.00', facilityId });
    await call('/api/locks', { lockId: `LOCK-${tag}`, unitId: unit.id });
    const email = `lockout-${tag.toLowerCase()}@renter.test`;
    const customer = await call('/api/customers', { firstName: 'Lou', lastName: `Lockout${tag}`, email, phone: '555-010-4242', facilityId });
    // Moved in twenty days ago and billed the move-in invoice (due on the move-in day) that day, so
    // its steps count from then. A lease made today bills it today: its steps would fall in the
    // days ahead, and the product's own hourly billing day for today, seeing nothing past due yet,
    // would clear them.
    const start = addDays(new Date().toISOString().slice(0, 10), -20);
    const movedIn = await startLease(ctx(new Date(`${start}T12:00:00Z`)), {
      customerId: customer.id,
      unitId: unit.id,
      monthlyRate: '100.00',
      depositAmount: null,
      startDate: start,
    });
    if (movedIn.position) await api.afterAppend(movedIn.position, 10_000);
    await expect.poll(async () => (await api.pool.anyFirst(sqlDueDates(customer.id))).length, { timeout: 10_000 }).toBeGreaterThan(0);
    const [due] = await api.pool.anyFirst(sqlDueDates(customer.id));
    // The billing days of the late notice and of the lockout, in order (the second catches up the
    // days between them): the schedule takes one step on each.
    for (const date of [addDays(String(due), 5), addDays(String(due), 15)]) {
      const day = await runBillingDay({ pool: api.pool, store: api.store }, new Date(), { date, facilityId });
      if (day.position) await api.afterAppend(day.position, 10_000);
    }

    const lockCard = page.getByTestId('lock-card').filter({ hasText: `LOCK-${tag}` });
    await page.goto(`${product.baseUrl}/locks`);
    await page.getByPlaceholder('Search locks by ID or unit...').fill(`LOCK-${tag}`);
    await expect.poll(async () => lockCard.getByTestId('lock-desired').textContent(), { timeout: 20_000 }).toBe('Overlocked');
    await product.screenshot(page, 'journey-lock-overlocked');
    await page.goto(`${product.baseUrl}/customers/${customer.id}`);
    await page.getByRole('tab', { name: 'Delinquency' }).click();
    const tab = page.getByTestId('customer-delinquency');
    await tab.getByText('Delinquent', { exact: true }).waitFor();
    await tab.getByText(/^Late Notice: day 5 after INV-/).waitFor();
    await tab.getByText(/^Lockout: day 15 after INV-/).waitFor();

    // The renter, in the portal: the code suspended, then pays the whole balance with the test card.
    const portal = await product.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await portal.goto(`${product.baseUrl}/customer-portal`);
    await portal.getByLabel('Email Address').fill(email);
    await portal.getByLabel('Last 4 Digits of Phone').fill('4242');
    await portal.getByRole('button', { name: 'Access My Account' }).click();
    await portal.getByRole('tab', { name: 'My Units' }).click();
    await portal.getByTestId('portal-gate-code').getByText('Suspended').waitFor();
    await portal.getByRole('tab', { name: 'Bills & Payments' }).click();
    await portal.getByRole('link', { name: 'Pay an Amount' }).click();
    await portal.getByRole('heading', { name: 'Pay toward your balance' }).waitFor();
    const whole = await portal.getByLabel('Amount to pay').inputValue();
    await portal.getByRole('button', { name: 'Continue to payment' }).click();
    await portal.getByLabel('Card number').fill('4242 4242 4242 4242');
    await portal.getByLabel('Expiry').fill(`12/${String(new Date().getFullYear() + 2).slice(2)}`);
    await portal.getByLabel('CVC').fill('123');
    await portal.getByRole('button', { name: `Pay $${whole}` }).click();
    await portal.getByRole('heading', { name: 'Payment Successful!' }).waitFor();
    const paidAt = Date.now();

    // Staff see the lock back to normal within seconds, and the schedule cleared by the payment.
    await page.goto(`${product.baseUrl}/locks`);
    await page.getByPlaceholder('Search locks by ID or unit...').fill(`LOCK-${tag}`);
    await expect.poll(async () => lockCard.getByTestId('lock-desired').textContent(), { timeout: 10_000, interval: 100 }).toBe('Normal');
    expect(Date.now() - paidAt).toBeLessThan(10_000);
    await product.screenshot(page, 'journey-lock-normal');
    await page.goto(`${product.baseUrl}/customers/${customer.id}`);
    await page.getByRole('tab', { name: 'Delinquency' }).click();
    await tab.getByText('Current', { exact: true }).waitFor();
    await tab.getByText(`Cleared: Portal payment of $${whole}`).waitFor();
    await product.screenshot(page, 'journey-delinquency-cleared');

    // And the renter's code works again.
    await portal.getByRole('link', { name: 'Return to Customer Portal' }).click();
    await portal.getByRole('tab', { name: 'My Units' }).click();
    await portal.getByTestId('portal-gate-code').waitFor();
    await expect.poll(async () => portal.getByTestId('portal-gate-code').getByText('Suspended').count(), { timeout: 10_000 }).toBe(0);
    await portal.close();
    await page.close();
  });
});

/** The due dates of the renter's open invoices, oldest first. */
function sqlDueDates(customerId: string) {
  return sql.type(z.object({ due_date: z.string() }))`
    SELECT due_date::text FROM invoices WHERE customer_id = ${customerId} AND status IN ('sent', 'overdue') ORDER BY due_date`;
}

import { animationsDone } from '@storage/testing/animations';
import { type ProductUnderTest, startProductUnderTest } from '@storage/testing/browser';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, signedInContext } from './staff-browser.ts';

// An auditor in Chromium: every screen without the actions that change something, the History
// of an entity, and the Audit Log: filtered by a customer picked as you type, an event opened in
// full, and the events of its request.

describe('the auditor in Chromium', { timeout: 120_000 }, () => {
  let product: ProductUnderTest;
  let page: Page;

  beforeAll(async () => {
    product = await startProductUnderTest();
    const owner = await product.platform.signIn('owner');
    const created = await product.platform.api.app.inject({
      method: 'POST',
      url: '/api/customers',
      headers: { cookie: owner },
      payload: { firstName: 'Ada', lastName: 'Audited', email: 'ada@example.com', phone: '555-010-2030', status: 'active' },
    });
    expect(created.statusCode).toBe(201);
    const auditor = await product.platform.createStaff('auditor');
    page = await (await signedInContext(product, DESKTOP, { login: auditor })).newPage();
  }, 240_000);
  afterAll(async () => {
    await product?.close();
  });

  it('shows no Add, Edit or Move In buttons, but the History of a customer', async () => {
    await page.goto(`${product.baseUrl}/customers`);
    await page.getByTestId('customer-card').first().waitFor();
    expect(await page.getByRole('button', { name: 'Add Customer' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /Edit/ }).count()).toBe(0);
    await page.getByRole('button', { name: 'History' }).first().click();
    await expect.poll(() => page.getByText('Customer added').count(), { timeout: 15_000 }).toBeGreaterThan(0);

    for (const [path, heading, button] of [
      ['/units', 'Units', 'Add Unit'],
      ['/locks', 'Smart Locks', 'Add Lock'],
      ['/leases', 'Lease Agreements', 'Move In'],
      ['/billing', 'Billing & Invoices', 'Create Invoice'],
    ] as const) {
      await page.goto(`${product.baseUrl}${path}`);
      await page.getByRole('heading', { name: heading }).waitFor();
      expect(await page.getByRole('button', { name: button }).count(), path).toBe(0);
    }
  });

  it('opens the Audit Log from the sidebar and lists the events', async () => {
    await page.goto(`${product.baseUrl}/`);
    await page.getByRole('link', { name: 'Audit Log' }).click();
    await page.getByRole('heading', { name: 'Audit Log' }).waitFor();
    await expect.poll(() => page.getByRole('cell', { name: 'Customer added' }).count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await product.screenshot(page, 'audit-log');
  });

  it("filters by a customer picked as you type, opens an event in full and lists its request's events", async () => {
    const entities = () => page.getByTestId('audit-row').locator('.col-streamName').allTextContents();
    const picker = page.getByRole('combobox', { name: 'Entity' });
    // Under load a click can land on the list while it is still opening and be lost: tried again.
    for (let attempt = 1; ; attempt++) {
      try {
        await picker.fill('Audited');
        await page.locator('.ant-select-item-option').filter({ visible: true, hasText: 'Customer · Ada Audited · ada@example.com' }).click({ timeout: 10_000 });
        await page.waitForURL(/customerId=/, { timeout: 10_000 });
        break;
      } catch (error) {
        if (attempt >= 3) throw error;
      }
    }
    await expect.poll(entities, { timeout: 15_000 }).toEqual(['Customer Ada Audited']);

    await page.getByTestId('audit-row').first().click();
    const details = page.getByRole('dialog');
    await details.getByText('Customer added').first().waitFor();
    const correlation = details.locator('tr').filter({ hasText: 'Correlation ID' });
    expect(await correlation.textContent()).toMatch(/Correlation ID[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
    expect(await details.getByRole('button').allTextContents()).not.toContainEqual(expect.stringMatching(/Edit|Delete|Save/));
    await animationsDone(page);
    await product.screenshot(page, 'audit-log-event-details');

    await details.getByRole('button', { name: "Show this request's events" }).click();
    await page.waitForURL(/correlationId=/);
    expect(new URL(page.url()).searchParams.get('customerId')).toBeNull();
    // The request that added her: the customer, and the claim of her email.
    await expect
      .poll(async () => (await entities()).sort(), { timeout: 15_000 })
      .toEqual(['Customer Ada Audited', 'Customer email reservation · ada@example.com']);

    await page.goBack();
    await page.waitForURL(/customerId=/);
    await page.locator('.ant-select').filter({ hasText: 'Customer · Ada Audited · ada@example.com' }).waitFor();
  });
});

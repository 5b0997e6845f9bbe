import { type ProductUnderTest, startProductUnderTest } from '@storage/testing/browser';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, signedInContext } from './staff-browser.ts';

// An auditor in Chromium: every screen without the actions that change something, the History
// of an entity, and the Audit Log.

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
});

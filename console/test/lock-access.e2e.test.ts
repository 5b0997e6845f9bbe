import { randomUUID } from 'node:crypto';
import { streams } from '@storage/contracts/events';
import { envelope } from '@storage/domain/commands/handle';
import { type ProductUnderTest, startProductUnderTest } from '@storage/testing/browser';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, signedInContext } from './staff-browser.ts';

// Lock Management shows, per lock, what it should be against what its gateway reported and how
// long they have differed; the customer page shows the renter's gate code and its suspension.

describe('access on the staff screens in Chromium', { timeout: 120_000 }, () => {
  let product: ProductUnderTest;
  let context: BrowserContext;
  let page: Page;
  const serial = `ACC-${randomUUID().slice(0, 6).toUpperCase()}`;
  let lockId: string;
  let customerId: string;
  let key: string;

  const api = async (method: 'GET' | 'POST', path: string, data?: unknown) => {
    const response = await page.request.fetch(`${product.baseUrl}${path}`, { method, ...(data !== undefined && { data }) });
    expect(response.status(), `${method} ${path}: ${await response.text()}`).toBeLessThan(300);
    return response.json();
  };
  const heartbeat = (body: Record<string, unknown>) =>
    page.request.post(`${product.baseUrl}/api/locks/${lockId}/heartbeat`, { headers: { authorization: `Bearer ${key}` }, data: { batteryLevel: 80, ...body } });
  const card = () => page.getByTestId('lock-card').filter({ hasText: serial });

  beforeAll(async () => {
    product = await startProductUnderTest();
    context = await signedInContext(product, DESKTOP);
    page = await context.newPage();
    const facility = await api('POST', '/api/facilities', { name: 'Access Storage', address: '1 Gate Rd' });
    key = (await api('POST', `/api/facilities/${facility.id}/gateway-key`)).key;
    const unit = await api('POST', '/api/units', { unitNumber: 'AC-101', building: 'A', monthlyRate: '100.00', facilityId: facility.id });
    lockId = (await api('POST', '/api/locks', { lockId: serial, unitId: unit.id })).id;
    customerId = (await api('POST', '/api/customers', { firstName: 'Lena', lastName: 'Lockout', email: `lena-${randomUUID().slice(0, 8)}@example.com` })).id;
    await api('POST', '/api/leases', { customerId, unitId: unit.id, monthlyRate: '100.00', depositAmount: null, startDate: '2026-01-01' });
  }, 240_000);
  afterAll(async () => {
    await product?.close();
  });

  it('shows desired against reported state on each lock, and how long they have differed', async () => {
    await expect.poll(async () => (await api('GET', `/api/customers/${customerId}/gate-codes`)).length, { timeout: 15_000 }).toBe(1);
    expect((await heartbeat({ reported: 'normal' })).status()).toBe(200);
    await page.goto(`${product.baseUrl}/locks`);
    await page.getByPlaceholder('Search locks by ID or unit...').fill(serial);
    await card().waitFor();
    expect(await card().getByTestId('lock-desired').textContent()).toBe('Normal');
    await expect.poll(async () => card().getByTestId('lock-reported').textContent(), { timeout: 15_000 }).toBe('Normal');
    expect(await card().getByTestId('lock-gap').count()).toBe(0);

    // The delinquency process takes the lockout step: the lock should be overlocked, its gateway has not applied it yet.
    const { store } = product.platform.api;
    await store.append(
      streams.delinquency(customerId),
      [
        envelope(
          { store, actor: { type: 'system' }, correlationId: randomUUID(), now: new Date() },
          { type: 'delinquency_step_taken', data: { customerId, kind: 'lockout', day: 15, invoiceId: randomUUID(), date: '2026-02-16', pastDue: '100.00' } },
        ),
      ],
      { expectedRevision: 'no_stream' },
    );
    await product.platform.api.afterAppend((await store.headPosition())!, 10_000);
    await page.reload();
    await page.getByPlaceholder('Search locks by ID or unit...').fill(serial);
    await expect.poll(async () => card().getByTestId('lock-desired').textContent(), { timeout: 20_000, interval: 500 }).toBe('Overlocked');
    expect(await card().getByTestId('lock-reported').textContent()).toBe('Normal');
    expect(await card().getByTestId('lock-gap').textContent()).toBe('Differs for under a minute');
    await product.screenshot(page, 'locks-desired-reported-1440');

    // The gateway applies it and says so: the gap closes.
    expect((await heartbeat({ reported: 'overlocked' })).status()).toBe(200);
    await page.reload();
    await page.getByPlaceholder('Search locks by ID or unit...').fill(serial);
    await expect.poll(async () => card().getByTestId('lock-reported').textContent(), { timeout: 15_000, interval: 500 }).toBe('Overlocked');
    expect(await card().getByTestId('lock-gap').count()).toBe(0);
  });

  it("shows the renter's gate code, suspended by the lockout, and rotates it", async () => {
    // The lockout suspends the code through a reaction: the page is opened once it has acted (the
    // page does not refetch on its own, so one opened before would show the code still active).
    expect(await product.platform.reactionsCaughtUp(20_000)).toBe(true);
    await page.goto(`${product.baseUrl}/customers/${customerId}`);
    await page.getByRole('tab', { name: 'Gate Codes' }).click();
    const code = (await page.getByTestId('gate-code').first().textContent())!.trim();
    expect(code).toMatch(/^\d{7}$/);
    await page.getByText('Suspended (lockout)').waitFor();
    await page.getByRole('button', { name: 'Rotate Code' }).click();
    await page.getByRole('button', { name: 'OK' }).click();
    await page.getByText('New gate code assigned').waitFor();
    await expect.poll(async () => (await page.getByTestId('gate-code').first().textContent())!.trim(), { timeout: 10_000 }).not.toBe(code);
    await page.getByText('Suspended (lockout)').waitFor();
  });
});

import { expectAccessible } from '@storage/testing/axe';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { demoStaffScreens, horizontalOverflow } from './staff-browser.ts';

// Money at the desk in Chromium, on the demo data: a manager takes a check that pays part of a
// renter's open invoices, then gives a credit with a reason; the balance on the page follows.

type Invoice = { id: string; invoiceNumber: string; amount: string; status: string; customer: { id: string } };
type Account = { openBalance: string };

describe('Take Payment and Give Credit on the customer page', { timeout: 120_000 }, () => {
  const demo = demoStaffScreens();

  const get = async <T>(page: Page, path: string): Promise<T> => (await page.request.get(`${demo.product.baseUrl}${path}`)).json() as Promise<T>;
  const cents = (amount: string) => Math.round(Number(amount.replace(/[$,]/g, '')) * 100);

  it('takes a check that pays the oldest open invoice in part, then gives a credit with a reason', async () => {
    const page = await demo.wide.newPage();
    const [overdue] = await get<Invoice[]>(page, '/api/invoices?status=overdue&sort=dueDate&order=asc&pageSize=1');
    const customerId = overdue!.customer.id;
    const before = await get<Account>(page, `/api/customers/${customerId}/account`);
    await page.goto(`${demo.product.baseUrl}/customers/${customerId}`);
    await page.getByRole('button', { name: 'Take Payment' }).click();
    const dialog = page.getByRole('dialog', { name: 'Take Payment' });
    await dialog.getByLabel('Amount').fill('10.00');
    await expectAccessible(page, 'Take Payment dialog');
    await dialog.getByLabel('Method').click();
    await page
      .locator('.ant-select-item-option')
      .filter({ hasText: /^Check$/, visible: true })
      .click();
    await dialog.getByLabel('Check Number').fill('5123');
    await demo.product.screenshot(page, 'take-payment-1440');
    await dialog.getByRole('button', { name: 'Record Payment' }).click();
    await page.getByText(/^Payment recorded: INV-\S+ \$10\.00$/).waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(async () => cents((await get<Account>(page, `/api/customers/${customerId}/account`)).openBalance)).toBe(cents(before.openBalance) - 1000);
    await page
      .getByTestId('customer-balance')
      .getByText(`$${((cents(before.openBalance) - 1000) / 100).toFixed(2)}`)
      .waitFor();

    await page.getByRole('button', { name: 'Give Credit' }).click();
    const credit = page.getByRole('dialog', { name: 'Give Credit' });
    await credit.getByRole('button', { name: 'Give Credit' }).click();
    await credit.getByText('Reason is required').waitFor();
    await credit.getByLabel('Amount').fill('5.00');
    await credit.getByLabel('Reason').fill('Gate was down on Saturday');
    await credit.getByRole('button', { name: 'Give Credit' }).click();
    await page.getByText('Credit given').waitFor();
    await expect.poll(async () => cents((await get<Account>(page, `/api/customers/${customerId}/account`)).openBalance)).toBe(cents(before.openBalance) - 1500);
    await page.close();
  });

  it('fits a phone, with the dialog inside the screen', async () => {
    const page = await demo.narrow.newPage();
    const [open] = await get<Invoice[]>(page, '/api/invoices?status=sent&pageSize=1');
    await page.goto(`${demo.product.baseUrl}/customers/${open!.customer.id}`);
    await page.getByRole('button', { name: 'Take Payment' }).click();
    await page.getByRole('dialog', { name: 'Take Payment' }).getByLabel('Amount').waitFor();
    expect(await horizontalOverflow(page)).toBe(0);
    await demo.product.screenshot(page, 'take-payment-390');
    await page.close();
  });
});

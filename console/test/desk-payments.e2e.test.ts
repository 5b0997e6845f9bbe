import { expectAccessible } from '@storage/testing/axe';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chooseSelectOption, demoStaffScreens, horizontalOverflow } from './staff-browser.ts';

// Money at the desk in Chromium, on the demo data: a manager sees what a check will pay, takes it
// (it pays part of a renter's open invoices), then gives a credit with a reason; the balance on
// the page follows.

type Invoice = { id: string; invoiceNumber: string; amount: string; status: string; customer: { id: string } };
type Account = { openBalance: string; credit: string };

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
    // It starts at the whole balance the renter owes.
    await expect.poll(() => dialog.getByLabel('Amount').inputValue()).toBe(before.openBalance);
    await dialog.getByLabel('Amount').fill('10.00');
    // Before it is taken, the dialog says what the amount pays, as the server will pay it.
    await dialog.getByTestId('payment-plan').getByText(overdue!.invoiceNumber).waitFor();
    await dialog.getByText('Kept as credit: $0.00').waitFor();
    await expectAccessible(page, 'Take Payment dialog');
    await chooseSelectOption(page, dialog.getByLabel('Method'), /^Check$/, dialog.getByLabel('Check Number'));
    await dialog.getByLabel('Check Number').fill('5123');
    await demo.product.screenshot(page, 'take-payment-1440');
    await dialog.getByRole('button', { name: 'Record Payment' }).click();
    await page.getByText(/^Payment recorded: INV-\S+ \$10\.00$/).waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(async () => cents((await get<Account>(page, `/api/customers/${customerId}/account`)).openBalance)).toBe(cents(before.openBalance) - 1000);
    await page
      .getByTestId('customer-open-balance')
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

  it('shows beside what is owed the credit an overpayment leaves on the account', async () => {
    const page = await demo.wide.newPage();
    const overdue = await get<Invoice[]>(page, '/api/invoices?status=overdue&sort=dueDate&order=desc&pageSize=1');
    const customerId = overdue[0]!.customer.id;
    const before = await get<Account>(page, `/api/customers/${customerId}/account`);
    await page.goto(`${demo.product.baseUrl}/customers/${customerId}`);
    const card = page.getByTestId('customer-balance');
    await card.getByText('Account Credit').waitFor();
    await page.getByRole('button', { name: 'Take Payment' }).click();
    const dialog = page.getByRole('dialog', { name: 'Take Payment' });
    const paid = (cents(before.openBalance) + 700) / 100;
    await dialog.getByLabel('Amount').fill(paid.toFixed(2));
    // Cash is the method the dialog starts with.
    await dialog
      .locator('.ant-select')
      .filter({ hasText: /^Cash$/ })
      .waitFor();
    await dialog.getByRole('button', { name: 'Record Payment' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const credit = ((cents(before.credit) + 700) / 100).toFixed(2);
    await expect.poll(async () => (await get<Account>(page, `/api/customers/${customerId}/account`)).credit).toBe(credit);
    await card.getByTestId('customer-open-balance').getByText('$0.00').waitFor();
    await page.getByTestId('customer-credit').getByText(`$${credit}`).waitFor();
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

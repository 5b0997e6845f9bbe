import { expectAccessible } from '@storage/testing/axe';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { demoStaffScreens } from './staff-browser.ts';

// The console's global search in Chromium on the demo data: Ctrl-K from any screen, results as
// you type, arrows and Enter to open one, at both widths.

describe('global search in Chromium', { timeout: 120_000 }, () => {
  const demo = demoStaffScreens();

  async function openUnits(page: Page) {
    await page.goto(`${demo.product.baseUrl}/units`);
    await page.getByRole('heading', { name: 'Units', exact: true }).waitFor();
  }

  it('opens with Ctrl-K from any screen, answers as you type, and Enter opens the chosen customer', async () => {
    const page = await demo.wide.newPage();
    await openUnits(page);
    const customers = (await (await page.request.get(`${demo.product.baseUrl}/api/customers?pageSize=1`)).json()) as {
      id: string;
      email: string;
      firstName: string;
      lastName: string;
    }[];
    const customer = customers[0]!;
    await page.keyboard.press('Control+k');
    const box = page.getByRole('combobox', { name: /Search customers, units and invoices/ });
    expect(await box.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.keyboard.type(customer.lastName);
    const option = page.getByRole('option').filter({ hasText: customer.email });
    await option.waitFor();
    await page.getByRole('group', { name: 'Customers' }).waitFor();
    await expectAccessible(page, 'Global search with results');
    await demo.product.screenshot(page, 'global-search-1440');
    while ((await option.getAttribute('aria-selected')) !== 'true') await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === `/customers/${customer.id}`);
    await page.getByRole('heading', { name: `${customer.firstName} ${customer.lastName}` }).waitFor();
    await page.getByText(customer.email).first().waitFor();
    await page.close();
  });

  it('finds a unit by its number and an invoice by its number', async () => {
    const page = await demo.wide.newPage();
    await openUnits(page);
    const box = page.getByRole('combobox', { name: /Search customers, units and invoices/ });
    await box.fill('RS-A101');
    await page.getByRole('option').filter({ hasText: 'Unit RS-A101' }).click();
    await page.waitForURL((url) => url.pathname === '/units' && url.searchParams.get('search') === 'RS-A101');

    const invoices = (await (await page.request.get(`${demo.product.baseUrl}/api/invoices?pageSize=1`)).json()) as { invoiceNumber: string }[];
    const invoiceNumber = invoices[0]!.invoiceNumber;
    await box.fill(invoiceNumber);
    await page.getByRole('option').filter({ hasText: invoiceNumber }).click();
    await page.waitForURL((url) => url.pathname === '/billing' && url.searchParams.get('search') === invoiceNumber);

    await box.fill('no-such-thing-anywhere');
    await page.getByText('Nothing found').waitFor();
    await page.close();
  });

  it('sits in the top bar on a phone', async () => {
    const page = await demo.narrow.newPage();
    await openUnits(page);
    const box = page.getByRole('combobox', { name: /Search customers, units and invoices/ });
    await box.fill('RS-A10');
    await page.getByRole('option').first().waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await demo.product.screenshot(page, 'global-search-390');
    await page.close();
  });
});

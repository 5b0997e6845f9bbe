import type { Ledger } from '@storage/contracts/ledger';
import { expectAccessible } from '@storage/testing/axe';
import { readDownload } from '@storage/testing/browser';
import type { BrowserContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { demoStaffScreens, horizontalOverflow } from './staff-browser.ts';

// The customer's Statement tab in Chromium on the demo data: the ledger with its running balance,
// as of a chosen day, and the PDF to hand the renter.

describe('the statement tab on the demo data in Chromium', { timeout: 120_000 }, () => {
  const demo = demoStaffScreens();

  /** A renter whose ledger has a charge and a payment. */
  async function renterWithHistory(context: BrowserContext) {
    const request = context.request;
    const customers = (await (await request.get(`${demo.product.baseUrl}/api/customers?pageSize=50`)).json()) as Array<{
      id: string;
      firstName: string;
      lastName: string;
    }>;
    for (const customer of customers) {
      const ledger = (await (await request.get(`${demo.product.baseUrl}/api/customers/${customer.id}/ledger`)).json()) as Ledger;
      const kinds = new Set(ledger.entries.map((e) => e.kind));
      if (kinds.has('charge') && kinds.has('payment')) return { customer, ledger };
    }
    throw new Error('The demo has no renter with a charge and a payment');
  }

  it('shows the entries with a running balance, cuts them at a chosen day, and downloads the PDF', async () => {
    const page = await demo.wide.newPage();
    const { customer, ledger } = await renterWithHistory(demo.wide);
    await page.goto(`${demo.product.baseUrl}/customers/${customer.id}`);
    await page.getByRole('heading', { name: `${customer.firstName} ${customer.lastName}` }).waitFor();
    await page.getByRole('tab', { name: 'Statement' }).click();
    const rows = page.getByTestId('statement-row');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(ledger.entries.length);
    const last = ledger.entries.at(-1)!;
    expect(await rows.last().textContent()).toContain(last.description);
    await page
      .getByTestId('statement-balance')
      .getByText(/Balance as of/)
      .waitFor();
    await expectAccessible(page, 'Customer statement tab');
    await demo.product.screenshot(page, 'customer-statement-1440');

    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download PDF' }).click();
    expect((await readDownload(await download)).subarray(0, 5).toString()).toBe('%PDF-');

    // The day before the first entry: nothing yet, nothing owed.
    const first = ledger.entries[0]!.date;
    const dayBefore = new Date(Date.parse(`${first}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    await page.getByTestId('statement-as-of').fill(dayBefore);
    await page.getByText('Nothing charged or paid yet').waitFor();
    await page
      .getByTestId('statement-balance')
      .getByText(/: \$0\.00$/)
      .waitFor();
    await page.close();
  });

  it('fits a 390 px phone', async () => {
    const page = await demo.narrow.newPage();
    const { customer } = await renterWithHistory(demo.narrow);
    await page.goto(`${demo.product.baseUrl}/customers/${customer.id}`);
    await page.getByRole('tab', { name: 'Statement' }).click();
    await page.getByTestId('statement-row').first().waitFor();
    expect(await horizontalOverflow(page)).toBe(0);
    await expectAccessible(page, 'Customer statement tab on a phone');
    await demo.product.screenshot(page, 'customer-statement-390');
    await page.close();
  });
});

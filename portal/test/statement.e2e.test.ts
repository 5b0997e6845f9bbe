import { expectAccessible } from '@storage/testing/axe';
import { type ProductUnderTest, readDownload, startProductUnderTest } from '@storage/testing/browser';
import type { Page } from 'playwright-core';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

// The renter's Statement tab in the portal, on the demo data: their own entries with the running
// balance (and no one else's), the PDF to download, and a 360 px phone with no sideways scroll.

const Renter = z.object({ id: z.string(), email: z.string(), phone: z.string(), entries: z.number() });

describe('the portal statement in Chromium', () => {
  let product: ProductUnderTest;
  let renter: z.infer<typeof Renter>;

  beforeAll(async () => {
    product = await startProductUnderTest({ seedDemo: true });
    renter = await product.platform.api.pool.one(sql.type(Renter)`
      SELECT c.id::text, c.email, c.phone, (SELECT count(*)::int FROM ledger_entries l WHERE l.customer_id = c.id) AS entries
      FROM customers c
      WHERE NOT c.archived AND c.phone ~ '[0-9]{4}'
        AND EXISTS (SELECT 1 FROM ledger_entries l WHERE l.customer_id = c.id AND l.kind = 'payment')
      ORDER BY c.email LIMIT 1`);
  }, 240_000);
  afterAll(async () => {
    await product?.close();
  });

  async function openStatement(page: Page) {
    await page.goto(`${product.baseUrl}/customer-portal`);
    await page.getByLabel('Email Address').fill(renter.email);
    await page.getByLabel('Last 4 Digits of Phone').fill(renter.phone.replace(/\D/g, '').slice(-4));
    await page.getByRole('button', { name: 'Access My Account' }).click();
    await page.getByRole('tab', { name: 'Statement' }).click();
    await page.getByTestId('portal-statement-row').first().waitFor();
  }

  it('shows the renter their own entries with the running balance, and downloads the PDF', async () => {
    const page = await product.browser.newPage({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
    await openStatement(page);
    expect(await page.getByTestId('portal-statement-row').count()).toBe(renter.entries);
    await page
      .getByTestId('portal-statement-balance')
      .getByText(/^(Balance|Credit) as of .+: \$[\d,]+\.\d{2}$/)
      .waitFor();
    const text = (await page.locator('.portal-statement').textContent()) ?? '';
    // No staff-only words: no event names, ids or internal kinds.
    expect(text).not.toMatch(/payment_received|invoice_sent|late_fee|write_off|[0-9a-f]{8}-[0-9a-f]{4}-/);
    await expectAccessible(page, 'Customer portal statement');
    await product.screenshot(page, 'customer-portal-statement-1440');

    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download PDF' }).click();
    expect((await readDownload(await download)).subarray(0, 5).toString()).toBe('%PDF-');
    await page.close();
  });

  it('fits a 360 px phone', async () => {
    const page = await product.browser.newPage({ viewport: { width: 360, height: 780 } });
    await openStatement(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    await expectAccessible(page, 'Customer portal statement on a phone');
    await product.screenshot(page, 'customer-portal-statement-360');
    await page.close();
  });
});

import { animationsDone } from '@storage/testing/animations';
import { type ProductUnderTest, startProductUnderTest } from '@storage/testing/browser';
import type { BrowserContext, Page } from 'playwright-core';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { chooseSelectOption, DESKTOP, PHONE, signedInContext } from './staff-browser.ts';

// Billing & Invoices in Chromium on the demo data: the spec's texts, creating an invoice for a
// customer found by a server search, sending it, its detail, the facility scope, and the layout
// at 1440 and 390 px.

const DAY = 86_400_000;

function localDate(daysFromNow: number): string {
  const date = new Date(Date.now() + daysFromNow * DAY);
  return [date.getFullYear(), date.getMonth() + 1, date.getDate()].map((part) => String(part).padStart(2, '0')).join('-');
}

describe('Billing & Invoices in Chromium', () => {
  let product: ProductUnderTest;
  /** Signed in once; every test opens its pages in it. */
  let staff: BrowserContext;
  let someone: { first_name: string; last_name: string; email: string };

  beforeAll(async () => {
    product = await startProductUnderTest({ seedDemo: true });
    someone = await product.platform.api.pool.one(sql.type(z.object({ first_name: z.string(), last_name: z.string(), email: z.string() }))`
      SELECT first_name, last_name, email FROM customers WHERE NOT archived ORDER BY created_at LIMIT 1`);
    staff = await signedInContext(product, DESKTOP);
  }, 300_000);
  afterAll(async () => {
    await product?.close();
  });

  async function newPage(width: 1440 | 390) {
    const page = await staff.newPage();
    page.setDefaultTimeout(10_000);
    await page.setViewportSize(width === 1440 ? DESKTOP : PHONE);
    return page;
  }

  async function openBilling(width: 1440 | 390) {
    const page = await newPage(width);
    await page.goto(`${product.baseUrl}/billing`);
    await page.getByRole('heading', { name: 'Billing & Invoices' }).waitFor();
    await page.getByTestId('invoice-row').first().waitFor();
    return page;
  }

  /** The first facility by name, with its invoices and all invoices, as the read model counts them now. */
  const facilityCounts = () =>
    product.platform.api.pool.one(sql.type(z.object({ name: z.string(), total: z.number(), all: z.number() }))`
      SELECT f.name, count(i.id)::int8 AS total, (SELECT count(*) FROM invoices)::int8 AS all
      FROM facilities f LEFT JOIN invoices i ON i.facility_id = f.id GROUP BY f.id, f.name ORDER BY f.name LIMIT 1`);

  /** Types into the customer picker (the server searches) and picks the customer with that email. */
  async function pickCustomer(page: Page, typed: string, email: string) {
    await page.getByRole('dialog').getByLabel('Customer').fill(typed);
    const option = page.locator('.ant-select-item-option').filter({ hasText: email });
    await option.waitFor();
    await animationsDone(page);
    await option.click();
    await page
      .getByRole('dialog')
      .locator('.ant-select')
      .filter({ hasText: `(${email})` })
      .waitFor();
  }

  /**
   * Picks an option of the dialog's antd select labelled `label` until the select shows it (a click
   * made while the list opens can be lost), and waits for its list to close.
   */
  async function choose(page: Page, label: string, option: string) {
    const dialog = page.getByRole('dialog');
    const select = dialog.getByLabel(label, { exact: true });
    const shown = dialog
      .locator('.ant-select')
      .filter({ has: page.getByLabel(label, { exact: true }) })
      .filter({ hasText: new RegExp(`^${option}$`) });
    await chooseSelectOption(page, select, new RegExp(`^${option}$`), shown);
    await expect.poll(() => page.locator('.ant-select-dropdown:visible').count()).toBe(0);
  }

  const invoiceCount = async (page: Page) => Number((await page.getByTestId('invoice-count').textContent())!.split(' ')[0]);

  it('shows the spec texts, creates an invoice for a customer found on the server, sends it and shows its history', async () => {
    const page = await openBilling(1440);
    await page.getByText('Manage invoices and track payments', { exact: true }).waitFor();
    await page.getByText('All Invoices').waitFor();
    for (const header of ['Invoice #', 'Customer', 'Amount', 'Status', 'Due Date', 'Actions']) {
      await page.getByRole('columnheader', { name: header, exact: true }).waitFor();
    }
    expect(await invoiceCount(page)).toBe((await facilityCounts()).all);
    expect(await page.getByTestId('invoice-row').count()).toBe(20);
    // Send is offered on draft rows only.
    const rows = page.getByTestId('invoice-row');
    for (let i = 0; i < (await rows.count()); i++) {
      const row = rows.nth(i);
      const isDraft = (await row.locator('.ant-tag').textContent()) === 'Draft';
      expect(await row.getByRole('button', { name: 'Send' }).count()).toBe(isDraft ? 1 : 0);
      expect(await row.getByRole('button', { name: 'View' }).count()).toBe(1);
    }
    await product.screenshot(page, 'billing-1440');

    await page.getByRole('button', { name: 'Create Invoice' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.getByLabel('Invoice Number').inputValue()).toMatch(/^INV-\d{13}$/);
    expect(await dialog.getByLabel('Due Date').inputValue()).toBe(localDate(30));
    await dialog.getByText('Draft').waitFor();
    const invoiceNumber = `INV-E2E-${Date.now()}`;
    await dialog.getByLabel('Invoice Number').fill(invoiceNumber);
    await pickCustomer(page, someone.last_name, someone.email);
    await dialog.getByLabel('Amount').fill('75.50');
    await dialog.getByLabel('Description').fill('Lock replacement');
    await animationsDone(page);
    await product.screenshot(page, 'billing-create-1440');
    await dialog.getByRole('button', { name: 'Create Invoice' }).click();

    await page.getByText('Invoice created successfully').waitFor();
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    const row = page.getByTestId('invoice-row').filter({ hasText: invoiceNumber });
    await row.waitFor();
    expect(await page.getByTestId('invoice-row').first().textContent()).toContain(invoiceNumber);
    expect(await row.textContent()).toContain(`${someone.first_name} ${someone.last_name}`);
    expect(await row.textContent()).toContain(someone.email);
    expect(await row.textContent()).toContain('$75.50');
    expect(await row.textContent()).toContain('Draft');

    await row.getByRole('button', { name: 'Send' }).click();
    await page.getByText(`Invoice ${invoiceNumber} sent successfully`).waitFor();
    await row.getByText('Sent', { exact: true }).waitFor();
    expect(await row.getByRole('button', { name: 'Send' }).count()).toBe(0);

    await row.getByRole('button', { name: 'View' }).click();
    const drawer = page.locator('.invoice-detail-drawer');
    await drawer.getByText(`Invoice ${invoiceNumber}`, { exact: true }).waitFor();
    // The amount and description also appear in the lines table: the invoice's own are in its descriptions.
    await drawer.locator('.ant-descriptions').getByText('$75.50', { exact: true }).waitFor();
    await drawer.locator('.ant-descriptions').getByText('Lock replacement', { exact: true }).waitFor();
    await drawer.getByText('No payments recorded').waitFor();
    await drawer.getByText(`Invoice ${invoiceNumber} created as draft for $75.50`).waitFor();
    await drawer.getByText('Invoice sent to the customer').waitFor();
    await animationsDone(page);
    expect(await drawer.getByText('Olivia Owner').count()).toBe(2);
    await product.screenshot(page, 'billing-detail-1440');
    await drawer.getByRole('button', { name: 'Close' }).click();

    await page.getByPlaceholder('Search invoices by number or customer...').fill(invoiceNumber.toLowerCase());
    await page
      .getByTestId('invoice-count')
      .filter({ hasText: /^1 invoice$/ })
      .waitFor();
    await page.getByPlaceholder('Search invoices by number or customer...').fill('nobody-matches-this');
    await page.getByText('No invoices found').waitFor();
    await page.close();
  });

  it('asks how an invoice created paid was paid and why one created cancelled is, and sends only what its status records', async () => {
    const page = await openBilling(1440);
    await page.getByRole('button', { name: 'Create Invoice' }).click();
    const dialog = page.getByRole('dialog');
    const invoiceNumber = `INV-E2E-PAID-${Date.now()}`;
    await dialog.getByLabel('Invoice Number').fill(invoiceNumber);
    await pickCustomer(page, someone.last_name, someone.email);
    await dialog.getByLabel('Amount').fill('40.00');
    // A draft asks neither.
    expect(await dialog.getByLabel('Payment Method').count()).toBe(0);
    expect(await dialog.getByLabel('Reason').count()).toBe(0);

    // Cancelled asks why, and the form refuses it without a reason.
    await choose(page, 'Status', 'Cancelled');
    await dialog.getByRole('button', { name: 'Create Invoice' }).click();
    await dialog.getByText('Reason is required').waitFor();
    expect(await dialog.getByLabel('Payment Method').count()).toBe(0);

    // Paid asks how: a check, with its number.
    await choose(page, 'Status', 'Paid');
    expect(await dialog.getByLabel('Reason').count()).toBe(0);
    await choose(page, 'Payment Method', 'Check');
    await dialog.getByLabel('Check Number').fill('2201');
    await animationsDone(page);
    await product.screenshot(page, 'billing-create-paid-1440');
    const created = page.waitForResponse((r) => r.url().endsWith('/api/invoices') && r.request().method() === 'POST');
    await dialog.getByRole('button', { name: 'Create Invoice' }).click();
    expect((await created).status()).toBe(201);
    const sent = (await created).request().postDataJSON();
    expect(sent).toMatchObject({ invoiceNumber, status: 'paid', payment: { method: 'check', reference: '2201' } });
    expect(sent).not.toHaveProperty('reason');
    await page.getByText('Invoice created successfully').waitFor();
    const row = page.getByTestId('invoice-row').filter({ hasText: invoiceNumber });
    await row.getByText('Paid', { exact: true }).waitFor();

    await row.getByRole('button', { name: 'View' }).click();
    const drawer = page.locator('.invoice-detail-drawer');
    await drawer.getByText('Payment of $40.00 received by check').waitFor();
    await drawer.getByRole('button', { name: 'Close' }).click();
    await page.close();
  });

  it('scopes the list to the selected facility, says so in the subtitle, and pages on the server', async () => {
    const facility = await facilityCounts();
    expect(facility.total).toBeGreaterThan(20);
    expect(facility.total).toBeLessThan(facility.all);
    const page = await openBilling(1440);
    await page.getByLabel('Facility').click();
    const option = page.locator('.ant-select-item-option').filter({ hasText: facility.name });
    await option.waitFor();
    await animationsDone(page);
    await option.click();
    await page.getByText(`Manage invoices and track payments at ${facility.name}`).waitFor();
    await page
      .getByTestId('invoice-count')
      .filter({ hasText: `${facility.total} invoices` })
      .waitFor();
    await product.screenshot(page, 'billing-facility-1440');
    const firstOnPage1 = await page.getByTestId('invoice-row').first().locator('.invoice-number').textContent();
    await page.locator('.ant-pagination-item-2').click();
    await page.locator('.ant-pagination-item-2.ant-pagination-item-active').waitFor();
    await page.waitForFunction((first) => document.querySelector('[data-testid="invoice-row"] .invoice-number')?.textContent !== first, firstOnPage1);
    expect(await page.getByTestId('invoice-row').count()).toBe(Math.min(20, facility.total - 20));
    await page.close();
  });

  it('opens Create Invoice from /billing?new=1, refuses a taken number with the Error toast, and fits 390 px', async () => {
    const page = await openBilling(390);
    const takenNumber = (await page.getByTestId('invoice-row').first().locator('.invoice-number').textContent())!;
    await product.screenshot(page, 'billing-390');

    await page.goto(`${product.baseUrl}/billing?new=1`);
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Create Invoice').first().waitFor();
    await dialog.getByLabel('Invoice Number').fill(takenNumber);
    await pickCustomer(page, someone.email, someone.email);
    await dialog.getByLabel('Amount').fill('10');
    await animationsDone(page);
    const dialogBox = (await page.locator('.ant-modal').boundingBox())!;
    expect(dialogBox.x).toBeGreaterThanOrEqual(0);
    expect(dialogBox.x + dialogBox.width).toBeLessThanOrEqual(390);
    await product.screenshot(page, 'billing-create-390');
    await dialog.getByRole('button', { name: 'Create Invoice' }).click();
    await page.getByText('Failed to create invoice').waitFor();
    await page.getByText(`An invoice numbered ${takenNumber} already exists`).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).search).toBe('');

    await page.locator('.ant-notification-notice-close').click();
    await page.getByTestId('invoice-row').first().getByRole('button', { name: 'View' }).click();
    await page.locator('.invoice-detail-drawer').getByText('History').waitFor();
    await animationsDone(page);
    const drawerBox = (await page.locator('.invoice-detail-drawer .ant-drawer-content-wrapper').boundingBox())!;
    expect(drawerBox.x).toBeGreaterThanOrEqual(0);
    expect(drawerBox.x + drawerBox.width).toBeLessThanOrEqual(390);
    await product.screenshot(page, 'billing-detail-390');
    await page.close();
  });

  it("links a new invoice to one of the customer's leases, and the lease card counts it", async () => {
    const tenant = await product.platform.api.pool.one(sql.type(
      z.object({ last_name: z.string(), email: z.string(), unit_number: z.string(), lease_id: z.string() }),
    )`
      SELECT c.last_name, c.email, u.unit_number, l.id::text AS lease_id
      FROM leases l JOIN customers c ON c.id = l.customer_id JOIN units u ON u.id = l.unit_id
      WHERE l.is_active AND NOT c.archived ORDER BY l.created_at LIMIT 1`);
    const countsOf = async (page: Page) => {
      const leases = (await (await page.request.get(`${product.baseUrl}/api/leases?search=${encodeURIComponent(tenant.email)}&pageSize=50`)).json()) as {
        id: string;
        invoiceSummary: { total: number };
      }[];
      return leases.find((lease) => lease.id === tenant.lease_id)!.invoiceSummary.total;
    };
    const page = await openBilling(1440);
    const before = await countsOf(page);
    await page.getByRole('button', { name: 'Create Invoice' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.getByLabel('Lease').isDisabled()).toBe(true);
    await pickCustomer(page, tenant.last_name, tenant.email);
    await dialog.getByLabel('Lease').click();
    await page
      .locator('.ant-select-item-option')
      .filter({ hasText: `Unit ${tenant.unit_number}` })
      .click();
    await dialog.getByLabel('Amount').fill('12.00');
    const created = page.waitForResponse((r) => r.url().endsWith('/api/invoices') && r.request().method() === 'POST');
    await dialog.getByRole('button', { name: 'Create Invoice' }).click();
    expect((await created).status()).toBe(201);
    expect((await created).request().postDataJSON().leaseId).toBe(tenant.lease_id);
    await page.getByText('Invoice created successfully').waitFor();
    await expect.poll(() => countsOf(page)).toBe(before + 1);
    await page.close();
  });

  it('shows 5 placeholder rows while the invoices load', async () => {
    const page = await newPage(1440);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/invoices?*', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${product.baseUrl}/billing`);
    await page.getByTestId('invoice-placeholder-row').first().waitFor();
    expect(await page.getByTestId('invoice-placeholder-row').count()).toBe(5);
    release();
    await page.getByTestId('invoice-row').first().waitFor();
    expect(await page.getByTestId('invoice-placeholder-row').count()).toBe(0);
    await page.close();
  });
});

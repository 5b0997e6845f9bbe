import { expectAccessible } from '@storage/testing/axe';
import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, demoStaffScreens, horizontalOverflow, sharedPages, signedInContext, visit } from './staff-browser.ts';

// Tables people can work in, in Chromium on the demo data: a list sorts by a column (header
// buttons with aria-sort, or the sort choice of a card list and of a phone), filters by status,
// and keeps its search, filters, sort and page in the URL, so a reload or a shared link opens the
// same view; typing replaces the history entry, a filter or a page adds one. A page chosen near
// the one shown is read from that page's cursor (and whole pages skipped), which the URL keeps.

const eventually = { timeout: 15_000 };

const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Picks an option of the antd select labelled `label`. */
async function choose(page: Page, label: string, option: string) {
  await page.getByLabel(label, { exact: true }).click();
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: new RegExp(`^${literally(option)}$`) })
    .click();
  // Until its list has closed (its listbox is unnamed while it shows).
  await expect.poll(() => page.locator('.ant-select-dropdown:visible').count()).toBe(0);
}

/** What the antd select labelled `label` shows. */
const shown = (page: Page, label: string) =>
  page
    .locator('.ant-select')
    .filter({ has: page.getByLabel(label, { exact: true }) })
    .locator('.ant-select-content, .ant-select-selection-item')
    .first()
    .textContent();

const params = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);

describe('list views in the URL, in Chromium', { timeout: 180_000 }, () => {
  const demo = demoStaffScreens();
  // One console per width for the file, going from screen to screen as a user does (visit); the
  // reloads and the steps Back are loads and history the tests are about.
  const pages = sharedPages(demo);

  /** What the API answers for that list query (the order the screen must show). */
  async function api<Row>(page: Page, path: string): Promise<{ rows: Row[]; total: number }> {
    const response = await page.request.get(`${demo.product.baseUrl}${path}`);
    expect(response.status(), path).toBe(200);
    return { rows: await response.json(), total: Number(response.headers()['x-total-count']) };
  }

  const invoiceNumbers = (page: Page) => page.getByTestId('invoice-row').locator('.invoice-number').allTextContents();

  it('Billing: sorts by a header, filters by status, pages, and a reload keeps it all; Back undoes the page', async () => {
    const page = pages.wide;
    await visit(page, demo.product, '/billing');
    await page.getByTestId('invoice-row').first().waitFor();
    const amount = page.getByRole('columnheader', { name: 'Amount' });
    // Newest first by default: no column claims the order.
    expect(await page.locator('th[aria-sort]').count()).toBe(0);

    await amount.getByRole('button', { name: 'Amount' }).click();
    await page.waitForURL(/sort=amount/);
    expect(params(page)).toEqual({ sort: 'amount' });
    await expect.poll(() => amount.getAttribute('aria-sort')).toBe('descending');
    const byAmountDesc = await api<{ invoiceNumber: string; amount: string }>(page, '/api/invoices?sort=amount&order=desc&pageSize=20');
    await expect.poll(() => invoiceNumbers(page), eventually).toEqual(byAmountDesc.rows.map((i) => i.invoiceNumber));
    const amounts = byAmountDesc.rows.map((i) => Number(i.amount));
    expect(amounts).toEqual([...amounts].sort((a, b) => b - a));

    await amount.getByRole('button', { name: 'Amount' }).click();
    await expect.poll(() => amount.getAttribute('aria-sort')).toBe('ascending');
    expect(params(page)).toEqual({ sort: 'amount', order: 'asc' });

    await choose(page, 'Invoice status', 'Paid');
    await page.waitForURL(/status=paid/);
    const paid = await api<{ invoiceNumber: string }>(page, '/api/invoices?status=paid&sort=amount&order=asc&pageSize=20&page=2');
    expect(paid.total).toBeGreaterThan(20);
    await page
      .getByTestId('invoice-count')
      .filter({ hasText: `${paid.total} invoices` })
      .waitFor();
    await expect.poll(async () => new Set(await page.getByTestId('invoice-row').locator('.ant-tag').allTextContents()), eventually).toEqual(new Set(['Paid']));

    await page.locator('.ant-pagination-item-2').click();
    await page.waitForURL(/page=2/);
    // With the cursor of page 1 it was read from, so a reload reads it the same way.
    expect(params(page)).toEqual({ sort: 'amount', order: 'asc', status: 'paid', page: '2', cursor: expect.stringMatching(/^[A-Za-z0-9_-]+$/) });
    await expect.poll(() => invoiceNumbers(page), eventually).toEqual(paid.rows.map((i) => i.invoiceNumber));
    await expectAccessible(page, 'Billing sorted, filtered and paged');
    await demo.product.screenshot(page, 'list-views-billing-1440');

    await page.reload();
    await page.getByTestId('invoice-row').first().waitFor();
    await expect.poll(() => invoiceNumbers(page), eventually).toEqual(paid.rows.map((i) => i.invoiceNumber));
    expect(await amount.getAttribute('aria-sort')).toBe('ascending');
    expect(await shown(page, 'Invoice status')).toBe('Paid');
    await page.locator('.ant-pagination-item-2.ant-pagination-item-active').waitFor();

    await page.goBack();
    await page.waitForURL((url) => !url.searchParams.has('page'));
    await page.locator('.ant-pagination-item-1.ant-pagination-item-active').waitFor();
    const firstPage = await api<{ invoiceNumber: string }>(page, '/api/invoices?status=paid&sort=amount&order=asc&pageSize=20');
    await expect.poll(() => invoiceNumbers(page), eventually).toEqual(firstPage.rows.map((i) => i.invoiceNumber));

    // A third click on a sorted header goes back to the list's own order.
    await amount.getByRole('button', { name: 'Amount' }).click();
    await page.waitForURL((url) => !url.searchParams.has('sort'));
    expect(params(page)).toEqual({ status: 'paid' });
  });

  it('Customers: a shared link opens the same search, status and sort for someone else', async () => {
    const query = 'search=an&status=active&sort=name&order=desc';
    const other = await signedInContext(demo.product, DESKTOP);
    const page = await other.newPage();
    await page.goto(`${demo.product.baseUrl}/customers?${query}`);
    await page.getByTestId('customer-card').first().waitFor();
    const expected = await api<{ firstName: string; lastName: string; status: string }>(page, `/api/customers?${query}&pageSize=48`);
    expect(expected.rows.length).toBeGreaterThan(3);
    const names = () => page.getByTestId('customer-card').locator('.ant-card-head-title').allTextContents();
    await expect.poll(names, eventually).toEqual(expected.rows.map((c) => `${c.firstName} ${c.lastName}`));
    expect(await page.getByPlaceholder('Search customers by name, email, or phone...').inputValue()).toBe('an');
    expect(await shown(page, 'Customer status')).toBe('Active');
    expect(await shown(page, 'Sort by')).toBe('Sort by Name');
    expect(await shown(page, 'Sort order')).toBe('Descending');
    expect(await page.getByTestId('list-count').textContent()).toBe(`${expected.total} customers`);
    await expectAccessible(page, 'Customers from a shared link');
    await demo.product.screenshot(page, 'list-views-customers-shared-1440');

    // Choosing another sort keeps the search and the filter; the list's own order (newest first) leaves the URL.
    await choose(page, 'Sort by', 'Sort by Email');
    await page.waitForURL(/sort=email/);
    expect(params(page)).toEqual({ search: 'an', status: 'active', sort: 'email' });
    await choose(page, 'Sort by', 'Sort by Date added');
    await page.waitForURL((url) => !url.searchParams.has('sort'));
    expect(params(page)).toEqual({ search: 'an', status: 'active' });
    expect(await shown(page, 'Sort order')).toBe('Descending');
    await other.close();
  });

  it('Locks: sorts the cards by battery; typing a search replaces the history entry, so Back leaves the screen', async () => {
    const page = pages.wide;
    await visit(page, demo.product, '/units');
    await page.getByTestId('unit-card').first().waitFor();
    await page.getByRole('link', { name: 'Lock Management' }).click();
    await page.getByTestId('lock-card').first().waitFor();

    await choose(page, 'Sort by', 'Sort by Battery');
    await page.waitForURL(/sort=batteryLevel/);
    const byBattery = await api<{ lockId: string; batteryLevel: number | null }>(page, '/api/locks?sort=batteryLevel&pageSize=48');
    const lockIds = () => page.getByTestId('lock-card').locator('.ant-card-head-title').allTextContents();
    await expect.poll(lockIds, eventually).toEqual(byBattery.rows.map((l) => l.lockId));
    const levels = byBattery.rows.map((l) => l.batteryLevel ?? 101);
    expect(levels).toEqual([...levels].sort((a, b) => a - b));

    await page.getByPlaceholder('Search locks by ID or unit...').pressSequentially('NK-21', { delay: 30 });
    await page.waitForURL(/search=NK-21/);
    expect(params(page)).toEqual({ sort: 'batteryLevel', search: 'NK-21' });
    await page.goBack();
    await page.waitForURL(/\/locks$/);
    await page.goBack();
    await page.waitForURL(/\/units$/);
  });

  it('on a phone, a table is sorted from the choice above its rows', async () => {
    const page = pages.narrow;
    await visit(page, demo.product, '/billing');
    await page.getByTestId('invoice-row').first().waitFor();
    expect(await page.getByRole('columnheader', { name: 'Due Date' }).isVisible()).toBe(false);
    await choose(page, 'Sort by', 'Sort by Due Date');
    await page.waitForURL(/sort=dueDate/);
    await choose(page, 'Sort order', 'Ascending');
    await page.waitForURL(/order=asc/);
    const byDueDate = await api<{ invoiceNumber: string }>(page, '/api/invoices?sort=dueDate&order=asc&pageSize=20');
    await expect.poll(() => invoiceNumbers(page), eventually).toEqual(byDueDate.rows.map((i) => i.invoiceNumber));
    expect(await horizontalOverflow(page)).toBe(0);
    await expectAccessible(page, 'Billing sorted on a phone');
    await demo.product.screenshot(page, 'list-views-billing-390');
  });

  it('the audit log: a page two ahead and the jumps of five either way are read from the cursor of the page shown, and a reload reads the same page by it', async () => {
    const page = pages.wide;
    // Oldest first, so events recorded meanwhile (at the end) move no page.
    const query = 'order=asc&pageSize=25';
    const asked: URL[] = [];
    const listen = (request: Request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/audit/events') asked.push(url);
    };
    page.on('request', listen);
    const lastAsked = () => Object.fromEntries([...asked.at(-1)!.searchParams].filter(([key]) => ['page', 'cursor', 'skip'].includes(key)));
    const entities = () => page.getByTestId('audit-row').locator('.col-streamName').allTextContents();
    const pageByNumber = async (n: number) => (await api<{ entity: string }>(page, `/api/audit/events?${query}&page=${n}`)).rows.map((e) => e.entity);
    const showsPage = async (n: number) => {
      await page.locator(`.ant-pagination-item-${n}.ant-pagination-item-active`).waitFor();
      await expect.poll(entities, eventually).toEqual(await pageByNumber(n));
    };

    await visit(page, demo.product, '/audit?order=asc');
    await showsPage(1);
    await page.locator('.ant-pagination-item-2').click();
    await showsPage(2);
    expect(lastAsked()).toEqual({ page: '2', cursor: expect.any(String) });

    // Two pages ahead: page 2's next cursor, one page passed over; the URL keeps both.
    await page.locator('.ant-pagination-item-4').click();
    await page.waitForURL(/skip=1/);
    await showsPage(4);
    const reachedBy = { page: '4', cursor: expect.stringMatching(/^[A-Za-z0-9_-]+$/), skip: '1' };
    expect(lastAsked()).toEqual(reachedBy);
    expect(params(page)).toEqual({ order: 'asc', ...reachedBy });

    await page.reload();
    await showsPage(4);
    expect(lastAsked()).toEqual({ ...reachedBy, cursor: params(page).cursor });

    // The "•••" jumps of five pages, on and back (from page 9's previous cursor, the other way).
    await page.locator('.ant-pagination-jump-next').click();
    await showsPage(9);
    expect(lastAsked()).toEqual({ page: '9', cursor: expect.any(String), skip: '4' });
    const fromPage4 = params(page).cursor;
    await page.locator('.ant-pagination-jump-prev').click();
    await showsPage(4);
    expect(lastAsked()).toEqual({ page: '4', cursor: expect.any(String), skip: '4' });
    expect(params(page).cursor).not.toBe(fromPage4);
    page.off('request', listen);
  });

  it('the audit log sorts by when events occurred or were recorded, either way', async () => {
    const page = pages.wide;
    await visit(page, demo.product, '/audit');
    await page.getByTestId('audit-row').first().waitFor();
    const occurred = page.getByRole('columnheader', { name: 'Occurred' });
    expect(await occurred.getAttribute('aria-sort')).toBe('descending');
    await occurred.getByRole('button', { name: 'Occurred' }).click();
    await page.waitForURL(/order=asc/);
    await expect.poll(() => occurred.getAttribute('aria-sort')).toBe('ascending');
    const oldest = await api<{ id: string; description: string; streamName: string; entity: string }>(
      page,
      '/api/audit/events?sort=occurredAt&order=asc&pageSize=25',
    );
    // The Entity column names what each event is about ("Unit RS-A101", "Gate code · Unit RS-A101, …"), in the order the API sorted them.
    const entities = () => page.getByTestId('audit-row').locator('.col-streamName').allTextContents();
    await expect.poll(entities, eventually).toEqual(oldest.rows.map((e) => e.entity));

    await page.getByRole('columnheader', { name: 'Recorded' }).getByRole('button').click();
    await page.waitForURL(/sort=recordedAt/);
    expect(params(page)).toEqual({ sort: 'recordedAt' });
    await expect.poll(() => page.getByRole('columnheader', { name: 'Recorded' }).getAttribute('aria-sort')).toBe('descending');
    expect(await occurred.getAttribute('aria-sort')).toBeNull();
  });
});

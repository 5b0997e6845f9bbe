import { formatDollars } from '@storage/contracts/money';
import { readDownload } from '@storage/testing/browser';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { demoStaffScreens, horizontalOverflow } from './staff-browser.ts';
import { screenshotViewport } from './viewport-screenshot.ts';

// The Reports screen in Chromium on the demo data: the four figures from the metrics call, the
// twelve-month charts and figures, and the CSV downloads.

describe('Reports in Chromium', { timeout: 120_000 }, () => {
  const demo = demoStaffScreens({ acceptDownloads: true });

  async function openReports(context: BrowserContext): Promise<Page> {
    const page = await context.newPage();
    await page.goto(`${demo.product.baseUrl}/reports`);
    await page.getByRole('heading', { name: 'Reports', exact: true }).waitFor();
    await page.getByRole('img', { name: 'Revenue by Month' }).locator('.recharts-bar-rectangle').first().waitFor();
    return page;
  }

  it('shows the figures of the metrics call, never the sample values', async () => {
    const page = await openReports(demo.wide);
    const metrics = await (await page.request.get(`${demo.product.baseUrl}/api/dashboard/metrics`)).json();
    const cards = await page.getByTestId('metric-card').allTextContents();
    expect(cards).toHaveLength(4);
    for (const [index, title] of ['Monthly Revenue', 'Occupancy Rate', 'Active Customers', 'Outstanding'].entries()) {
      expect(cards[index]).toContain(title);
    }
    expect(cards[2]).toContain(String(metrics.activeCustomers));
    expect(cards[1]).toContain(`${metrics.occupancyRate.toFixed(1)}%`);
    expect(cards.join(' ')).not.toContain('1,380.00');
    await screenshotViewport(page, 'reports-1440-top');
    await demo.product.screenshot(page, 'reports-1440');
    await page.close();
  });

  it('charts twelve months of revenue and occupancy, aging receivables, days to fill and payment success', async () => {
    const page = await openReports(demo.wide);
    const report = await (await page.request.get(`${demo.product.baseUrl}/api/reports/overview`)).json();
    for (const chart of ['Revenue by Month', 'Occupancy Trend', 'Aging Receivables']) {
      await page.getByRole('img', { name: chart }).locator('svg.recharts-surface').waitFor();
    }
    // A month without revenue has no bar to draw.
    const monthsWithRevenue = report.revenueByMonth.filter((m: { revenue: string }) => m.revenue !== '0.00').length;
    expect(await page.getByRole('img', { name: 'Revenue by Month' }).locator('.recharts-bar-rectangle').count()).toBe(monthsWithRevenue);
    expect(await page.getByRole('img', { name: 'Revenue by Month' }).locator('.recharts-xAxis .recharts-cartesian-axis-tick').count()).toBeGreaterThan(1);
    const bucketsOwed = report.agingReceivables.filter((b: { amount: string }) => b.amount !== '0.00').length;
    expect(await page.getByRole('img', { name: 'Aging Receivables' }).locator('.recharts-bar-rectangle').count()).toBe(bucketsOwed);
    expect(await page.getByRole('img', { name: 'Aging Receivables' }).textContent()).toContain('90+ days');
    const figures = await page.getByTestId('report-figure').allTextContents();
    expect(figures[0]).toContain(`${report.daysToFill.toFixed(1)} days`);
    expect(figures[1]).toContain(`${report.paymentSuccessRate.toFixed(1)}%`);
    expect(figures.join(' ')).not.toMatch(/3\.2 days|98\.5%/);
    await page.close();
  });

  it('downloads each report as CSV', async () => {
    const page = await openReports(demo.wide);
    for (const [button, header] of [
      [
        'Rent Roll',
        'Facility,Building,Unit,Size,Customer,Email,Phone,Lease Start,Monthly Rate,Street Rate,Rate Paid,Promotion,Deposit,Billed Through,Current Period Start,Current Period End,Renter Balance,Days Past Due',
      ],
      ['Aging Receivables', 'Customer,Email,Facility,Current,1-30 Days,31-60 Days,61-90 Days,90+ Days,Credit,Balance,Unreconciled'],
      ['Payments by Method', 'Date,Method,Payments,Paid,Refunds,Refunded,Total'],
      [
        'Revenue by Charge Type',
        'Month,Rent,Prorated Rent,Deposit,Admin Fee,Late Fee,Credit,Adjustment,Protection,Promotions,Merchandise,Charged,Sales Tax,Voided,Written Off,Net',
      ],
      ['Sales Tax', 'From,To,Facility,Charge,Billed,Taxable,Sales Tax'],
      ['Occupancy', 'Month,Total Units,Occupied Units,Occupancy Rate (%),Move-ins,Move-outs'],
      ['Revenue', 'Month,Payments,Revenue'],
    ] as const) {
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: new RegExp(`${button}$`) }).click()]);
      const lines = (await readDownload(download)).toString('utf8').trim().split('\r\n');
      expect(lines[0], button).toBe(header);
      // Today's payments may be none: that report is a header alone then.
      if (button !== 'Payments by Method') expect(lines.length, button).toBeGreaterThan(1);
    }
    await page.close();
  });

  it('shows payments by method per day for a chosen range, with totals, and downloads the same as CSV', async () => {
    const page = await openReports(demo.wide);
    const card = page.getByTestId('payments-by-method-report');
    // By default today (UTC for all facilities); the demo's payments of the last 60 days are chosen.
    const today = (await (await page.request.get(`${demo.product.baseUrl}/api/reports/payments-by-method`)).json()).to as string;
    await expect.poll(() => card.getByLabel('To').inputValue()).toBe(today);
    const from = new Date(Date.parse(`${today}T00:00:00Z`) - 60 * 86_400_000).toISOString().slice(0, 10);
    const report = await (await page.request.get(`${demo.product.baseUrl}/api/reports/payments-by-method?from=${from}&to=${today}`)).json();
    expect(report.rows.length).toBeGreaterThan(0);
    await card.getByLabel('From').fill(from);
    const rows = card.getByTestId('payments-by-method-row');
    // One row per day and method, then one per method over the range, then all methods.
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(report.rows.length + report.methods.length + 1);
    const first = report.rows[0];
    const firstRow = await rows.first().textContent();
    expect(firstRow).toContain(first.methodLabel);
    expect(firstRow).toContain(formatDollars(first.total));
    const totalRow = await rows.last().textContent();
    expect(totalRow).toContain('All methods');
    expect(totalRow).toContain(formatDollars(report.totals.total));

    const [download] = await Promise.all([page.waitForEvent('download'), card.getByRole('link', { name: 'Download Payments by Method as CSV' }).click()]);
    const lines = (await readDownload(download)).toString('utf8').trim().split('\r\n');
    expect(lines[0]).toBe('Date,Method,Payments,Paid,Refunds,Refunded,Total');
    expect(lines).toHaveLength(1 + report.rows.length + report.methods.length + 1);
    expect(lines[1]).toBe([first.date, first.methodLabel, first.payments, first.paid, first.refunds, first.refunded, first.total].join(','));
    const t = report.totals;
    expect(lines.at(-1)).toBe(`${from} – ${today},All methods,${t.payments},${t.paid},${t.refunds},${t.refunded},${t.total}`);
    await demo.product.screenshot(page, 'reports-payments-by-method-1440');
    await page.close();
  });

  it('pages the rent roll by facility, building and unit, with the figures of every lease below it', async () => {
    const page = await openReports(demo.wide);
    const card = page.getByTestId('rent-roll-report');
    const firstPage = await page.request.get(`${demo.product.baseUrl}/api/reports/rent-roll?pageSize=25`);
    const roll = await firstPage.json();
    const leases = Number(firstPage.headers()['x-total-count']);
    // The demo leases more units than a page holds, so the pages are there to walk.
    expect(leases).toBeGreaterThan(25);
    expect(roll.leases).toBe(leases);
    const rows = card.getByTestId('rent-roll-row');
    await expect.poll(() => rows.count()).toBe(25);
    expect(await rows.first().textContent()).toContain(roll.rows[0].customer);
    // Street rate against rate paid, beside the lease's rate (the server's figures, a dash without a current period).
    for (const name of ['Rate', 'Street Rate', 'Rate Paid']) await card.getByRole('columnheader', { name, exact: true }).waitFor();
    const firstRow = await rows.first().textContent();
    expect(firstRow).toContain(formatDollars(roll.rows[0].streetRate));
    expect(firstRow).toContain(roll.rows[0].ratePaid === null ? '—' : formatDollars(roll.rows[0].ratePaid));
    expect(await card.textContent()).toContain(
      `${leases.toLocaleString('en-US')} leases · ${formatDollars(roll.totalMonthlyRate)} a month · renters owe ${formatDollars(roll.totalBalance)}`,
    );
    const second = await (
      await page.request.get(`${demo.product.baseUrl}/api/reports/rent-roll?pageSize=25&page=2&cursor=${firstPage.headers()['x-next-cursor']}`)
    ).json();
    await card.locator('.ant-pagination-item-2').click();
    await card.locator('.ant-pagination-item-2.ant-pagination-item-active').waitFor();
    await expect.poll(() => rows.first().textContent()).toContain(second.rows[0].customer);
    expect(await rows.count()).toBe(Math.min(25, leases - 25));
    await page.close();
  });

  it('fits a phone screen', async () => {
    const page = await openReports(demo.narrow);
    await screenshotViewport(page, 'reports-390-top');
    await demo.product.screenshot(page, 'reports-390');
    expect(await horizontalOverflow(page)).toBe(0);
    await page.close();
  });
});

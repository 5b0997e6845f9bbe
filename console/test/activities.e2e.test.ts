import { readDownload } from '@storage/testing/browser';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { allMatch, chooseSelectOption, demoStaffScreens, facilityShown, horizontalOverflow } from './staff-browser.ts';
import { screenshotViewport } from './viewport-screenshot.ts';

// Lists refetch after a change; on a busy machine that can take a few seconds.
const eventually = { timeout: 15_000 };

// The Recent Activity screen in Chromium on the demo data: tabs with counts, cards with their
// details, search, the type filter, the facility scope and the CSV export.

describe('Recent Activity in Chromium', { timeout: 120_000 }, () => {
  const demo = demoStaffScreens({ acceptDownloads: true });

  async function openActivities(context: BrowserContext): Promise<Page> {
    const page = await context.newPage();
    await page.goto(`${demo.product.baseUrl}/activities`);
    await page.getByRole('heading', { name: 'Recent Activity' }).waitFor();
    await page.getByTestId('activity-card').first().waitFor();
    return page;
  }
  // A count as people read it: "1,234", or "10,000+" past the count's cap.
  const tab = (page: Page, name: string) => page.getByRole('tab', { name: new RegExp(`^${name}\\s*[\\d,]+\\+?$`) });
  const tabCount = async (page: Page, name: string) => Number((await tab(page, name).textContent())!.replace(/\D/g, ''));

  it('shows the feed as cards with type, customer, time, description, details and email, under counted tabs', async () => {
    const page = await openActivities(demo.wide);
    const all = await tabCount(page, 'All');
    expect(all).toBeGreaterThan(100);
    const parts = await Promise.all(['Customers', 'Leases', 'Payments', 'Access'].map((name) => tabCount(page, name)));
    expect(parts.every((n) => n > 0)).toBe(true);

    const payment = page.getByTestId('activity-card').filter({ hasText: 'Payment Received' }).first();
    await payment.waitFor();
    const text = (await payment.textContent())!;
    expect(text).toMatch(/Payment of \$[\d,]+\.\d{2} received for INV-/);
    expect(text).toMatch(/Amount\$[\d,]+\.\d{2}/);
    expect(text).toMatch(/Paid Date[A-Z][a-z]{2} \d{1,2}, \d{4}/);
    expect(text).toMatch(/\d{1,2}:\d{2} (AM|PM)/);
    expect(text).toMatch(/@example\.(com|net|org)/);
    await screenshotViewport(page, 'activities-1440-top');

    const lock = page
      .getByTestId('activity-card')
      .filter({ hasText: /^Lock Battery Low/ })
      .first();
    await page.getByLabel('Search activities').fill('smart lock');
    await lock.waitFor();
    // A lock's own report names nobody: no renter, and no staff member did it.
    expect(await lock.textContent()).toContain('Unknown User');
    expect(await lock.textContent()).toContain('No email');

    await page.getByLabel('Search activities').fill('');
    await tab(page, 'Payments').click();
    await expect
      .poll(
        async () => allMatch(await page.getByTestId('activity-card').locator('.ant-tag').allTextContents(), (t) => /^(Invoice|Payment)/.test(t)),
        eventually,
      )
      .toBe(true);
    expect(await page.getByTestId('activity-card').count()).toBe(Math.min(50, parts[2]!));
    await page.getByLabel('Search activities').fill('nothing-matches-this');
    await page.getByText('No payment activity').waitFor();
    expect(await tabCount(page, 'All')).toBe(0);
    await page.close();
  });

  it('searches by customer, filters by type and scopes to a facility', async () => {
    const page = await openActivities(demo.wide);
    const first = page.getByTestId('activity-card').filter({ hasText: '@' }).first();
    // The email line of the card alone: the card's whole text runs the unit number into the email.
    const email = (await first.getByText(/@example\.(com|net|org)$/).textContent())!.trim();
    await page.getByLabel('Search activities').fill(email);
    await expect.poll(async () => allMatch(await page.getByTestId('activity-card').allTextContents(), (t) => t.includes(email)), eventually).toBe(true);
    await page.getByLabel('Search activities').fill('');

    await chooseSelectOption(
      page,
      page.getByLabel('Activity type'),
      'Lease Started',
      page
        .locator('.ant-select')
        .filter({ has: page.getByLabel('Activity type') })
        .filter({ hasText: 'Lease Started' }),
    );
    await expect
      .poll(async () => allMatch(await page.getByTestId('activity-card').locator('.ant-tag').allTextContents(), (t) => t === 'Lease Started'), eventually)
      .toBe(true);

    await chooseSelectOption(
      page,
      page.getByLabel('Facility'),
      /^Harbor Point Storage/,
      facilityShown(page, page.locator('.sidebar-facility'), 'Harbor Point Storage'),
    );
    await expect
      .poll(async () => {
        const texts = await page.getByTestId('activity-card').allTextContents();
        return texts.length > 0 && texts.every((t) => /unit HP-/.test(t));
      }, eventually)
      .toBe(true);
    await page.close();
  });

  it('exports the cards shown as CSV', async () => {
    const page = await openActivities(demo.wide);
    await tab(page, 'Leases').click();
    await expect
      .poll(async () => allMatch(await page.getByTestId('activity-card').locator('.ant-tag').allTextContents(), (t) => /^(Lease|Unit)/.test(t)), eventually)
      .toBe(true);
    const shown = await page.getByTestId('activity-card').count();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^activities-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = (await readDownload(download)).toString('utf8').trim().split('\r\n');
    expect(lines[0]).toBe('Date,Time,Type,Customer,Email,Description,Details');
    expect(lines).toHaveLength(shown + 1);
    expect(lines[1]).toMatch(/^"[A-Z][a-z]{2} \d{1,2}, \d{4}",\d{1,2}:\d{2} (AM|PM),(Lease Started|Lease Ended|Unit Maintenance),/);
    await page.close();
  });

  it('fits a phone screen', async () => {
    const page = await openActivities(demo.narrow);
    await screenshotViewport(page, 'activities-390-top');
    expect(await horizontalOverflow(page)).toBe(0);
    await page.close();
  });
});

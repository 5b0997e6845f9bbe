import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chooseFacility, chooseSelectOption, demoStaffScreens, dismissToasts, horizontalOverflow, sharedPages, visit } from './staff-browser.ts';
import { screenshotViewport } from './viewport-screenshot.ts';

// Lists refetch after a change; on a busy machine that can take a few seconds.
const eventually = { timeout: 15_000 };

// The Dashboard in Chromium on the demo data: occupancy, the four figures with their changes
// since last month, the feed, the quick actions, the recent customers and the bell.

const CAPTION = /^([+-]?\d+\.\d(%| pts) from last month|\d+ new this month|—)$/;

describe('Dashboard in Chromium', { timeout: 120_000 }, () => {
  const demo = demoStaffScreens();
  // One console per width for the file, going from screen to screen as a user does (visit).
  const pages = sharedPages(demo);

  async function openDashboard(page: Page): Promise<Page> {
    // The toasts of the test before stay across the app's navigation and could cover a button.
    await dismissToasts(page);
    await visit(page, demo.product, '/');
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.getByTestId('building-occupancy').first().waitFor();
    await page.getByTestId('feed-entry').first().waitFor();
    return page;
  }

  it('shows occupancy by building, the four figures captioned with their change, and the feed', async () => {
    const page = await openDashboard(pages.wide);
    // The demo business fills the profile: no prompt to fill it in.
    expect(await page.getByText('Your business profile is empty').count()).toBe(0);
    await page.getByText("Welcome back. Here's what's happening at your facilities.").waitFor();
    const occupancy = page.getByTestId('occupancy-card');
    await occupancy.getByText('All Facilities Occupancy').waitFor();
    expect(await page.getByTestId('building-occupancy').count()).toBe(9);
    const riverside = occupancy.getByRole('region', { name: 'Riverside Self Storage' });
    expect(await riverside.getByTestId('building-occupancy').first().textContent()).toMatch(/^Building A\d+\/8 occupied · \d+\.\d%$/);

    const cards = page.getByTestId('metric-card');
    expect(await cards.count()).toBe(4);
    const texts = await cards.allTextContents();
    for (const [index, title] of ['Total Revenue', 'Occupancy Rate', 'Active Customers', 'Outstanding Balance'].entries()) {
      expect(texts[index]).toContain(title);
    }
    expect(texts[0]).toMatch(/\$[\d,]+\.\d{2}/);
    expect(texts[1]).toMatch(/\d+\.\d%/);
    for (const caption of await page.locator('.metric-caption').allTextContents()) expect(caption).toMatch(CAPTION);
    expect(texts[2]).toMatch(/\d+ new this month/);
    // The spec's hard-coded captions are gone.
    expect(texts.join(' ')).not.toContain('+12.5% from last month');

    expect(await page.getByTestId('feed-entry').first().textContent()).toMatch(/(Just now|\d+h ago|\d+d ago)$/);
    await demo.product.screenshot(page, 'dashboard-overview-1440');
    await page.getByRole('link', { name: 'View All' }).click();
    await page.waitForURL(`${demo.product.baseUrl}/activities`);
    await page.getByRole('heading', { name: 'Recent Activity' }).waitFor();
  });

  /** Closes the notification panel, which the shared page would otherwise keep open for the next test. */
  async function closeNotifications(page: Page): Promise<void> {
    await page.getByRole('button', { name: /^Notifications, \d+ unread$/ }).click();
    await page.locator('.notification-panel').waitFor({ state: 'hidden' });
  }

  // The notification tests come before those that change the data: the page keeps the
  // notifications it fetched on opening (a new customer adds one), and compares them to the server.
  it('counts every unread notification on the bell and lists the newest', async () => {
    const page = await openDashboard(pages.wide);
    const unread = Number((await page.request.get(`${demo.product.baseUrl}/api/notifications`)).headers()['x-unread-count']);
    expect(unread).toBeGreaterThan(0);
    const bell = page.getByRole('button', { name: /^Notifications, \d+ unread$/ });
    expect(await bell.getAttribute('aria-label')).toBe(`Notifications, ${unread} unread`);
    await bell.click();
    const panel = page.locator('.notification-panel');
    await panel.getByRole('button', { name: 'Mark all as read' }).waitFor();
    expect(await panel.locator('.notification-time').first().textContent()).toMatch(/^\d{1,2}:\d{2} (AM|PM)$/);
    await panel.locator('.notification-item-unread').first().click();
    await page.getByRole('button', { name: `Notifications, ${unread - 1} unread` }).waitFor();
    await closeNotifications(page);
  });

  it('draws the notification icons with the icon set, not emoji', async () => {
    const page = await openDashboard(pages.wide);
    await page.getByRole('button', { name: /^Notifications, \d+ unread$/ }).click();
    const icons = page.locator('.notification-panel .notification-icon');
    await icons.first().waitFor();
    expect(await icons.count()).toBeGreaterThan(0);
    for (const icon of await icons.all()) {
      expect(await icon.locator('svg').count()).toBe(1);
      expect((await icon.textContent())?.trim()).toBe('');
    }
    await closeNotifications(page);
  });

  it('"Mark all as read" marks every unread notification, past the 50 listed, with one request, and the badge goes to 0', async () => {
    const page = await openDashboard(pages.wide);
    const unread = Number((await page.request.get(`${demo.product.baseUrl}/api/notifications`)).headers()['x-unread-count']);
    expect(unread).toBeGreaterThan(50);
    const calls: string[] = [];
    const record = (request: Request) => {
      if (request.method() !== 'GET' && request.url().includes('/api/notifications')) calls.push(`${request.method()} ${new URL(request.url()).pathname}`);
    };
    page.on('request', record);
    await page.getByRole('button', { name: `Notifications, ${unread} unread` }).click();
    await page.locator('.notification-panel').getByRole('button', { name: 'Mark all as read' }).click();
    await page.getByRole('button', { name: 'Notifications, 0 unread' }).waitFor();
    page.off('request', record);
    expect(calls).toEqual(['POST /api/notifications/read-all']);
    expect(await page.locator('.notification-panel .notification-item-unread').count()).toBe(0);
    expect(Number((await page.request.get(`${demo.product.baseUrl}/api/notifications`)).headers()['x-unread-count'])).toBe(0);
    await closeNotifications(page);
  });

  it('adds a customer from the quick actions, then finds, views and edits them in the recent customers', async () => {
    const page = await openDashboard(pages.wide);
    const table = page.getByRole('table', { name: 'Recent customers' });
    await page.getByRole('button', { name: 'Add New Customer' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Customer' });
    await dialog.getByLabel('First Name').fill('Hedy');
    await dialog.getByLabel('Last Name').fill('Lamarr');
    await dialog.getByLabel('Email').fill('hedy.lamarr@example.com');
    await chooseFacility(page, dialog, 'Oak Hill Storage Center');
    await dialog.getByRole('button', { name: 'Add Customer' }).click();
    await page.getByText('Customer created successfully').waitFor();
    await dialog.waitFor({ state: 'hidden' });

    const row = table.getByRole('row').filter({ hasText: 'hedy.lamarr@example.com' });
    await row.waitFor();
    expect(await row.textContent()).toContain('Hedy Lamarr');
    expect(await row.textContent()).toContain('Active');
    expect(await row.textContent()).toContain('--');
    expect(await table.getByRole('row').count()).toBeLessThanOrEqual(6);
    await screenshotViewport(page, 'dashboard-1440-top');
    await demo.product.screenshot(page, 'dashboard-1440');

    // A tenant's row shows the unit and rent of their active lease.
    const withLease = table.getByRole('row').filter({ hasText: /[A-Z]{2}-[A-C]\d{3}/ });
    const search = page.getByLabel('Search recent customers');
    await search.fill('a');
    await expect.poll(async () => withLease.count(), eventually).toBeGreaterThan(0);
    expect(await withLease.first().textContent()).toMatch(/\$\d+\.\d{2}/);

    await search.fill('LAMARR');
    await expect.poll(async () => table.getByRole('row').count(), eventually).toBe(2);
    await search.fill('nobody-is-called-this');
    await page.getByText('No customers found matching your search').waitFor();
    await search.fill('hedy');
    await row.waitFor();

    await row.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Customer' });
    await edit.getByLabel('Last Name').fill('Kiesler');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Customer updated successfully').waitFor();
    await table.getByRole('row').filter({ hasText: 'Hedy Kiesler' }).waitFor();

    await table.getByRole('row').filter({ hasText: 'Hedy Kiesler' }).getByRole('button', { name: 'View' }).click();
    await page.waitForURL(/\/customers\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { name: 'Hedy Kiesler' }).waitFor();
    await page.getByText('hedy.lamarr@example.com').first().waitFor();
  });

  it('goes where each quick action says', async () => {
    const page = await openDashboard(pages.wide);
    for (const [button, path] of [
      ['Find Available Units', '/units?status=available'],
      ['Generate Invoice', '/billing?new=1'],
      ['Manage Locks', '/locks'],
    ] as const) {
      await page.getByRole('button', { name: button }).click();
      await page.waitForURL(`${demo.product.baseUrl}${path}`);
      await page.goBack();
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    }
  });

  it('scopes everything to a selected facility', async () => {
    const page = await openDashboard(pages.wide);
    await chooseSelectOption(
      page,
      page.getByLabel('Facility'),
      /^Oak Hill Storage Center/,
      page.getByText("Welcome back, Olivia. Here's what's happening at your facility."),
    );
    await page.getByTestId('occupancy-card').getByText('Facility Occupancy', { exact: true }).waitFor();
    expect(await page.getByTestId('building-occupancy').count()).toBe(3);
    const rows = page.getByRole('table', { name: 'Recent customers' }).locator('tbody').getByRole('row');
    await expect.poll(async () => (await rows.allTextContents()).every((t) => !/[A-Z]{2}-[A-C]\d{3}/.test(t) || /OH-/.test(t)), eventually).toBe(true);
  });

  it('fits a phone screen', async () => {
    const page = await openDashboard(pages.narrow);
    await page.getByText('Recent Customers').waitFor();
    await screenshotViewport(page, 'dashboard-390-top');
    await demo.product.screenshot(page, 'dashboard-390');
    expect(await horizontalOverflow(page)).toBe(0);
  });
});

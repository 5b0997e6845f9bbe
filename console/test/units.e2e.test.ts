import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { allMatch, chooseFacility, chooseSelectOption, demoStaffScreens, dismissToasts, facilityShown, sharedPages, visit } from './staff-browser.ts';
import { screenshotViewport } from './viewport-screenshot.ts';

// The Units screen in Chromium on the demo data: building groups, adding a unit, changing a
// unit's status, the facility scope, and both widths. The list's loading and empty states, the Add
// Unit form's defaults and checks and a refused unit number are the component tests'
// (console/test/components/units.component.test.tsx).

describe('Units screen in Chromium', { timeout: 120_000 }, () => {
  const demo = demoStaffScreens();
  // One console per width for the file, going from screen to screen as a user does (visit).
  const pages = sharedPages(demo);

  async function openUnits(page: Page): Promise<Page> {
    // The toasts of the test before stay across the app's navigation and could cover Add Unit.
    await dismissToasts(page);
    await visit(page, demo.product, '/units');
    await page.getByRole('heading', { name: 'Units', exact: true }).waitFor();
    await page.getByTestId('unit-card').first().waitFor();
    return page;
  }

  const search = (page: Page, text: string) => page.getByPlaceholder('Search units by number, building, or size...').fill(text);

  it('shows the units under building headings with their counts, each named by its facility with every facility in view', async () => {
    const page = await openUnits(pages.wide);
    const heading = page.getByRole('region', { name: 'Riverside Self Storage · Building A' });
    await heading.waitFor();
    expect(await heading.getByTestId('building-unit-count').textContent()).toMatch(/^\d+ units$/);
    const card = page.getByTestId('unit-card').filter({ hasText: 'RS-A101' });
    expect(await card.textContent()).toMatch(/\$\d+\.\d{2}\/month/);
    expect(await card.textContent()).toContain('Climate controlled, interior hallway');
    await demo.product.screenshot(page, 'units-1440');
    await screenshotViewport(page, 'units-1440-top');

    await search(page, '20x20');
    await page
      .getByTestId('list-count')
      .filter({ hasText: /^\d+ units?$/ })
      .waitFor();
    await expect.poll(async () => allMatch(await page.getByTestId('unit-card').allTextContents(), (t) => t.includes('20x20')), { timeout: 10_000 }).toBe(true);
  });

  it('adds a unit in the facility chosen, then finds it in the list', async () => {
    const page = await openUnits(pages.wide);
    await page.getByRole('button', { name: 'Add Unit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Unit' });
    await dialog.waitFor();

    await dialog.getByLabel('Unit Number').fill('E2E-Z101');
    await dialog.getByLabel('Building').fill('Z');
    await dialog.getByLabel('Monthly Rate').fill('135.5');
    await dialog.getByLabel('Description').fill('Corner unit by the lift');
    await chooseFacility(page, dialog, 'Harbor Point Storage');
    const created = page.waitForResponse((r) => r.url().endsWith('/api/units') && r.request().method() === 'POST');
    await dialog.getByRole('button', { name: 'Add Unit' }).click();
    const facilities = (await (await page.request.get(`${demo.product.baseUrl}/api/facilities`)).json()) as { id: string; name: string }[];
    expect((await (await created).json()).facilityId).toBe(facilities.find((f) => f.name === 'Harbor Point Storage')!.id);

    await page.getByText('Unit created successfully').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await search(page, 'E2E-Z101');
    const card = page.getByTestId('unit-card').filter({ hasText: 'E2E-Z101' });
    await card.waitFor();
    expect(await card.textContent()).toContain('$135.50/month');
    expect(await card.textContent()).toContain('Available');
    const group = page.getByRole('region', { name: 'Harbor Point Storage · Building Z' });
    expect(await group.getByTestId('building-unit-count').textContent()).toBe('1 unit');
  });

  it('puts a unit into maintenance from its card, and shows why it cannot be marked occupied', async () => {
    const page = await openUnits(pages.wide);
    await search(page, 'RS-');
    await page.getByRole('button', { name: 'Add Unit' }).waitFor();
    const available = page.getByTestId('unit-card').filter({ hasText: 'Available' }).first();
    await available.waitFor();
    const unitNumber = (await available.locator('.ant-card-head-title').textContent())!;
    await search(page, unitNumber);
    const card = page.getByTestId('unit-card').filter({ hasText: unitNumber });
    await card.getByRole('button', { name: `Change status of unit ${unitNumber}` }).click();
    await page.getByRole('menuitem', { name: 'Maintenance' }).click();
    await page.getByText(`Unit ${unitNumber} set to Maintenance`).waitFor();
    await card.getByText('Maintenance', { exact: true }).waitFor();

    await card.getByRole('button', { name: `Change status of unit ${unitNumber}` }).click();
    await page.getByRole('menuitem', { name: 'Occupied' }).click();
    await page.getByText('Failed to change unit status').waitFor();
    await page.getByText('A unit becomes occupied only when a lease starts').waitFor();

    await card.getByRole('button', { name: `Change status of unit ${unitNumber}` }).click();
    await page.getByRole('menuitem', { name: 'Available' }).click();
    await card.getByText('Available', { exact: true }).waitFor();
  });

  it('scopes the list to the facility chosen in the sidebar', async () => {
    const page = await openUnits(pages.wide);
    await chooseSelectOption(
      page,
      page.getByLabel('Facility', { exact: true }),
      /^Oak Hill Storage Center/,
      facilityShown(page, page.locator('.sidebar-facility'), 'Oak Hill Storage Center'),
    );
    await expect
      .poll(async () => {
        const titles = await page.locator('[data-testid="unit-card"] .ant-card-head-title').allTextContents();
        return titles.length > 0 && titles.every((t) => t.startsWith('OH-'));
      })
      .toBe(true);
    // A unit added now starts in that facility.
    await page.getByRole('button', { name: 'Add Unit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Unit' });
    await facilityShown(page, dialog, 'Oak Hill Storage Center').waitFor();
    // The page is shared with the next tests: the dialog and the facility in scope would stay.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await chooseSelectOption(
      page,
      page.getByLabel('Facility', { exact: true }),
      'All Facilities',
      facilityShown(page, page.locator('.sidebar-facility'), 'All Facilities'),
    );
  });

  it('keeps the facility in scope in the URL: a reload, another screen and a shared link keep it', async () => {
    const page = await openUnits(pages.wide);
    await chooseSelectOption(
      page,
      page.getByLabel('Facility', { exact: true }),
      /^Oak Hill Storage Center/,
      facilityShown(page, page.locator('.sidebar-facility'), 'Oak Hill Storage Center'),
    );
    const facilities = (await (await page.request.get(`${demo.product.baseUrl}/api/facilities`)).json()) as { id: string; name: string }[];
    const oakHill = facilities.find((f) => f.name === 'Oak Hill Storage Center')!.id;
    await page.waitForURL((url) => url.searchParams.get('facility') === oakHill);
    const scoped = async () =>
      expect
        .poll(async () => {
          const titles = await page.locator('[data-testid="unit-card"] .ant-card-head-title').allTextContents();
          return titles.length > 0 && titles.every((t) => t.startsWith('OH-'));
        })
        .toBe(true);
    await scoped();
    await page.reload();
    await page
      .locator('.sidebar-facility')
      .getByText(/^Oak Hill Storage Center/)
      .waitFor();
    await scoped();
    await page.getByRole('link', { name: 'Customers' }).first().click();
    await page.getByRole('heading', { name: 'Customers', exact: true }).waitFor();
    await page.waitForURL((url) => url.pathname === '/customers' && url.searchParams.get('facility') === oakHill);

    const shared = await demo.wide.newPage();
    await shared.goto(`${demo.product.baseUrl}/units?facility=${oakHill}`);
    await shared
      .locator('.sidebar-facility')
      .getByText(/^Oak Hill Storage Center/)
      .waitFor();
    await shared.close();

    await chooseSelectOption(
      page,
      page.getByLabel('Facility', { exact: true }),
      'All Facilities',
      facilityShown(page, page.locator('.sidebar-facility'), 'All Facilities'),
    );
    await page.waitForURL((url) => !url.searchParams.has('facility'));
  });

  it('falls back to All Facilities for an id that names no facility', async () => {
    // A link opened: a load of the console, not a move inside it.
    const page = pages.wide;
    await page.goto(`${demo.product.baseUrl}/units?facility=4b8e8a3e-0000-4000-8000-000000000000`);
    await page.getByTestId('unit-card').first().waitFor();
    await page.waitForURL((url) => !url.searchParams.has('facility'));
    await page.locator('.sidebar-facility').getByText('All Facilities').waitFor();
  });

  it('fits a phone screen without overlapping or cutting off', async () => {
    const page = await openUnits(pages.narrow);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await demo.product.screenshot(page, 'units-390');
    await screenshotViewport(page, 'units-390-top');
    await page.getByRole('button', { name: 'Add Unit' }).click();
    await page.getByRole('dialog', { name: 'Add Unit' }).waitFor();
    await screenshotViewport(page, 'units-add-390');
  });
});

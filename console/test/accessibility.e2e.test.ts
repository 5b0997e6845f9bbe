import { expectAccessible } from '@storage/testing/axe';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoStaffScreens, visit } from './staff-browser.ts';

// axe-core (WCAG 2.x A/AA) on every staff screen, with one open dialog where the screen has one,
// at the desktop width and on the phone; then focus staying inside a dialog and tabs moving with
// the arrow keys.

const screens = demoStaffScreens();

type Screen = { path: string; heading: string; dialog?: string };
const staffScreens: Screen[] = [
  { path: '/', heading: 'Dashboard', dialog: 'Add New Customer' },
  { path: '/customers', heading: 'Customers', dialog: 'Add Customer' },
  { path: '/units', heading: 'Units', dialog: 'Add Unit' },
  { path: '/leases', heading: 'Lease Agreements', dialog: 'Move In' },
  { path: '/locks', heading: 'Smart Locks', dialog: 'Add Lock' },
  { path: '/billing', heading: 'Billing & Invoices', dialog: 'Create Invoice' },
  { path: '/activities', heading: 'Recent Activity' },
  { path: '/reports', heading: 'Reports' },
  { path: '/settings', heading: 'Settings', dialog: 'Add Facility' },
  { path: '/audit', heading: 'Audit Log' },
  { path: '/messages', heading: 'Sent Messages' },
];

/**
 * A page that goes from screen to screen as a user does once the console is open (`visit`).
 * `show` resolves once the screen's heading is up and none of its requests has been in flight for
 * a moment (its data is in: the load event does not come again).
 */
function navigatingPage(page: Page) {
  let inFlight = 0;
  let lastChange = performance.now();
  const settle = () => {
    inFlight--;
    lastChange = performance.now();
  };
  page.on('request', () => {
    inFlight++;
    lastChange = performance.now();
  });
  page.on('requestfinished', settle);
  page.on('requestfailed', settle);
  return {
    page,
    async show(path: string, heading: string) {
      if (await page.getByRole('dialog').isVisible()) await page.keyboard.press('Escape');
      await visit(page, screens.product, path);
      await page.getByRole('heading', { name: heading, exact: true }).first().waitFor();
      await expect.poll(() => inFlight === 0 && performance.now() - lastChange >= 300, { interval: 50 }).toBe(true);
    },
  };
}

// One console at the desktop width for the file's tests, going from screen to screen (each test
// starts from the screen the one before left: an open dialog is closed first).
let desktop: ReturnType<typeof navigatingPage>;
beforeAll(async () => {
  desktop = navigatingPage(await screens.wide.newPage());
});
afterAll(async () => {
  await desktop?.page.close();
});

describe('staff screens pass axe-core in Chromium', { timeout: 120_000 }, () => {
  for (const { path, heading, dialog } of staffScreens) {
    it(`${heading} (${path})${dialog ? ` and its ${dialog} dialog` : ''}`, async () => {
      const { page } = desktop;
      await desktop.show(path, heading);
      await expectAccessible(page, heading);
      if (dialog) {
        await page.getByRole('button', { name: dialog }).first().click();
        await page.getByRole('dialog').waitFor();
        // The screen behind was checked above: the dialog alone now.
        await expectAccessible(page, `${heading}: ${dialog} dialog`, { include: '[role="dialog"]' });
      }
    });
  }

  it('keeps the contrast of a primary button under the pointer', async () => {
    // antd lightens a primary button on hover (3.6:1 with white); the theme darkens it instead,
    // for every primary button alike, so one dialog's shows it.
    const { page } = desktop;
    await desktop.show('/customers', 'Customers');
    await page.getByRole('button', { name: 'Add Customer' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.locator('.ant-btn-primary').last().hover();
    await expectAccessible(page, 'Add Customer dialog, pointer on its primary button', { include: '[role="dialog"]' });
    await page.keyboard.press('Escape');
  });

  it('every screen at 390 px, with the navigation drawer open', async () => {
    const phone = navigatingPage(await screens.narrow.newPage());
    const { page } = phone;
    for (const { path, heading } of staffScreens) {
      await phone.show(path, heading);
      await expectAccessible(page, `${heading} at 390 px`);
    }
    await page.getByRole('button', { name: 'Open navigation' }).first().click();
    await page.getByRole('dialog').waitFor();
    await expectAccessible(page, 'navigation drawer at 390 px');
    await page.close();
  });

  it('sign-in and not-found pages', async () => {
    const page = await screens.product.browser.newPage();
    await page.goto(`${screens.product.baseUrl}/login`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await expectAccessible(page, 'Sign in');
    await page.close();
    const signedIn = await screens.wide.newPage();
    await signedIn.goto(`${screens.product.baseUrl}/no-such-screen`);
    await signedIn.waitForLoadState('networkidle');
    await expectAccessible(signedIn, 'Not found');
    await signedIn.close();
  });
});

describe('keyboard use of dialogs and tabs', { timeout: 120_000 }, () => {
  it('keeps Tab and Shift+Tab inside an open dialog', async () => {
    const { page } = desktop;
    await desktop.show('/customers', 'Customers');
    await page.getByRole('button', { name: 'Add Customer' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    const focusInDialog = () => page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]')));
    const focused = () => page.evaluate(() => document.activeElement?.outerHTML.slice(0, 200));
    // The dialog takes the focus once its opening animation has ended: from then on it keeps it.
    await expect.poll(focusInDialog).toBe(true);
    for (let i = 0; i < 25; i++) {
      await page.keyboard.press('Tab');
      expect(await focusInDialog(), `after ${i + 1} Tab presses: ${await focused()}`).toBe(true);
    }
    for (let i = 0; i < 25; i++) {
      await page.keyboard.press('Shift+Tab');
      expect(await focusInDialog(), `after ${i + 1} Shift+Tab presses: ${await focused()}`).toBe(true);
    }
    await page.keyboard.press('Escape');
  });

  it('moves between the Lease Agreements tabs with the arrow keys', async () => {
    const { page } = desktop;
    await desktop.show('/leases', 'Lease Agreements');
    const tabs = page.getByRole('tablist').filter({ has: page.locator('[id$="-tab-inactive"]') });
    const selected = () => tabs.getByRole('tab', { selected: true }).getAttribute('id');
    const before = await selected();
    await tabs.getByRole('tab', { selected: true }).focus();
    await page.keyboard.press('ArrowRight');
    const afterArrow = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 300));
    await page.keyboard.press('Enter');
    await expect.poll(selected, { message: `focus after ArrowRight: ${afterArrow}` }).not.toBe(before);
    const focused = await page.evaluate(() => document.activeElement?.getAttribute('role'));
    expect(focused).toBe('tab');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Enter');
    await expect.poll(selected).toBe(before);
  });
});

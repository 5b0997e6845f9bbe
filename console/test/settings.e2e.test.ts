import { expectAccessible } from '@storage/testing/axe';
import { type ProductUnderTest, startProductUnderTest } from '@storage/testing/browser';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseSelectOption, DESKTOP, horizontalOverflow, PHONE, signedInContext } from './staff-browser.ts';

// Settings in a real browser: the owner saves each section and a reload shows it, adds a lease
// term, and manages facilities (the sidebar's selector follows at once); a clerk changes their own
// password and the old one stops working; the screen fits a phone. The defaults each section shows,
// the forms' messages and what they send, a refused facility name and the clerk's read-only view
// are the component tests' (console/test/components/settings*.component.test.tsx,
// lease-terms.component.test.tsx).

// A browser journey takes many round trips; a loaded machine needs more than the default 30 s.
const JOURNEY_TIMEOUT_MS = 90_000;

describe('Settings in Chromium', () => {
  let product: ProductUnderTest;
  // The owner, signed in once for the desktop journeys (the sign-in form is the auth tests').
  let owner: BrowserContext;

  beforeAll(async () => {
    product = await startProductUnderTest({ seedDemo: true });
    owner = await signedInContext(product, DESKTOP);
  }, 180_000);
  afterAll(async () => {
    await product?.close();
  });

  const card = (page: Page, title: string) => page.locator('.ant-card').filter({ has: page.locator('.ant-card-head-title', { hasText: title }) });

  const openSettings = async () => {
    const page = await owner.newPage();
    await page.goto(`${product.baseUrl}/settings`);
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    return page;
  };

  it(
    'saves each section for the owner, and a reload shows them',
    async () => {
      const page = await openSettings();
      expect(await page.getByRole('switch', { name: 'New Customer Alerts' }).isChecked()).toBe(true);
      await page.getByTestId('gateway-keys-card').getByTestId('gateway-key-row').nth(2).waitFor();
      await product.screenshot(page, 'settings-1440');

      const profile = card(page, 'Business Profile');
      await profile.getByLabel('Business Name').fill('Demo Storage Co.');
      await profile.getByLabel('Phone').fill('(503) 555-0199');
      await profile.getByLabel('Email').fill('office@demo-storage.test');
      await profile.getByRole('button', { name: 'Save Profile' }).click();
      await page.getByText('Business profile saved successfully').waitFor();

      await page.getByRole('switch', { name: 'New Customer Alerts' }).click();
      await card(page, 'Notifications').getByRole('button', { name: 'Save Preferences' }).click();
      await page.getByText('Notification preferences saved successfully').waitFor();

      const payments = card(page, 'Payment Settings');
      await payments.getByLabel('Late Fee Amount').fill('30.5');
      await payments.getByRole('button', { name: 'Save Payment Settings' }).click();
      await page.getByText('Payment settings saved successfully').waitFor();

      await page.reload();
      await page.getByRole('heading', { name: 'Settings' }).waitFor();
      await card(page, 'Business Profile').waitFor();
      expect(await page.getByLabel('Business Name').inputValue()).toBe('Demo Storage Co.');
      expect(await page.getByRole('switch', { name: 'New Customer Alerts' }).isChecked()).toBe(false);
      expect(await page.getByRole('switch', { name: 'Low Battery Alerts' }).isChecked()).toBe(true);
      expect(await page.getByLabel('Late Fee Amount').inputValue()).toBe('30.50');
      await page.close();
    },
    JOURNEY_TIMEOUT_MS,
  );

  it(
    "shows the demo business's lease term, and the owner adds one of their own",
    async () => {
      const page = await openSettings();
      const agreement = card(page, 'Lease Agreement');
      const lockTerm = 'The tenant must keep the unit locked with a lock of their own when not present.';
      expect(await agreement.getByLabel('Term 7', { exact: true }).inputValue()).toBe(lockTerm);
      await agreement.getByText("The agreement's terms: the 6 generated from your billing settings, then these.").waitFor();
      await agreement.getByRole('button', { name: /Add Term/ }).click();
      await agreement.getByLabel('Term 8', { exact: true }).fill('Keys to the unit are not kept by the office.');
      await agreement.getByRole('button', { name: 'Save Lease Agreement' }).click();
      await page.getByText('Lease agreement terms saved successfully').waitFor();

      await page.reload();
      expect(await card(page, 'Lease Agreement').getByLabel('Term 8', { exact: true }).inputValue()).toBe('Keys to the unit are not kept by the office.');
      const terms = await product.platform.api.app.inject({
        method: 'GET',
        url: '/api/settings/lease-terms',
        headers: { cookie: await product.platform.signIn('owner') },
      });
      expect(terms.json().effective.additionalTerms).toEqual([lockTerm, 'Keys to the unit are not kept by the office.']);
      await page.close();
    },
    JOURNEY_TIMEOUT_MS,
  );

  it(
    'adds and renames a facility, and the sidebar selector shows it at once',
    async () => {
      const page = await openSettings();
      // Its own name on each attempt (a retried attempt finds the first one's facility).
      const lake = `Lakeside Storage ${Math.random().toString(36).slice(2, 6).toUpperCase()}`;
      await card(page, 'Facilities').waitFor();

      await page.getByRole('button', { name: 'Add Facility' }).click();
      const dialog = page.getByRole('dialog');
      await product.screenshot(page, 'settings-add-facility-1440');
      await dialog.getByLabel('Name', { exact: true }).fill(lake);
      await dialog.getByLabel('Address').fill('9 Lake Shore Dr, Madison, WI 53703');
      await dialog.getByLabel('Phone').fill('(608) 555-0100');
      await dialog.getByLabel('Manager Name').fill('Ada Brooks');
      // Gate hours instead of 24-hour access.
      await dialog.getByRole('switch', { name: '24-hour access' }).click();
      await dialog.getByLabel('Opens At').fill('06:00');
      await dialog.getByLabel('Closes At').fill('22:00');
      // The dialog alone: the screen behind is the accessibility test's.
      await expectAccessible(page, 'Add Facility dialog with gate hours', { include: '[role="dialog"]' });
      await dialog.getByRole('button', { name: 'Add Facility' }).click();
      await page.getByText('Facility created successfully').waitFor();
      await dialog.waitFor({ state: 'hidden' });
      const row = page.getByTestId('facility-row').filter({ hasText: lake });
      await row.waitFor();
      expect(await row.textContent()).toContain('0/0 occupied');
      expect(await row.getByTestId('facility-access-hours').textContent()).toBe('Access hours: 6:00 AM – 10:00 PM every day');

      await chooseSelectOption(
        page,
        page.getByRole('combobox', { name: 'Facility' }),
        `${lake} (0/0 occupied)`,
        page.locator('.sidebar-facility').getByTitle(`${lake} (0/0 occupied)`),
      );
      await row.getByRole('button', { name: `Edit ${lake}` }).click();
      const editDialog = page.getByRole('dialog');
      await editDialog.getByLabel('Name', { exact: true }).fill(`${lake} North`);
      await editDialog.getByRole('button', { name: 'Save Changes' }).click();
      await page.getByText('Facility updated successfully').waitFor();
      await page
        .getByTestId('facility-row')
        .filter({ hasText: `${lake} North` })
        .waitFor();
      await page.locator('.sidebar-facility').getByTitle(`${lake} North (0/0 occupied)`).waitFor();
      await page.close();
    },
    JOURNEY_TIMEOUT_MS,
  );

  it(
    'lets a clerk change their own password, and the old one no longer signs in',
    async () => {
      const clerk = await product.platform.createStaff('clerk');
      const context = await signedInContext(product, PHONE, { login: clerk });
      const page = await context.newPage();
      await page.goto(`${product.baseUrl}/settings`);
      const security = card(page, 'Security');
      await security.getByLabel('Current Password').fill(clerk.password);
      await security.getByLabel('New Password').fill('clerk-new-secret');
      await security.getByLabel('Confirm Password').fill('clerk-new-secret');
      await security.getByRole('button', { name: 'Update Password' }).click();
      await page.getByText('Password changed successfully').waitFor();
      expect(await security.getByLabel('Current Password').inputValue()).toBe('');
      await product.screenshot(page, 'settings-clerk-390');

      await page.goto(`${product.baseUrl}/customers`);
      await page.getByRole('heading', { name: 'Customers' }).waitFor();
      const oldPassword = await product.platform.api.app.inject({ method: 'POST', url: '/api/auth/login', payload: clerk });
      expect(oldPassword.statusCode).toBe(401);
      await context.close();
    },
    JOURNEY_TIMEOUT_MS,
  );

  it(
    'fits a phone screen for the owner',
    async () => {
      const context = await signedInContext(product, PHONE);
      const page = await context.newPage();
      await page.goto(`${product.baseUrl}/settings`);
      await card(page, 'Facilities').getByTestId('facility-row').first().waitFor();
      expect(await horizontalOverflow(page)).toBe(0);
      await product.screenshot(page, 'settings-390');
      await page.getByRole('button', { name: 'Add Facility' }).click();
      await page.getByRole('dialog').getByLabel('Address').waitFor();
      await product.screenshot(page, 'settings-add-facility-390');
      await context.close();
    },
    JOURNEY_TIMEOUT_MS,
  );
});

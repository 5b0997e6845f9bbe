import { registerStaff } from '@storage/api/auth/staff';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../ops/src/testing/browser.ts';
import { startTestPlatform, type TestPlatform } from '../../ops/src/testing/platform.ts';

// The foundation's journey in a real browser: sign in with the demo login, add a customer,
// see it in the list at once; and the signed-out handling of a staff screen.

const staticRoots = {
  console: fileURLToPath(new URL('../dist', import.meta.url)),
  portal: fileURLToPath(new URL('../../portal/dist', import.meta.url)),
};
const screenshotDir = process.env.SCREENSHOT_DIR;

describe('console in Chromium', () => {
  let platform: TestPlatform;
  let browser: Browser;
  let baseUrl: string;

  beforeAll(async () => {
    platform = await startTestPlatform({ staticRoots });
    const ctx = { store: platform.api.store, actor: { type: 'system' } as const, correlationId: randomUUID(), now: new Date() };
    const { position } = await registerStaff(ctx, {
      email: 'owner@demo.test',
      firstName: 'Olivia',
      lastName: 'Owner',
      role: 'owner',
      password: 'demo1234',
    });
    await platform.api.afterAppend(position!, 10_000);
    await platform.api.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(platform.api.app.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await platform?.close();
  });

  async function shot(page: Page, name: string) {
    if (screenshotDir) await page.screenshot({ path: `${screenshotDir}/${name}.png`, fullPage: true });
  }

  it('signs in with the demo login, adds a customer and sees it in the list', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`${baseUrl}/`);
    await page.getByRole('link', { name: 'Business Dashboard' }).first().click();
    await page.waitForURL(`${baseUrl}/login`);
    await page.getByLabel('Email').fill('owner@demo.test');
    await page.getByLabel('Password').fill('demo1234');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.getByText('Facility Manager').first().waitFor();

    await page.getByRole('link', { name: 'Customers' }).first().click();
    await page.getByRole('heading', { name: 'Customers' }).waitFor();
    await page.getByText('No customers found').waitFor();
    await page.getByText('Get started by adding your first customer').waitFor();

    await page.getByRole('button', { name: 'Add Customer' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('First Name').fill('Grace');
    await dialog.getByLabel('Last Name').fill('Hopper');
    await dialog.getByLabel('Email').fill('grace.hopper@example.com');
    await dialog.getByLabel('Phone', { exact: true }).fill('555-0142');
    await dialog.getByRole('button', { name: 'Add Customer' }).click();

    await page.getByText('Customer created successfully').waitFor();
    const card = page.getByTestId('customer-card').filter({ hasText: 'Grace Hopper' });
    await card.waitFor();
    expect(await card.textContent()).toContain('grace.hopper@example.com');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await shot(page, 'customers-1440');

    await page.getByPlaceholder('Search customers by name, email, or phone...').fill('nobody-matches-this');
    await page.getByText('Try adjusting your search terms').waitFor();
    await page.close();
  });

  it('refuses a duplicate email with the Error toast and the server reason', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/login`);
    await page.getByLabel('Email').fill('owner@demo.test');
    await page.getByLabel('Password').fill('demo1234');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${baseUrl}/`);
    await page.goto(`${baseUrl}/customers`);
    await page.getByTestId('customer-card').first().waitFor();
    await page.getByRole('button', { name: 'Add Customer' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('First Name').fill('Grace');
    await dialog.getByLabel('Last Name').fill('Again');
    await dialog.getByLabel('Email').fill('grace.hopper@example.com');
    await dialog.getByRole('button', { name: 'Add Customer' }).click();
    await page.getByText('Failed to create customer').waitFor();
    await page.getByText('already exists').first().waitFor();
    await shot(page, 'customers-duplicate-390');
    await context.close();
  });

  it('sends a signed-out visitor of a staff screen to sign in, with the Unauthorized toast', async () => {
    const page = await browser.newPage();
    await page.goto(`${baseUrl}/customers`);
    await page.getByText('You are logged out. Logging in again...').waitFor();
    await page.waitForURL(`${baseUrl}/login`);
    await page.goto(`${baseUrl}/no-such-page`);
    await page.getByText('404 Page Not Found').waitFor();
    await page.close();
  });
});

import { type ProductUnderTest, startProductUnderTest } from '@storage/testing/browser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseSelectOption, DESKTOP, signedInContext } from './staff-browser.ts';

// The foundation's journey in a real browser: sign in with the demo login, add a customer,
// see it in the list at once; and the signed-out handling of a staff screen. The form's checks, the
// list's empty states and a refused email's toast are the component tests'
// (console/test/components/customer-form and customers-list).

describe('console in Chromium', () => {
  let product: ProductUnderTest;

  beforeAll(async () => {
    product = await startProductUnderTest();
  }, 120_000);
  afterAll(async () => {
    await product?.close();
  });

  it('signs in with the demo login, adds a customer and sees it in the list', async () => {
    const { browser, baseUrl, login } = product;
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`${baseUrl}/`);
    await page.getByRole('link', { name: 'Business Dashboard' }).first().click();
    await page.waitForURL(`${baseUrl}/login`);
    await page.getByLabel('Email').fill(login.email);
    await page.getByLabel('Password').fill(login.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.getByText('Facility Manager').first().waitFor();
    // A fresh install without the demo data: the owner is asked to fill in the business profile.
    await page.getByText('Your business profile is empty').waitFor();
    await page.getByRole('button', { name: 'Fill in profile' }).click();
    await page.waitForURL(`${baseUrl}/settings`);
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    await page.goto(`${baseUrl}/`);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();

    await page.getByRole('link', { name: 'Customers' }).first().click();
    await page.getByRole('heading', { name: 'Customers' }).waitFor();

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
    await product.screenshot(page, 'customers-1440');
    await page.close();
  });

  it("changes a customer's status on their page, with the reason, and the list's status filter finds them by it", async () => {
    const context = await signedInContext(product, DESKTOP);
    const page = await context.newPage();
    await page.goto(`${product.baseUrl}/customers`);
    await page.getByTestId('customer-card').getByRole('link', { name: 'Grace Hopper' }).click();
    const status = page.getByTestId('customer-status');
    await status.filter({ hasText: /^Active$/ }).waitFor();
    await page.getByTestId('customer-contact').getByRole('button', { name: 'Change Status' }).click();
    const dialog = page.getByRole('dialog');
    // Matched inside the select, so from the page rather than the dialog.
    const statusField = page.getByLabel('Status', { exact: true });
    await chooseSelectOption(
      page,
      dialog.getByLabel('Status', { exact: true }),
      'Inactive',
      dialog.locator('.ant-select').filter({ has: statusField }).filter({ hasText: 'Inactive' }),
    );
    await dialog.getByLabel('Reason').fill('Moved to another city');
    await dialog.getByRole('button', { name: 'Change Status' }).click();
    await page.getByText('Status set to Inactive').waitFor();
    await status.filter({ hasText: 'Inactive' }).waitFor();
    await product.screenshot(page, 'customer-status-changed-1440');

    await page.goto(`${product.baseUrl}/customers`);
    const filter = page.getByLabel('Customer status', { exact: true });
    await chooseSelectOption(page, filter, 'Inactive', page.locator('.ant-select').filter({ has: filter }).filter({ hasText: 'Inactive' }));
    await page.waitForURL(/status=inactive/);
    const grace = page.getByTestId('customer-card').filter({ hasText: 'Grace Hopper' });
    await grace.getByText('Inactive', { exact: true }).waitFor();
    await context.close();
  });

  it('archives a customer who rents and owes nothing, lists them among the archived customers and restores them', async () => {
    const context = await signedInContext(product, DESKTOP);
    const page = await context.newPage();
    await page.goto(`${product.baseUrl}/customers`);
    const grace = page.getByTestId('customer-card').filter({ hasText: 'Grace Hopper' });
    await grace.getByRole('button', { name: /Delete/ }).click();
    await page.getByRole('button', { name: 'Archive', exact: true }).click();
    await page.getByText('Customer archived').waitFor();
    await grace.waitFor({ state: 'hidden' });

    const shown = page.getByLabel('Current or archived customers');
    const showing = (choice: string) => page.locator('.ant-select').filter({ has: shown }).filter({ hasText: choice });
    await chooseSelectOption(page, shown, 'Archived customers', showing('Archived customers'));
    await grace.getByText('Archived', { exact: true }).waitFor();
    expect(await grace.getByRole('button', { name: /Edit|Delete/ }).count()).toBe(0);
    await grace.getByRole('button', { name: /Restore/ }).click();
    await page.getByText('Customer restored').waitFor();
    await grace.waitFor({ state: 'hidden' });

    await chooseSelectOption(page, shown, 'Current customers', showing('Current customers'));
    await grace.getByRole('button', { name: /Edit/ }).waitFor();
    await context.close();
  });

  it('sends a signed-out visitor of a staff screen to sign in, with the Unauthorized toast', async () => {
    const page = await product.browser.newPage();
    // The console goes to sign in 500 ms after the toast, and the toast leaves after 5 s: a look
    // for it could miss it on a loaded machine. The page tells when the toast is in its document
    // (an observer from its first script on), and its way to sign in is held until it has.
    let toastShown!: () => void;
    const shown = new Promise<void>((resolve) => (toastShown = resolve));
    await page.exposeFunction('reportUnauthorizedToast', () => toastShown());
    await page.addInitScript(() => {
      const report = (window as unknown as { reportUnauthorizedToast: () => void }).reportUnauthorizedToast;
      const observer = new MutationObserver(() => {
        const toast = document.querySelector('.ant-notification-notice')?.textContent ?? '';
        if (toast.includes('Unauthorized') && toast.includes('You are logged out. Logging in again...')) {
          observer.disconnect();
          report();
        }
      });
      observer.observe(document, { childList: true, subtree: true, characterData: true });
    });
    await page.route('**/api/login', async (route) => {
      await shown;
      await route.continue();
    });
    await page.goto(`${product.baseUrl}/customers`);
    let waited: NodeJS.Timeout | undefined;
    await Promise.race([
      shown,
      new Promise((_, reject) => (waited = setTimeout(() => reject(new Error('no Unauthorized toast within 30 s')), 30_000))),
    ]).finally(() => clearTimeout(waited));
    await page.waitForURL(`${product.baseUrl}/login`);
    const unknown = await page.goto(`${product.baseUrl}/no-such-page`);
    expect(unknown?.status()).toBe(404);
    await page.getByText('404 Page Not Found').waitFor();
    await page.close();
  });
});

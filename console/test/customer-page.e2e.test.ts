import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { demoStaffScreens, horizontalOverflow, sharedPages, visit } from './staff-browser.ts';

// The customer page in Chromium on the demo data, reached from every place a customer's name
// shows; and history, the audit log and toasts in words rather than stored values. What the page
// says for an unknown customer and what each role is offered on it are the component tests'
// (console/test/components/customer-page.component.test.tsx).

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
const eventually = { timeout: 15_000 };

describe('on the demo data in Chromium', { timeout: 120_000 }, () => {
  const demo = demoStaffScreens();
  // One console per width for the file, going from screen to screen as a user does (visit).
  const pages = sharedPages(demo);
  const go = (page: Page, path: string) => visit(page, demo.product, path);

  describe('the customer page', () => {
    type Named = { id: string; firstName: string; lastName: string; email: string };
    /** A renter with an active lease and at least one payment, so every part of the page has something to show. */
    async function payingRenter(context: BrowserContext): Promise<Named> {
      const request = context.request;
      const leases = (await (await request.get(`${demo.product.baseUrl}/api/leases?status=active&pageSize=50`)).json()) as Array<{ customer: Named }>;
      for (const { customer } of leases) {
        const account = (await (await request.get(`${demo.product.baseUrl}/api/customers/${customer.id}/account`)).json()) as { payments: unknown[] };
        if (account.payments.length > 0) return customer;
      }
      throw new Error('The demo has no renter with a lease and a payment');
    }

    async function expectCustomerPage(page: Page, customer: Named) {
      await page.waitForURL((url) => url.pathname === `/customers/${customer.id}`);
      await page.getByRole('heading', { name: `${customer.firstName} ${customer.lastName}` }).waitFor();
    }

    it('keeps notes: one added shows at the top with its author', async () => {
      const page = pages.wide;
      const customer = await payingRenter(demo.wide);
      await go(page, `/customers/${customer.id}`);
      await expectCustomerPage(page, customer);
      await page.getByRole('tab', { name: 'Notes' }).click();
      await page.getByLabel('New Note').fill('Asked for a larger unit in spring');
      await page.getByRole('button', { name: 'Add Note' }).click();
      await page.getByText('Note added').waitFor();
      const first = page.getByTestId('customer-note').first();
      await first.getByText('Asked for a larger unit in spring').waitFor();
      expect(await first.textContent()).toMatch(/Olivia Owner · \w{3} \d{1,2}, \d{4}/);
      expect(await page.getByLabel('New Note').inputValue()).toBe('');
    });

    it('shows contact details, status, balance, leases, invoices, payments, activity and history', async () => {
      const page = pages.wide;
      const customer = await payingRenter(demo.wide);
      await go(page, `/customers?search=${encodeURIComponent(customer.email)}`);
      await page
        .getByTestId('customer-card')
        .getByRole('link', { name: `${customer.firstName} ${customer.lastName}` })
        .click();
      await expectCustomerPage(page, customer);

      const contact = page.getByTestId('customer-contact');
      await contact.getByText(customer.email).waitFor();
      await contact.getByText(/^(Active|Inactive|Overdue|Terminated)$/).waitFor();
      const balance = page.getByTestId('customer-balance');
      await balance.getByText('Outstanding Balance').waitFor();
      await balance
        .getByTestId('customer-open-balance')
        .getByText(/^\$[\d,]+\.\d{2}$/)
        .waitFor();
      await balance
        .getByTestId('customer-credit')
        .getByText(/^\$[\d,]+\.\d{2}$/)
        .waitFor();
      await balance.getByText(/^(Current|Overdue)$/).waitFor();
      expect(await page.getByRole('link', { name: 'Customers', exact: true }).count()).toBeGreaterThan(0);

      // On the tenant's own page a lease card is titled by its unit, not by the tenant again.
      const lease = page.getByTestId('lease-card').first();
      await lease.waitFor();
      expect(await lease.locator('.ant-card-head-title').textContent()).toMatch(/^Unit \S+$/);
      expect(await lease.getByRole('link', { name: `${customer.firstName} ${customer.lastName}` }).count()).toBe(0);
      await demo.product.screenshot(page, 'customer-page-1440');

      await page.getByRole('tab', { name: 'Invoices' }).click();
      await page.getByTestId('customer-invoice-row').first().waitFor();
      await page.getByRole('tab', { name: 'Payments' }).click();
      const payment = page.getByTestId('customer-payment-row').first();
      await payment.waitFor();
      expect(await payment.textContent()).toMatch(/\$[\d,]+\.\d{2}/);
      await page.getByRole('tab', { name: 'Activity' }).click();
      await page.getByTestId('activity-card').first().waitFor();
      await page.getByRole('tab', { name: 'History' }).click();
      await page.getByText('Customer added').first().waitFor();
      const changes = (await page.locator('.entity-history-changes').first().textContent()) ?? '';
      expect(changes).not.toMatch(UUID);
      expect(changes).toContain(`First name: — → ${customer.firstName}`);
      await demo.product.screenshot(page, 'customer-page-history-1440');
    });

    it('fits a 390 px phone', async () => {
      const page = pages.narrow;
      const customer = await payingRenter(demo.narrow);
      await go(page, `/customers/${customer.id}`);
      await expectCustomerPage(page, customer);
      await page.getByTestId('lease-card').first().waitFor();
      await page
        .getByTestId('customer-open-balance')
        .getByText(/^\$[\d,]+\.\d{2}$/)
        .waitFor();
      expect(await horizontalOverflow(page)).toBe(0);
      await demo.product.screenshot(page, 'customer-page-390');
      await page.getByRole('tab', { name: 'Payments' }).click();
      await page.getByTestId('customer-payment-row').first().waitFor();
      expect(await horizontalOverflow(page)).toBe(0);
      await demo.product.screenshot(page, 'customer-page-payments-390');
    });

    it('is reached from a billing row, a lease card, the activity feed and the global search', async () => {
      const page = pages.wide;
      const customer = await payingRenter(demo.wide);
      const name = `${customer.firstName} ${customer.lastName}`;
      const opensPage = async (from: string, link: ReturnType<Page['getByRole']>) => {
        await go(page, from);
        await link.first().click();
        await expectCustomerPage(page, customer);
      };
      await opensPage(`/billing?search=${encodeURIComponent(customer.email)}`, page.getByTestId('invoice-row').getByRole('link', { name }));
      await opensPage(`/leases?search=${encodeURIComponent(customer.email)}`, page.getByTestId('lease-card').getByRole('link', { name }));
      await opensPage(`/activities?search=${encodeURIComponent(customer.email)}`, page.getByTestId('activity-card').getByRole('link', { name }));

      await go(page, '/units');
      await page.getByRole('heading', { name: 'Units', exact: true }).waitFor();
      const box = page.getByRole('combobox', { name: /Search customers, units and invoices/ });
      await box.fill(customer.email);
      await page.getByRole('option').filter({ hasText: customer.email }).first().click();
      await expectCustomerPage(page, customer);
    });

    it('serves the page for an unknown customer, and answers 404 for an unknown path under it', async () => {
      const page = await demo.wide.newPage();
      const unknown = await page.goto(`${demo.product.baseUrl}/customers/0b7d5f3e-1111-4222-8333-444455556666`);
      expect(unknown?.status()).toBe(200);
      const beyond = await page.goto(`${demo.product.baseUrl}/customers/0b7d5f3e-1111-4222-8333-444455556666/leases`);
      expect(beyond?.status()).toBe(404);
      await page.getByText('404 Page Not Found').waitFor();
      await page.close();
    });
  });

  describe('history, the audit log and toasts in words', () => {
    it("names a unit's facility, says its status as a word, and names the entity in the audit log", async () => {
      const page = pages.wide;
      const request = demo.wide.request;
      const [unit] = (await (await request.get(`${demo.product.baseUrl}/api/units?status=available&search=RS-&pageSize=1`)).json()) as Array<{
        id: string;
        unitNumber: string;
        facilityId: string;
      }>;
      const facilities = (await (await request.get(`${demo.product.baseUrl}/api/facilities`)).json()) as Array<{ id: string; name: string }>;
      const facilityName = facilities.find((f) => f.id === unit!.facilityId)!.name;

      await go(page, `/units?search=${encodeURIComponent(unit!.unitNumber)}`);
      const card = page.getByTestId('unit-card').filter({ hasText: unit!.unitNumber });
      await card.getByRole('button', { name: `Change status of unit ${unit!.unitNumber}` }).click();
      await page.getByRole('menuitem', { name: 'Maintenance' }).click();
      await page.getByText(`Unit ${unit!.unitNumber} set to Maintenance`).waitFor();

      await card.getByRole('button', { name: 'History' }).click();
      const drawer = page.getByRole('dialog');
      // The newest first (a unit repaired before in the demo shows an earlier change too).
      await drawer.getByText('Status: Available → Maintenance').first().waitFor(eventually);
      await drawer.getByText(`Facility: — → ${facilityName}`).waitFor();
      await drawer.getByText(/^Monthly rate: — → \$[\d,]+\.\d{2}$/).waitFor();
      expect(await drawer.locator('.entity-history-changes').allTextContents()).not.toContainEqual(expect.stringMatching(UUID));
      await demo.product.screenshot(page, 'unit-history-words-1440');

      await go(page, `/audit?stream=unit-${unit!.id}`);
      await expect
        .poll(
          () =>
            page
              .getByTestId('audit-row')
              .filter({ hasText: `Unit ${unit!.unitNumber}` })
              .count(),
          eventually,
        )
        .toBeGreaterThan(1);
      await demo.product.screenshot(page, 'audit-log-entity-1440');
    });

    it('shows the same words on a phone', async () => {
      const page = pages.narrow;
      const [customer] = (await (await demo.narrow.request.get(`${demo.product.baseUrl}/api/customers?pageSize=1`)).json()) as Array<{
        id: string;
        firstName: string;
      }>;
      await go(page, `/customers/${customer!.id}`);
      await page.getByRole('tab', { name: 'History' }).click();
      await page.getByText(`First name: — → ${customer!.firstName}`).waitFor(eventually);
      expect(await horizontalOverflow(page)).toBe(0);
      await demo.product.screenshot(page, 'customer-history-390');
    });
  });
});

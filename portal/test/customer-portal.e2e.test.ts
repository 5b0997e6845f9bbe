import { formatDollars } from '@storage/contracts/money';
import { DEMO_BUSINESS } from '@storage/seed/demo';
import { expectAccessible } from '@storage/testing/axe';
import { type ProductUnderTest, startProductUnderTest } from '@storage/testing/browser';
import { mailText, startSmtpServer, type TestSmtpServer } from '@storage/testing/smtp';
import type { Page } from 'playwright-core';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

// The renter's customer portal in a real browser, on the demo data: the gate and its toast
// (accessible), then a renter's way in, the tabs, a reload, the payment banner and sign-out, and
// the way in by a mailed code once the gate has seen a guesser (through a real SMTP server). The
// gate's refusals in the spec's words are the component tests'
// (portal/test/components/portal-gate.component.test.tsx); that a wrong phone and an unknown email
// are refused alike, the API's (api/test/portal.api.test.ts).

const Renter = z.object({
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  phone: z.string(),
  balance: z.string(),
  facility_name: z.string(),
  facility_phone: z.string(),
  facility_address: z.string(),
});

describe('customer portal in Chromium', () => {
  let product: ProductUnderTest;
  let smtp: TestSmtpServer;
  let renter: z.infer<typeof Renter>;
  /** A second renter, whose gate a guesser tries from elsewhere. */
  let guessed: z.infer<typeof Renter>;
  const last4 = () => renter.phone.replace(/\D/g, '').slice(-4);

  beforeAll(async () => {
    smtp = await startSmtpServer();
    product = await startProductUnderTest({ seedDemo: true, config: { smtpUrl: `smtp://127.0.0.1:${smtp.port}`, mailFrom: 'office@portal.test' } });
    [renter, guessed] = (await product.platform.api.pool.many(sql.type(Renter)`
      SELECT c.first_name, c.last_name, c.email, c.phone,
             (SELECT sum(i.amount - coalesce((SELECT sum(p.amount) FROM payments p WHERE p.invoice_id = i.id), 0))
              FROM invoices i WHERE i.customer_id = c.id AND i.status IN ('sent', 'overdue'))::numeric(20, 2)::text AS balance,
             f.name AS facility_name, f.phone AS facility_phone, f.address AS facility_address
      FROM customers c JOIN facilities f ON f.id = c.facility_id
      WHERE NOT c.archived AND c.phone ~ '[0-9]{4}'
        AND EXISTS (SELECT 1 FROM leases l WHERE l.customer_id = c.id AND l.is_active)
        AND EXISTS (SELECT 1 FROM invoices i WHERE i.customer_id = c.id AND i.status IN ('sent', 'overdue'))
      ORDER BY c.email LIMIT 2`)) as [z.infer<typeof Renter>, z.infer<typeof Renter>];
  }, 240_000);
  afterAll(async () => {
    await product?.close();
    await smtp?.close();
  });

  async function enter(page: Page, email: string, digits: string) {
    await page.getByLabel('Email Address').fill(email);
    await page.getByLabel('Last 4 Digits of Phone').fill(digits);
    await page.getByRole('button', { name: 'Access My Account' }).click();
  }
  /** Every URL the page asks for (pages, API calls, assets), to check that none names the renter's email. */
  function recordRequests(page: Page): string[] {
    const urls: string[] = [];
    page.on('request', (request) => urls.push(request.url()));
    return urls;
  }
  function expectNoEmailIn(urls: string[]) {
    expect(urls.length).toBeGreaterThan(0);
    const spellings = [renter.email, encodeURIComponent(renter.email)].map((s) => s.toLowerCase());
    for (const url of urls) for (const spelling of spellings) expect(decodeURIComponent(url).toLowerCase(), url).not.toContain(spelling);
  }
  async function expectToast(page: Page, title: string, description: string) {
    const toast = page.locator('.toast');
    await toast.getByText(title, { exact: true }).waitFor();
    expect(await toast.locator('.toast-description').textContent()).toBe(description);
  }

  it('opens fresh with one question to the server and no failed request or console error', async () => {
    const page = await product.browser.newPage({ viewport: { width: 1440, height: 900 } });
    const apiCalls: string[] = [];
    const failures: string[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/api/')) apiCalls.push(`${response.status()} ${new URL(response.url()).pathname}`);
      if (response.status() >= 400) failures.push(`${response.status()} ${response.url()}`);
    });
    page.on('console', (message) => {
      if (message.type() === 'error') failures.push(message.text());
    });
    await page.goto(`${product.baseUrl}/customer-portal`);
    await page.getByRole('button', { name: 'Access My Account' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(apiCalls).toEqual(['200 /api/customer/session']);
    expect(failures).toEqual([]);
    await page.close();
  });

  it('shows the gate, and its toast, accessibly', async () => {
    const page = await product.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`${product.baseUrl}/customer-portal`);
    await page.getByRole('button', { name: 'Access My Account' }).waitFor();
    await expectAccessible(page, 'Customer portal gate');
    await page.getByRole('button', { name: 'Access My Account' }).click();
    await expectToast(page, 'Missing Information', 'Please enter both email and phone number.');
    await expectAccessible(page, 'Customer portal gate with a toast');
    await product.screenshot(page, 'customer-portal-gate-1440');
    await page.close();
  });

  it('lets the renter in, shows the tabs, survives a reload and locks again on Sign Out, with the email in no URL', async () => {
    const page = await product.browser.newPage({ viewport: { width: 1440, height: 900 } });
    const urls = recordRequests(page);
    await page.goto(`${product.baseUrl}/customer-portal`);
    await enter(page, renter.email, last4());
    await page.getByRole('heading', { name: `Welcome back, ${renter.first_name} ${renter.last_name}` }).waitFor();
    const due = `${formatDollars(renter.balance)} Due`;
    await page.locator('.portal-header').getByText(due).waitFor();
    await page.getByText('Action Required').waitFor();
    await product.screenshot(page, 'customer-portal-overview-1440');
    await expectAccessible(page, 'Customer portal overview');

    await page.getByRole('button', { name: 'View & Pay Bills' }).click();
    const payNow = page.getByRole('link', { name: 'Pay Now' }).first();
    expect(await payNow.getAttribute('href')).toMatch(/^\/checkout\/[0-9a-f-]{36}$/);
    // Under the bills, the renter's payments, each with its receipt to download.
    const payments = page.getByRole('region', { name: 'Payments' });
    const receipt = payments.getByRole('link', { name: /^Download receipt, / }).first();
    await receipt.waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), receipt.click()]);
    expect(download.suggestedFilename()).toMatch(/^receipt-\d{4}-\d{2}-\d{2}-[0-9a-f-]{36}\.pdf$/);
    await product.screenshot(page, 'customer-portal-bills-1440');
    await expectAccessible(page, 'Customer portal bills');

    await page.getByRole('tab', { name: 'My Units' }).click();
    await page.getByRole('tabpanel').getByText('Active').first().waitFor();
    await expectAccessible(page, 'Customer portal units');
    await page.getByRole('tab', { name: 'Profile' }).click();
    await page.getByText(renter.email, { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Contact Us to Update Profile' }).click();
    const contact = page.getByRole('dialog', { name: 'Contact Us' });
    await contact.waitFor();
    // The renter is told to call their own facility (its name, phone and address); the business's email.
    await contact.getByText(`To update your profile, contact ${renter.facility_name}.`).waitFor();
    await contact.getByText(`Address: ${renter.facility_address}`).waitFor();
    await contact.getByRole('link', { name: renter.facility_phone }).waitFor();
    await contact.getByRole('link', { name: DEMO_BUSINESS.email }).waitFor();
    await expectAccessible(page, 'Contact Us dialog');
    await page.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('tab', { name: 'Access Log' }).click();
    await page.getByRole('tabpanel').waitFor();
    await expectAccessible(page, 'Customer portal access log');

    await page.reload();
    await page.getByRole('button', { name: 'Sign Out' }).waitFor();

    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.getByRole('button', { name: 'Access My Account' }).waitFor();
    expect(await page.getByLabel('Email Address').inputValue()).toBe('');
    expect(await page.getByLabel('Last 4 Digits of Phone').inputValue()).toBe('');
    await page.reload();
    await page.getByRole('button', { name: 'Access My Account' }).waitFor();
    expectNoEmailIn(urls);
    await page.close();
  });

  it('asks a renter whose gate a guesser tried from elsewhere for the code mailed to them, and opens the portal with it', async () => {
    const digits = guessed.phone.replace(/\D/g, '').slice(-4);
    const wrong = String((Number(digits) + 1) % 10000).padStart(4, '0');
    const guess = await product.platform.api.app.inject({
      method: 'POST',
      url: '/api/customer/verify',
      payload: { email: guessed.email, phoneLast4: wrong },
      remoteAddress: '10.99.0.7',
    });
    expect(guess.statusCode).toBe(401);
    const page = await product.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`${product.baseUrl}/customer-portal`);
    await enter(page, guessed.email, digits);
    await page.getByRole('heading', { name: 'Check Your Email' }).waitFor();
    await page.getByText('We emailed you a 6-digit sign-in code. Enter it to open your account.').waitFor();
    await expectAccessible(page, 'Customer portal, the mailed code');
    await product.screenshot(page, 'customer-portal-code-1440');
    const mail = smtp.received.filter((m) => m.to.includes(guessed.email)).at(-1);
    const code = mail && /is (\d{6})\./.exec(mailText(mail.raw))?.[1];
    expect(code).toMatch(/^\d{6}$/);
    await page.getByLabel('Sign-in Code').fill(code!);
    await page.getByRole('button', { name: 'Verify Code' }).click();
    await page.getByRole('heading', { name: `Welcome back, ${guessed.first_name} ${guessed.last_name}` }).waitFor();
    await page.close();
  });

  it('shows the payment banner with the balance on a phone-sized screen', async () => {
    const context = await product.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const urls = recordRequests(page);
    await page.goto(`${product.baseUrl}/customer-portal?payment_success=true`);
    await enter(page, renter.email, last4());
    await page.getByText('Payment received — thank you!').waitFor();
    await page.getByRole('tablist').waitFor();
    expectNoEmailIn(urls);
    await product.screenshot(page, 'customer-portal-overview-390');
    await expectAccessible(page, 'Customer portal with the payment banner at 390 px');
    await context.close();
  });

  it('fits 360 px with every tab in view: no sideways scrolling on any tab', async () => {
    const context = await product.browser.newContext({ viewport: { width: 360, height: 760 } });
    const page = await context.newPage();
    await page.goto(`${product.baseUrl}/customer-portal`);
    await enter(page, renter.email, last4());
    const tabs = page.getByRole('tablist');
    await tabs.waitFor();
    expect(await tabs.evaluate((list) => list.scrollWidth - list.clientWidth)).toBe(0);
    for (const tab of await tabs.getByRole('tab').all()) {
      const box = (await tab.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(360);
      await tab.click();
      await page.getByRole('tabpanel').waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), `${await tab.textContent()}`).toBe(0);
      for (const wrap of await page.locator('.portal-table-wrap').all()) {
        expect(await wrap.evaluate((table) => table.scrollWidth - table.clientWidth), `a table on ${await tab.textContent()}`).toBe(0);
      }
    }
    await expectAccessible(page, 'Customer portal, Access Log at 360 px');
    await product.screenshot(page, 'customer-portal-tabs-360');
    await context.close();
  });
});

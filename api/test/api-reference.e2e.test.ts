import type { AddressInfo } from 'node:net';
import { launchChromium } from '@storage/testing/browser';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// A new user finds the API reference at /api/docs: the page renders the operations of every area
// in a real browser, under the API's Content Security Policy, from this server alone (no CDN).

describe('the API reference in Chromium', () => {
  let platform: TestPlatform;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let baseUrl: string;

  beforeAll(async () => {
    platform = await startTestPlatform();
    await platform.api.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(platform.api.app.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await platform?.close();
  });

  it("renders each area's operations, their auth and errors, loading nothing from elsewhere and breaking no policy", async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const elsewhere: string[] = [];
    const problems: string[] = [];
    page.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(`${baseUrl}/`) && !/^(data|blob):/.test(url)) elsewhere.push(url);
    });
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
    });

    await page.goto(`${baseUrl}/api/docs`);
    await page.getByRole('heading', { name: 'Self-storage operations API' }).first().waitFor({ timeout: 30_000 });
    for (const area of ['Customers', 'Leases', 'Locks', 'Payments', 'Customer portal', 'Staff sign-in']) {
      expect(await page.getByText(area, { exact: true }).count(), area).toBeGreaterThan(0);
    }
    // An operation opened: its summary, the session it needs, and its answers.
    await page.goto(`${baseUrl}/api/docs#tag/customers/POST/api/customers`);
    await page.getByRole('heading', { name: 'Add a customer' }).first().waitFor({ timeout: 30_000 });
    const text = (await page.locator('body').textContent()) ?? '';
    expect(text).toContain('Auth Required');
    expect(text).toContain("--cookie 'storage_session=");
    for (const status of ['201', '400', '401', '403']) expect(text).toContain(status);

    const directory = process.env.SCREENSHOT_DIR;
    if (directory) await page.screenshot({ path: `${directory}/api-reference.png` });
    expect(elsewhere).toEqual([]);
    expect(problems).toEqual([]);
  }, 120_000);
});

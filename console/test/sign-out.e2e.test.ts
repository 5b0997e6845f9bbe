import { type ProductUnderTest, startProductUnderTest } from '@storage/testing/browser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, signInAs } from './staff-browser.ts';

// Signing out in Chromium: the Dashboard's Logout button (a link to /api/logout, as the spec
// has it) ends the session on the server, so a copy of the cookie stops working too; another
// site's link or image to /api/logout signs nobody out.

describe('sign-out in Chromium', { timeout: 120_000 }, () => {
  let product: ProductUnderTest;

  beforeAll(async () => {
    product = await startProductUnderTest();
  }, 240_000);
  afterAll(async () => {
    await product?.close();
  });

  const whoAmI = (cookie: string) => product.platform.api.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie } });

  it('the Logout button signs out, and a copy of the session cookie taken before answers 401', async () => {
    const context = await product.browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await signInAs(product, page, product.login);
    const session = (await context.cookies()).find((c) => c.name === 'storage_session')!;
    const copy = `${session.name}=${session.value}`;
    expect((await whoAmI(copy)).statusCode).toBe(200);

    await page.getByRole('link', { name: 'Logout' }).click();
    await page.waitForURL(`${product.baseUrl}/`);
    await page.goto(`${product.baseUrl}/customers`);
    await page.waitForURL(/\/login$/);
    expect((await whoAmI(copy)).statusCode).toBe(401);
    await context.close();
  });

  it("another site's link or image to /api/logout does not sign the user out; it only asks", async () => {
    const context = await product.browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await signInAs(product, page, product.login);
    await context.route('http://elsewhere.test/**', (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<p><img alt="pixel" src="${product.baseUrl}/api/logout"><a href="${product.baseUrl}/api/logout">Win a prize</a></p>`,
      }),
    );
    await page.goto('http://elsewhere.test/');
    await page.getByRole('link', { name: 'Win a prize' }).click();
    await page.getByRole('heading', { name: 'Sign out?' }).waitFor();
    expect((await context.request.get(`${product.baseUrl}/api/auth/user`)).status()).toBe(200);

    // On our own page, the user can still choose to sign out.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${product.baseUrl}/`);
    expect((await context.request.get(`${product.baseUrl}/api/auth/user`)).status()).toBe(401);
    await context.close();
  });
});

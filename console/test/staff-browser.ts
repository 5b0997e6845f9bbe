import type { BrowserContext, Page } from 'playwright-core';
import type { ProductUnderTest } from '../../ops/src/testing/browser.ts';

// What the staff screens' browser tests share: signed-in browsers at the two widths the screens
// are checked at, and a slowed-down API to catch loading states.

export const DESKTOP = { width: 1440, height: 900 };
export const PHONE = { width: 390, height: 844 };

/** A browser context of that size whose pages are signed in with the demo login. */
export async function signedInContext(product: ProductUnderTest, viewport: { width: number; height: number }): Promise<BrowserContext> {
  const context = await product.browser.newContext({ viewport });
  const page = await context.newPage();
  await product.signIn(page);
  await page.close();
  return context;
}

/** Holds the page's calls matching `url` back for a while, so their loading state can be seen. */
export async function slowDown(page: Page, url: RegExp, delayMs = 1500): Promise<void> {
  await page.route(url, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    await route.continue();
  });
}

import { type ProductUnderTest, startProductUnderTest } from '@storage/testing/browser';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

// What the staff screens' browser tests share: the product started for a file, signed-in browsers
// at the two widths the screens are checked at, a slowed-down API to catch loading states, and
// the phone-width overflow check.

export const DESKTOP = { width: 1440, height: 900 };
export const PHONE = { width: 390, height: 844 };

type Login = { email: string; password: string };

/** Signs `page` in as `login` through the /login page and waits for the dashboard. */
export async function signInAs(product: ProductUnderTest, page: Page, login: Login): Promise<void> {
  await page.goto(`${product.baseUrl}/login`);
  await page.getByLabel('Email').fill(login.email);
  await page.getByLabel('Password').fill(login.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
}

type ContextOptions = {
  /** Whom to sign in as; the demo login when left out. */
  login?: Login;
  acceptDownloads?: boolean;
};

/**
 * A browser context of that size whose pages are signed in: through the sign-in call the form
 * makes, its session cookie kept by the context, without drawing the sign-in page and the
 * dashboard first (the form itself is driven by signInAs, product.signIn and the files of it).
 */
export async function signedInContext(
  product: ProductUnderTest,
  viewport: { width: number; height: number },
  { login = product.login, acceptDownloads }: ContextOptions = {},
): Promise<BrowserContext> {
  const context = await product.browser.newContext({ viewport, acceptDownloads });
  const response = await context.request.post(`${product.baseUrl}/api/auth/login`, { data: { email: login.email, password: login.password } });
  if (!response.ok()) throw new Error(`signing in as ${login.email} failed: ${response.status()} ${await response.text()}`);
  return context;
}

export type DemoStaffScreens = { product: ProductUnderTest; wide: BrowserContext; narrow: BrowserContext };

/**
 * For a file whose tests look at staff screens on the demo data: starts the product before them,
 * with signed-in `wide` (DESKTOP) and `narrow` (PHONE) contexts, and closes it after them.
 */
export function demoStaffScreens(wideOptions: Omit<ContextOptions, 'login'> = {}): DemoStaffScreens {
  const screens = {} as DemoStaffScreens;
  beforeAll(async () => {
    screens.product = await startProductUnderTest({ seedDemo: true });
    [screens.wide, screens.narrow] = await Promise.all([signedInContext(screens.product, DESKTOP, wideOptions), signedInContext(screens.product, PHONE)]);
  }, 240_000);
  afterAll(async () => {
    await screens.product?.close();
  });
  return screens;
}

/** One open console per width for a file's tests (`sharedPages`). */
export type SharedPages = { wide: Page; narrow: Page };

/**
 * For a file whose tests go from screen to screen as a user does (`visit`): one page per width,
 * opened once the product has started, shared by the file's tests instead of a new page (and a new
 * load of the whole console) for each. A test leaves it where it was: the next one goes elsewhere.
 */
export function sharedPages(screens: DemoStaffScreens): SharedPages {
  const pages = {} as SharedPages;
  beforeAll(async () => {
    [pages.wide, pages.narrow] = await Promise.all([screens.wide.newPage(), screens.narrow.newPage()]);
  });
  return pages;
}

/**
 * Holds the page's calls matching `url` back until the returned function is called, so their
 * loading state stays on screen for as long as the test looks at it (a hold of fixed length could
 * end, on a loaded machine, before the test had seen it).
 */
export async function holdBack(page: Page, url: RegExp): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(url, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/**
 * Opens `path` as a user of the open console does: through the app's own navigation (the router
 * follows history.pushState), not a new load of the whole console, which costs seconds on a loaded
 * machine. A page not on the console yet loads it. The screen mounts anew, so it reads its address
 * (search, filters) as a link to it would; lists it has shown before in this page come from the
 * cache first, as they do for the user.
 */
export async function visit(page: Page, product: ProductUnderTest, path: string): Promise<void> {
  if (page.url().startsWith(`${product.baseUrl}/`)) await page.evaluate((to) => window.history.pushState(null, '', to), path);
  else await page.goto(`${product.baseUrl}${path}`);
}

/** How many pixels the page is wider than the window: 0 when nothing sticks out sideways. */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** Every text matches, and there is at least one: a list still loading (empty) proves nothing. */
export const allMatch = (texts: string[], matches: (text: string) => boolean): boolean => texts.length > 0 && texts.every(matches);

/** Chooses the facility of a new unit or customer in an open form dialog. */
export async function chooseFacility(page: Page, dialog: Locator, name: string): Promise<void> {
  await chooseSelectOption(page, dialog.getByLabel('Facility', { exact: true }), name, facilityShown(page, dialog, name));
}

/**
 * Opens an antd Select and clicks the visible option `option` until `chosen` shows the choice: on a
 * loaded machine a click can land while the list is still opening and be lost, so it is tried again.
 */
export async function chooseSelectOption(page: Page, select: Locator, option: string | RegExp, chosen: Locator): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await select.click();
      await page.locator('.ant-select-item-option').filter({ visible: true, hasText: option }).first().click({ timeout: 10_000 });
      await chosen.waitFor({ timeout: 10_000 });
      return;
    } catch (error) {
      if (attempt >= 4) throw error;
      // Esc closes the list left open; with no list open it would close the dialog around the field.
      if ((await page.locator('.ant-select-dropdown').filter({ visible: true }).count()) > 0) await page.keyboard.press('Escape');
    }
  }
}

/** The Facility field of an open form dialog, once it shows `name`. */
export function facilityShown(page: Page, dialog: Locator, name: string): Locator {
  return dialog
    .locator('.ant-select')
    .filter({ has: page.getByLabel('Facility', { exact: true }) })
    .filter({ hasText: name });
}

/**
 * Closes the toasts on screen. A toast stays while the pointer is over it, and the pointer stays
 * where the last click was: a test that clicked in the top right (Move In, Add …) would otherwise
 * find the next click there taken by the toast it raised.
 */
export async function dismissToasts(page: Page): Promise<void> {
  // A toast that leaves by itself while this runs takes its close button with it: a click that
  // waited for the button to come back waited the whole action timeout (30 s) for nothing.
  for (const close of await page.locator('.ant-notification-notice-close').all()) await close.click({ timeout: 1000 }).catch(() => {});
  await page
    .locator('.ant-notification-notice')
    .first()
    .waitFor({ state: 'detached', timeout: 5000 })
    .catch(() => {});
}

// Browser tests drive Debian's Chromium through playwright-core (no browser is downloaded): the
// worker's own Chromium when the suite started one (suite-setup.ts), else a new one.

import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { registerStaff } from '@storage/domain/auth/staff';
import type { Config } from '@storage/platform/config';
import { DEMO_STAFF } from '@storage/seed/demo';
import { type Browser, type BrowserContextOptions, chromium, type Download, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';
import { saveDocsScreenshot } from './docs-screenshots.ts';
import { startTestPlatform, type TestPlatform } from './platform.ts';
import { forThisWorker } from './worker.ts';

/** A Chromium for this file; closing it only disconnects when it is the worker's shared one. */
export async function launchChromium(): Promise<Browser> {
  const shared = forThisWorker(process.env.VITEST ? inject('chromiumEndpoints') : []);
  const browser = shared ? await chromium.connect(shared) : await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  return askingForReducedMotion(browser);
}

/**
 * Its pages ask for reduced motion, as a person can in their system's settings, unless a test says
 * otherwise: the console then shows dialogs, lists and toasts at once
 * (console/src/hooks/use-reduced-motion.ts), so a click never lands on a list still sliding open
 * and no step waits out an animation. (Chromium's own --force-prefers-reduced-motion is overridden
 * by Playwright's per-context emulation, hence the contexts' option.)
 */
function askingForReducedMotion(browser: Browser): Browser {
  const newContext = browser.newContext.bind(browser);
  const newPage = browser.newPage.bind(browser);
  return Object.assign(browser, {
    newContext: (options: BrowserContextOptions = {}) => newContext({ reducedMotion: 'reduce', ...options }),
    newPage: (options: BrowserContextOptions = {}) => newPage({ reducedMotion: 'reduce', ...options }),
  });
}

/** The built console and portal, as `npm start` serves them. */
export const builtFrontEnds = {
  console: fileURLToPath(new URL('../../console/dist', import.meta.url)),
  portal: fileURLToPath(new URL('../../portal/dist', import.meta.url)),
};

export interface ProductUnderTest {
  platform: TestPlatform;
  browser: Browser;
  baseUrl: string;
  /** The demo owner's login, registered on the test database. */
  login: { email: string; password: string };
  /** Signs `page` in through the /login page and waits for the dashboard. */
  signIn(page: Page): Promise<void>;
  /**
   * Saves a full-page screenshot when SCREENSHOT_DIR is set (for looking at it, not asserting), and
   * the docs' picture of this screen when DOCS_SCREENSHOTS is set (docs-screenshots.ts).
   */
  screenshot(page: Page, name: string): Promise<void>;
  close(): Promise<void>;
}

/** The whole product on a throwaway database, listening on a free port, and a Chromium to drive it. */
export async function startProductUnderTest(options: { seedDemo?: boolean; config?: Partial<Config> } = {}): Promise<ProductUnderTest> {
  const platform = await startTestPlatform({
    staticRoots: builtFrontEnds,
    seedDemo: options.seedDemo ?? false,
    ...(options.config && { config: options.config }),
  });
  const login = { email: 'owner@demo.test', password: 'demo1234' };
  const ctx = { store: platform.api.store, actor: { type: 'system' } as const, correlationId: randomUUID(), now: new Date() };
  const { position } = await registerStaff({ ...ctx, pool: platform.api.pool }, { ...DEMO_STAFF, password: login.password });
  if (position) await platform.api.afterAppend(position, 10_000);
  await platform.api.app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(platform.api.app.server.address() as AddressInfo).port}`;
  const browser = await launchChromium();
  return {
    platform,
    browser,
    baseUrl,
    login,
    async signIn(page) {
      await page.goto(`${baseUrl}/login`);
      await page.getByLabel('Email').fill(login.email);
      await page.getByLabel('Password').fill(login.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    },
    async screenshot(page, name) {
      const dir = process.env.SCREENSHOT_DIR;
      if (dir) await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
      await saveDocsScreenshot(page, name);
    },
    async close() {
      await browser.close();
      await platform.close();
    },
  };
}

/** A download's bytes (the worker's Chromium is remote, so the file is streamed, not read from its path). */
export async function readDownload(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

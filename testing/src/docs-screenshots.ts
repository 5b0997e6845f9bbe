// The pictures README.md and docs/ show are taken by the browser tests that walk to each screen,
// so they show the product as it is: `npm run docs:screenshots` runs those tests with
// DOCS_SCREENSHOTS set, and each screenshot named below is saved over its picture in docs/images.
// docs-screenshots.unit.test.ts fails when a picture the docs show has no test taking it, or a
// name below is no longer taken by any test.

import { spawn } from 'node:child_process';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

export const DOCS_IMAGES = fileURLToPath(new URL('../../docs/images/', import.meta.url));

/** A test's screenshot name → the picture in docs/images it is saved as. */
export const DOCS_SCREENSHOTS: Readonly<Record<string, string>> = {
  'dashboard-overview-1440': 'console-dashboard.png',
  'dashboard-390': 'console-dashboard-phone.png',
  'billing-1440': 'console-invoices.png',
  'take-payment-1440': 'console-take-payment.png',
  'leases-move-in-1440': 'console-move-in.png',
  'locks-1440': 'console-locks.png',
  'reports-1440': 'console-reports.png',
  'portal-checkout': 'portal-pay-bill.png',
  'customer-portal-statement-360': 'portal-statement-phone.png',
};

/** Saves what the window shows as the docs' picture named for `name`, when DOCS_SCREENSHOTS is set. */
export async function saveDocsScreenshot(page: Page, name: string): Promise<void> {
  const file = DOCS_SCREENSHOTS[name];
  if (!process.env.DOCS_SCREENSHOTS || !file) return;
  await mkdir(DOCS_IMAGES, { recursive: true });
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
  await page.screenshot({ path: `${DOCS_IMAGES}${file}`, animations: 'disabled', caret: 'hide' });
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BROWSER_TESTS = ['console/test', 'portal/test'];

/** Each browser test file that takes a screenshot named in DOCS_SCREENSHOTS, with the names it takes. */
export async function testsTakingDocsScreenshots(): Promise<Map<string, string[]>> {
  const files = new Map<string, string[]>();
  for (const folder of BROWSER_TESTS) {
    for (const file of (await readdir(`${ROOT}${folder}`)).filter((f) => f.endsWith('.e2e.test.ts'))) {
      const text = await readFile(`${ROOT}${folder}/${file}`, 'utf8');
      const names = Object.keys(DOCS_SCREENSHOTS).filter((name) => new RegExp(`screenshot\\w*\\(\\w+, '${name}'\\)`).test(text));
      if (names.length > 0) files.set(`${folder}/${file}`, names);
    }
  }
  return files;
}

// `npm run docs:screenshots`: the browser tests that take the docs' pictures, with DOCS_SCREENSHOTS set.
if (import.meta.main) {
  const files = [...(await testsTakingDocsScreenshots()).keys()];
  const vitest = spawn('npx', ['vitest', 'run', '--project', 'browser', ...files], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, DOCS_SCREENSHOTS: '1' },
  });
  vitest.once('close', (code) => process.exit(code ?? 1));
}

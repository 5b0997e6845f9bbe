import { expectAccessible } from '@storage/testing/axe';
import { type ProductUnderTest, readDownload, startProductUnderTest } from '@storage/testing/browser';
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, dismissToasts, PHONE, signInAs } from './staff-browser.ts';

// Two-factor sign-in in Chromium: the owner sets it up in Settings → Security (QR code, key,
// code, recovery codes), signs out and signs in with the password and a code from the app (and
// another time with a recovery code); once the owner requires it, a clerk without it who signs
// in sees only its setup. Codes are made with otpauth from the key the screen shows, as an
// authenticator app would. The refusals of a wrong code (at the setup and at sign-in) are
// two-factor.component.test.tsx's.

const JOURNEY_TIMEOUT_MS = 180_000;
const PERIOD_MS = 30_000;

/** The code of the step `offset` steps from now; near a step's end it waits for the next, so the code is still in reach when the server checks it. */
async function codeAt(secret: string, offset = 0): Promise<string> {
  if (PERIOD_MS - (Date.now() % PERIOD_MS) < 3_000) await new Promise((resolve) => setTimeout(resolve, PERIOD_MS - (Date.now() % PERIOD_MS) + 50));
  return TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: Date.now() + offset * PERIOD_MS });
}

/** Goes through the setup on screen: reads the key, types the current code, and answers the recovery codes shown. */
async function setUp(where: ReturnType<Page['locator']> | Page, shot: (name: string) => Promise<void>) {
  const setup = where.getByTestId('two-factor-setup');
  await setup.getByRole('img', { name: /QR code/ }).waitFor();
  const secret = ((await setup.getByTestId('two-factor-secret').textContent()) ?? '').replace(/[^A-Z2-7]/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await shot('setup');
  await setup.getByLabel('2. Enter the 6-digit code the app shows').fill(await codeAt(secret));
  await setup.getByRole('button', { name: 'Turn On' }).click();
  const list = where.getByRole('list', { name: 'Recovery codes' });
  await list.waitFor();
  const recoveryCodes = (await list.getByRole('listitem').allTextContents()).map((code) => code.trim());
  expect(recoveryCodes).toHaveLength(10);
  return { secret, recoveryCodes };
}

/** Logout from the dashboard, then the sign-in page. */
async function signOut(page: Page, product: ProductUnderTest) {
  await page.getByRole('link', { name: 'Logout' }).click();
  await page.waitForURL(`${product.baseUrl}/`);
}

async function password(page: Page, product: ProductUnderTest, login: { email: string; password: string }) {
  await page.goto(`${product.baseUrl}/login`);
  await page.getByLabel('Email').fill(login.email);
  await page.getByLabel('Password').fill(login.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe('two-factor sign-in in Chromium', () => {
  let product: ProductUnderTest;
  /** The owner's page, signed in with a recovery code by the first test, on Settings. */
  let ownerPage: Page | undefined;

  beforeAll(async () => {
    product = await startProductUnderTest();
  }, 180_000);
  afterAll(async () => {
    await product?.close();
  });

  it(
    'the owner sets it up, signs out and signs in with a code; then with a recovery code',
    async () => {
      const context = await product.browser.newContext({ viewport: DESKTOP, acceptDownloads: true });
      const page = await context.newPage();
      await signInAs(product, page, product.login);
      await page.getByRole('link', { name: 'Settings', exact: true }).click();
      const section = page.getByTestId('two-factor-section');
      await section.getByText('Off', { exact: true }).waitFor();
      await expect(section.getByRole('switch', { name: 'Require two-factor sign-in for all staff' }).isDisabled()).resolves.toBe(true);
      await section.getByRole('button', { name: 'Set Up Two-Factor Sign-In' }).click();
      const dialog = page.getByRole('dialog', { name: 'Set Up Two-Factor Sign-In' });
      const { secret, recoveryCodes } = await setUp(dialog, async (name) => {
        await expectAccessible(page, `two-factor ${name} dialog`);
        await product.screenshot(page, `two-factor-${name}-1440`);
      });
      await expectAccessible(page, 'recovery codes');
      await product.screenshot(page, 'two-factor-recovery-codes-1440');
      const download = page.waitForEvent('download');
      await dialog.getByRole('button', { name: 'Download' }).click();
      const saved = (await readDownload(await download)).toString('utf8');
      for (const code of recoveryCodes) expect(saved).toContain(code);
      await dialog.getByRole('button', { name: 'I Saved My Codes' }).click();
      await section.getByText('On', { exact: true }).waitFor();
      await section.getByText('Recovery codes left: 10.', { exact: false }).waitFor();
      await expectAccessible(page, 'settings with two-factor sign-in on', { include: '[data-testid="two-factor-section"]' });
      const staffRow = page.getByTestId('staff-card').getByTestId('staff-row').filter({ hasText: product.login.email });
      await staffRow.getByText('On', { exact: true }).waitFor();

      await page.getByRole('link', { name: 'Dashboard', exact: true }).click();
      await signOut(page, product);
      await password(page, product, product.login);
      await page.getByText('Enter the 6-digit code from your authenticator app.').waitFor();
      await expectAccessible(page, 'sign-in code');
      await product.screenshot(page, 'two-factor-sign-in-code-1440');
      // The setup took this step's code: the next step's is in reach too.
      await page.getByLabel('Authentication code').fill(await codeAt(secret, 1));
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();

      await signOut(page, product);
      await password(page, product, product.login);
      await page.getByRole('button', { name: 'Use a recovery code' }).click();
      await page.getByLabel('Recovery code').fill(recoveryCodes[0]!);
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      await page.getByRole('link', { name: 'Settings', exact: true }).click();
      await section.getByText('Recovery codes left: 9.', { exact: false }).waitFor();
      // The next test goes on as this owner, signed in with the recovery code.
      ownerPage = page;
    },
    JOURNEY_TIMEOUT_MS,
  );

  it(
    'once the owner requires it, a clerk without it sees only its setup, then the console; the owner can reset it',
    async () => {
      // The owner the first test signed in with a recovery code, on Settings.
      if (!ownerPage) throw new Error('the first test signs the owner in');
      const owner = ownerPage.context();
      const require = ownerPage.getByTestId('two-factor-section').getByRole('switch', { name: 'Require two-factor sign-in for all staff' });
      await require.click();
      await ownerPage.getByText('Two-factor sign-in is now required of all staff').waitFor();
      await dismissToasts(ownerPage);

      const clerk = await product.platform.createStaff('clerk');
      const clerkContext = await product.browser.newContext({ viewport: PHONE });
      const page = await clerkContext.newPage();
      await password(page, product, clerk);
      await page.getByRole('heading', { name: 'Set up two-factor sign-in' }).waitFor();
      expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
      await setUp(page, async (name) => {
        await expectAccessible(page, `required two-factor ${name}`);
        await product.screenshot(page, `two-factor-required-${name}-390`);
      });
      await page.getByRole('button', { name: 'I Saved My Codes' }).click();
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      await clerkContext.close();

      await ownerPage.reload();
      const row = ownerPage.getByTestId('staff-card').getByTestId('staff-row').filter({ hasText: clerk.email });
      await row.getByText('On', { exact: true }).waitFor();
      await row.getByRole('button', { name: 'Reset Two-Factor' }).click();
      await ownerPage.getByRole('button', { name: 'Reset', exact: true }).click();
      await ownerPage.getByText('two-factor sign-in was reset', { exact: false }).waitFor();
      await row.getByText('Off', { exact: true }).waitFor();
      await product.screenshot(ownerPage, 'two-factor-staff-1440');
      await require.click();
      await ownerPage.getByText('Two-factor sign-in is no longer required').waitFor();
      await owner.close();
    },
    JOURNEY_TIMEOUT_MS,
  );
});

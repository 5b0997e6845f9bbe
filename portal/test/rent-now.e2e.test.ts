import { randomUUID } from 'node:crypto';
import { UNIT_TAKEN_MESSAGE } from '@storage/contracts/public';
import { addFacility } from '@storage/domain/facilities/commands';
import { addUnit } from '@storage/domain/units/commands';
import { expectAccessible } from '@storage/testing/axe';
import { type ProductUnderTest, startProductUnderTest } from '@storage/testing/browser';
import { confirmationToken, reserveOnline } from '@storage/testing/online-reservations';
import { startSmtpServer, type TestSmtpServer } from '@storage/testing/smtp';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Renting online in Chromium: landing page, Available Units, unit details, the rent-now wizard
// to its confirmation, the link mailed to the visitor (a real SMTP server) that holds the unit,
// and losing the unit to another renter. The submit checks' toasts are the component tests'
// (portal/test/components/rent-now.component.test.tsx).

const eventually = { timeout: 15_000 };
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe('renting a unit online in Chromium', { timeout: 120_000 }, () => {
  let product: ProductUnderTest;
  let smtp: TestSmtpServer;
  const units: Record<'first' | 'second', { id: string; unitNumber: string }> = {
    first: { id: randomUUID(), unitNumber: 'W-101' },
    second: { id: randomUUID(), unitNumber: 'W-102' },
  };

  beforeAll(async () => {
    smtp = await startSmtpServer();
    product = await startProductUnderTest({ config: { smtpUrl: `smtp://127.0.0.1:${smtp.port}` } });
    const ctx = { store: product.platform.api.store, actor: { type: 'system' } as const, correlationId: randomUUID(), now: new Date() };
    const facilityId = randomUUID();
    await addFacility(ctx, { name: 'Westside Storage', address: '9 West Road', phone: null, managerName: null }, facilityId);
    await addUnit(
      ctx,
      {
        facilityId,
        unitNumber: units.first.unitNumber,
        building: 'A',
        size: '10x15',
        monthlyRate: '149.00',
        status: 'available',
        description: null,
        features: { climateControlled: true, driveUp: false, floor: 1, lockType: 'smart' },
      },
      units.first.id,
    );
    const last = await addUnit(
      ctx,
      {
        facilityId,
        unitNumber: units.second.unitNumber,
        building: 'A',
        size: '5x5',
        monthlyRate: '49.00',
        status: 'available',
        description: 'Next to the lift',
      },
      units.second.id,
    );
    if (last.position) await product.platform.api.afterAppend(last.position, 15_000);
  }, 240_000);
  afterAll(async () => {
    await product?.close();
    await smtp?.close();
  });

  async function fillContact(page: Page, email: string) {
    await page.getByLabel('First Name').fill('Olivia');
    await page.getByLabel('Last Name').fill('Online');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Phone', { exact: false }).first().fill('555-010-3344');
    await page.getByLabel('Move-in Date').fill(inDays(2));
  }

  it('goes from the landing page through Available Units and the wizard to the confirmation', async () => {
    const page = await product.browser.newPage();
    await page.goto(product.baseUrl);
    await page.getByRole('link', { name: 'View Available Units' }).first().waitFor();
    await expectAccessible(page, 'Landing page');
    await page.getByRole('link', { name: 'View Available Units' }).first().click();
    await page.getByRole('heading', { name: 'Available Units' }).waitFor();
    await expect.poll(() => page.getByText('2 units available').count(), eventually).toBe(1);

    const card = page.getByRole('article', { name: `Unit ${units.first.unitNumber}` });
    const text = (await card.textContent())!;
    expect(text).toContain('Building A');
    expect(text).toContain('Westside Storage');
    expect(text).toContain('$149.00');
    expect(text).toContain('10x15 ft · 150 sq ft');
    expect(text).toContain('About the size of a large bedroom');
    // The features staff gave the unit, and no other.
    for (const badge of ['Climate Controlled', 'Ground Floor', 'Smart Lock']) expect(text).toContain(badge);
    expect(text).not.toContain('24/7 Security');
    // What moving in today costs, once the page's one summary request answers.
    await card.getByText(/^Due at move-in: \$\d/).waitFor(eventually);
    await product.screenshot(page, 'available-units');
    await expectAccessible(page, 'Available Units');

    await card.getByRole('button', { name: 'View Unit Details' }).click();
    const dialog = page.getByRole('dialog', { name: `Unit ${units.first.unitNumber}` });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('150 sq ft');
    // The move-in quote's lines and total, as the wizard shows them.
    const charges = dialog.getByRole('region', { name: 'What you pay at move-in' });
    await charges.getByText('Due at move-in').waitFor(eventually);
    expect(await charges.textContent()).toContain('Rent');
    await expectAccessible(page, 'Unit details dialog');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await card.getByRole('link', { name: 'Reserve This Unit' }).click();
    await page.waitForURL(`**/rent-now?unit=${units.first.id}`);
    await page.getByText('Step 2 of 3').waitFor();
    await expectAccessible(page, 'Rent Now, step 2');
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByText('Step 1 of 3').waitFor();
    await expectAccessible(page, 'Rent Now, step 1');
    expect(await page.getByRole('radio', { name: new RegExp(`Unit ${units.first.unitNumber}`) }).isChecked()).toBe(true);
    await page.getByRole('radio', { name: new RegExp(`Unit ${units.second.unitNumber}`) }).check();
    await page.getByRole('radio', { name: new RegExp(`Unit ${units.first.unitNumber}`) }).check();
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await page.getByText('Step 2 of 3').waitFor();

    const email = `olivia-${randomUUID().slice(0, 8)}@example.com`;
    await fillContact(page, email);
    await page.getByRole('button', { name: 'Continue to Review' }).click();
    await page.getByText('Step 3 of 3').waitFor();
    // What the renter pays at move-in, from the billing engine, beside the spec's review.
    await page.getByRole('region', { name: 'What you pay at move-in' }).getByText('Due at move-in').waitFor(eventually);
    await expectAccessible(page, 'Rent Now, step 3');
    expect(await page.locator('.review').textContent()).toContain(`Unit ${units.first.unitNumber}`);
    await page.getByRole('button', { name: 'Submit Reservation' }).click();
    await page.getByText('Reservation Submitted!').waitFor(eventually);
    await page.getByText('We will contact you within 24 hours to complete the setup.').first().waitFor();
    await page.getByRole('heading', { name: 'Confirmation' }).waitFor();
    expect(await page.getByText(/Step \d of 3/).count()).toBe(0);
    await page.getByText(`we sent a link to ${email}`).waitFor();
    await product.screenshot(page, 'rent-now-confirmation');
    await expectAccessible(page, 'Rent Now confirmation');

    // The link from the mail holds the unit; it leaves the address bar at once.
    await page.goto(`${product.baseUrl}/reservations/confirm?token=${confirmationToken(smtp, email)}`);
    await page.getByRole('heading', { name: 'Reservation Confirmed' }).waitFor(eventually);
    expect(new URL(page.url()).search).toBe('');
    await product.screenshot(page, 'rent-now-reservation-confirmed');
    await expectAccessible(page, 'Reservation confirmed from the mailed link');
    await page.close();
  });

  it('fits a 360 px phone on every public page and every wizard step, with the header links behind a menu', async () => {
    const context = await product.browser.newContext({ viewport: { width: 360, height: 760 } });
    const page = await context.newPage();
    const fits = async (where: string) => {
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${where} scrolls sideways`).toBe(0);
    };
    for (const [path, ready] of [
      ['/', page.getByRole('link', { name: 'View Available Units' }).first()],
      ['/available-units', page.getByRole('heading', { name: 'Available Units' })],
      ['/customer-portal', page.getByRole('button', { name: 'Access My Account' })],
      ['/payment-success', page.getByRole('link', { name: 'Return to Customer Portal' })],
      ['/no-such-page', page.getByRole('heading', { name: '404 Page Not Found' })],
    ] as const) {
      await page.goto(`${product.baseUrl}${path}`);
      await ready.waitFor(eventually);
      await fits(path);
    }

    await page.goto(`${product.baseUrl}/rent-now`);
    await page.getByText('Step 1 of 3').waitFor(eventually);
    await page.getByText('/month').first().waitFor();
    await fits('Rent Now, step 1');
    const rate = await page.getByText('/month').first().boundingBox();
    expect(rate!.x + rate!.width).toBeLessThanOrEqual(360);
    await product.screenshot(page, 'rent-now-step-1-360');
    await page.getByRole('radio', { name: new RegExp(`Unit ${units.second.unitNumber}`) }).check();
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await page.getByText('Step 2 of 3').waitFor();
    await fits('Rent Now, step 2');
    await page.getByLabel('Move-in Date').fill(inDays(2));
    await page.getByRole('button', { name: 'Continue to Review' }).click();
    await page.getByText('Step 3 of 3').waitFor();
    await page.getByRole('region', { name: 'What you pay at move-in' }).getByText('Due at move-in').waitFor(eventually);
    await fits('Rent Now, step 3');

    // The header's links are hidden on a phone, but one button opens them.
    const main = page.getByRole('navigation', { name: 'Main' });
    expect(await main.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await main.getByRole('link', { name: 'Available Units' }).waitFor();
    await page.getByRole('link', { name: 'Customer Portal' }).first().waitFor();
    await fits('the open menu');
    await expectAccessible(page, 'Phone menu open');
    await product.screenshot(page, 'site-menu-360');
    await main.getByRole('link', { name: 'Available Units' }).click();
    await page.getByRole('heading', { name: 'Available Units' }).waitFor();
    await context.close();
  });

  it('tells a renter who lost the unit to someone else, and lets them choose another', async () => {
    const page = await product.browser.newPage();
    await page.goto(`${product.baseUrl}/rent-now?unit=${units.second.id}`);
    await page.getByText('Step 2 of 3').waitFor();
    await fillContact(page, `late-${randomUUID().slice(0, 8)}@example.com`);
    await page.getByRole('button', { name: 'Continue to Review' }).click();
    await page.getByText('Step 3 of 3').waitFor();

    const rival = await reserveOnline(
      product.platform.api.app,
      smtp,
      {
        unitId: units.second.id,
        customerData: {
          firstName: 'Quick',
          lastName: 'Rival',
          email: `rival-${randomUUID().slice(0, 8)}@example.com`,
          phone: '555-0199',
          moveInDate: inDays(1),
        },
      },
      '10.9.9.9',
    );
    expect(rival.statusCode, rival.body).toBe(200);

    await page.getByRole('button', { name: 'Submit Reservation' }).click();
    await page.getByText('Reservation Failed').waitFor(eventually);
    await page.getByRole('alert').getByText(UNIT_TAKEN_MESSAGE).waitFor();
    await page.getByRole('button', { name: 'Choose Another Unit' }).click();
    await page.getByText('Step 1 of 3').waitFor();
    await page.getByText('No units available right now').waitFor(eventually);
    await page.getByRole('button', { name: 'Join Waiting List' }).waitFor();
    await page.close();
  });
});

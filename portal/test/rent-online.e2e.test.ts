import { randomUUID } from 'node:crypto';
import { defaultBillingSettings } from '@storage/contracts/billing';
import { formatDollars } from '@storage/contracts/cents';
import { MoveInSummary, PublicMoveInQuote } from '@storage/contracts/quotes';
import { RevenueByChargeType } from '@storage/contracts/reports';
import { addFacility } from '@storage/domain/facilities/commands';
import { updateBillingSettings, updateLeaseTerms, updatePromotions, updateProtectionSettings } from '@storage/domain/settings/commands';
import { addUnit } from '@storage/domain/units/commands';
import { expectAccessible } from '@storage/testing/axe';
import { type ProductUnderTest, startProductUnderTest } from '@storage/testing/browser';
import { confirmationToken } from '@storage/testing/online-reservations';
import { drawSignature } from '@storage/testing/signature';
import { startSmtpServer, type TestSmtpServer } from '@storage/testing/smtp';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The whole online rental on a 390 px phone in Chromium, in one sitting: the landing page, a unit,
// the rent-now wizard, the mailed link (a real SMTP server), a protection plan and a web promotion,
// the test provider's card, the lease signed, and the gate code. The rules on the way are the
// API's and the components' tests; this is the journey.

const eventually = { timeout: 20_000 };
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const nextYear = (new Date().getUTCFullYear() + 2) % 100;

describe('renting a unit online on a phone, to the gate code', { timeout: 180_000 }, () => {
  let product: ProductUnderTest;
  let smtp: TestSmtpServer;
  const unit = { id: randomUUID(), unitNumber: 'P-201' };
  const facilityId = randomUUID();
  const plan = { planId: randomUUID(), name: 'Standard', coverageAmount: '5000.00', monthlyPremium: '18.00' };

  beforeAll(async () => {
    smtp = await startSmtpServer();
    product = await startProductUnderTest({ config: { smtpUrl: `smtp://127.0.0.1:${smtp.port}` } });
    const ctx = { store: product.platform.api.store, actor: { type: 'system' } as const, correlationId: randomUUID(), now: new Date() };
    await addFacility(
      ctx,
      { name: 'Phone Storage', address: '3 Pocket Lane', phone: '555-010-2222', managerName: null, accessHours: { opensAt: '06:00', closesAt: '22:00' } },
      facilityId,
    );
    await updateBillingSettings(
      ctx,
      { ...defaultBillingSettings, adminFee: '20.00', salesTax: { rent: '8', adminFee: '0', lateFee: '0', merchandise: '0' } },
      facilityId,
    );
    await updateProtectionSettings(ctx, { plans: [plan], defaultPlanId: null, enrollAfterDays: null }, facilityId);
    await updateLeaseTerms(ctx, { additionalTerms: ['No vehicles may be stored in the unit.'] }, facilityId);
    await updatePromotions(ctx, [
      {
        promotionId: randomUUID(),
        name: 'Web special',
        terms: { kind: 'percent_off', percent: '50', months: 1 },
        channel: 'online',
        facilityIds: [facilityId],
        unitSizes: [],
        startsOn: null,
        endsOn: null,
        active: true,
      },
    ]);
    const added = await addUnit(
      ctx,
      {
        facilityId,
        unitNumber: unit.unitNumber,
        building: 'P',
        size: '10x10',
        monthlyRate: '130.00',
        status: 'available',
        description: null,
        features: { climateControlled: true, driveUp: false, floor: 2, lockType: 'smart' },
      },
      unit.id,
    );
    if (added.position) await product.platform.api.afterAppend(added.position, 15_000);
  }, 240_000);
  afterAll(async () => {
    await product?.close();
    await smtp?.close();
  });

  const fits = async (page: Page, where: string) => {
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `${where} scrolls sideways`).toBe(0);
  };

  it('rents with a promotion and a protection plan, signs, pays by card, and gets a gate code', async () => {
    const context = await product.browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await page.goto(product.baseUrl);
    await page.getByRole('link', { name: 'View Available Units' }).first().click();
    const card = page.getByRole('article', { name: `Unit ${unit.unitNumber}` });
    await card.waitFor(eventually);
    // The card's "Due at move-in" is the rent-now quote's total for a move-in today, and the web promotion is named.
    const summaries = await product.platform.api.app.inject({ method: 'GET', url: `/api/public/units/move-in-summaries?unitIds=${unit.id}` });
    const today = MoveInSummary.array().parse(summaries.json())[0]!.today;
    const quoted = await product.platform.api.app.inject({ method: 'GET', url: `/api/public/units/${unit.id}/move-in-quote?moveInDate=${today}` });
    const { totalDueToday } = PublicMoveInQuote.parse(quoted.json());
    await card.getByText(`Due at move-in: ${formatDollars(totalDueToday)}`).waitFor(eventually);
    await card.getByRole('list', { name: 'Online promotions' }).getByText('Web special: 50% off the first month').waitFor();
    await fits(page, 'Available Units');
    await expectAccessible(page, 'Available Units on a phone');
    await card.getByRole('link', { name: 'Reserve This Unit' }).click();
    await page.getByText('Step 2 of 3').waitFor(eventually);

    const email = `paula-${randomUUID().slice(0, 8)}@example.com`;
    await page.getByLabel('First Name').fill('Paula');
    await page.getByLabel('Last Name').fill('Phone');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Phone', { exact: false }).first().fill('555-010-7788');
    await page.getByLabel('Move-in Date').fill(inDays(2));
    await page.getByRole('button', { name: 'Continue to Review' }).click();
    await page.getByText('Step 3 of 3').waitFor();
    await page.getByRole('button', { name: 'Submit Reservation' }).click();
    await page.getByText('Reservation Submitted!').waitFor(eventually);

    // The mailed link, opened on the same phone.
    await page.goto(`${product.baseUrl}/reservations/confirm?token=${confirmationToken(smtp, email)}`);
    await page.getByRole('heading', { name: 'Reservation Confirmed' }).waitFor(eventually);
    const finish = page.getByRole('region', { name: 'Finish Your Rental Now' });
    await finish.getByRole('table', { name: 'Due today' }).waitFor(eventually);
    await finish.getByRole('radio', { name: /Standard: \$5,000\.00 coverage/ }).check();
    await finish.getByRole('radio', { name: /Web special/ }).check();
    // The quote follows the choices: the premium and the discount are lines of what is due today.
    await finish.getByText(/^Protection plan Standard/).waitFor(eventually);
    await finish.getByText(/^Web special on/).waitFor(eventually);
    await fits(page, 'the rental offer');
    await expectAccessible(page, 'The rental offer');
    await product.screenshot(page, 'rent-online-offer-390');
    const dueToday = (await finish.locator('tfoot td').textContent())!;

    // The agreement those choices make, its plan and promotion as addenda, is signed before paying.
    await finish.getByRole('button', { name: 'Review and Sign Your Lease' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign Your Lease' });
    await dialog.waitFor();
    const agreement = (await dialog.getByTestId('agreement-text').textContent())!;
    expect(agreement).toContain('== Protection Plan Addendum ==');
    expect(agreement).toContain('== Promotion Addendum ==\nPromotion: Web special');
    expect(agreement).toContain('The tenant has access to the unit 6:00 AM – 10:00 PM every day.');
    // The facility's own term, numbered on after the generated ones.
    expect(agreement).toContain('7. No vehicles may be stored in the unit.');
    await dialog.getByLabel('Full Name').fill('Paula Phone');
    await drawSignature(page, dialog.getByTestId('signature-pad'));
    await fits(page, 'the agreement to sign');
    await product.screenshot(page, 'rent-online-sign-390');
    await dialog.getByRole('button', { name: 'Sign' }).click();
    await page.getByText(`Lease signed. Pay ${dueToday} to finish your rental.`).waitFor(eventually);

    await page.getByLabel(/card number/i).fill('4242 4242 4242 4242');
    await page.getByLabel(/expir/i).fill(`12/${nextYear}`);
    await page.getByLabel(/cvc/i).fill('123');
    await page.getByRole('button', { name: `Pay ${dueToday}` }).click();
    await page.getByRole('heading', { name: 'Your Unit Is Rented' }).waitFor(eventually);
    await fits(page, 'rented');
    const gate = page.locator('.finish-rental-gate strong');
    await gate.waitFor(eventually);
    expect(await gate.textContent()).toMatch(/^\d+$/);
    expect(await page.getByTestId('rental-access-hours').textContent()).toBe('Access hours: 6:00 AM – 10:00 PM every day');
    await fits(page, 'the gate code');
    await expectAccessible(page, 'Rented, with the gate code');
    await product.screenshot(page, 'rent-online-gate-code-390');
    await context.close();

    // The books show every cent of it: the move-in's premium and discount by charge type.
    const cookie = await product.platform.signIn();
    // The move-in invoice is dated on the move-in day, which may be next month.
    const [from, to] = [new Date().toISOString().slice(0, 7), inDays(2).slice(0, 7)];
    const revenue = await product.platform.api.app.inject({
      method: 'GET',
      url: `/api/reports/revenue-by-charge-type?facilityId=${facilityId}&from=${from}&to=${to}`,
      headers: { cookie },
    });
    const totals = RevenueByChargeType.parse(revenue.json()).totals;
    expect(totals.protection).not.toBe('0.00');
    expect(totals.discount.startsWith('-')).toBe(true);
  });
});

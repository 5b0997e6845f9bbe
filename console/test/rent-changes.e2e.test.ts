import { expectAccessible } from '@storage/testing/axe';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chooseFacility, demoStaffScreens } from './staff-browser.ts';

// Rent changes in Chromium, on the demo data: the owner changes one lease's rent from the
// renter's page (the effective date starts at the earliest the notice allows) and cancels it, and
// previews a facility's rent increase before scheduling exactly what the preview showed.

type ActiveLease = { id: string; monthlyRate: string; customer: { id: string }; unit: { unitNumber: string; facilityId: string } };
type Terms = { today: string; noticeDays: number; earliestEffectiveDate: string };
type Plan = { leases: Array<{ leaseId: string; unit: { unitNumber: string }; newRate: string }>; totals: { leases: number; newMonthly: string } };
type Changes = { terms: Terms; changes: Array<{ id: string; newRate: string; status: string }> };

const dollars = (amount: string) => `$${Number(amount).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

describe('rent changes', { timeout: 180_000 }, () => {
  const demo = demoStaffScreens();
  const get = async <T>(page: Page, path: string): Promise<T> => (await page.request.get(`${demo.product.baseUrl}${path}`)).json() as Promise<T>;

  it('changes one lease’s rent from the renter’s page, shows it pending, and cancels it', async () => {
    const page = await demo.wide.newPage();
    const [lease] = await get<ActiveLease[]>(page, '/api/leases?status=active&pageSize=1');
    const { terms } = await get<Changes>(page, `/api/leases/${lease!.id}/rent-changes`);
    await page.goto(`${demo.product.baseUrl}/customers/${lease!.customer.id}`);
    const card = page.getByTestId('lease-card').filter({ hasText: `Unit ${lease!.unit.unitNumber}` });
    await card.getByRole('button', { name: 'Change Rent' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change Rent' });
    const effective = dialog.getByLabel('Effective Date');
    await effective.waitFor();
    expect(await effective.inputValue()).toBe(terms.earliestEffectiveDate);

    // Too soon: refused in the form, before anything is sent.
    await dialog.getByLabel('New Monthly Rate').fill('0');
    await dialog.getByRole('button', { name: 'Schedule Change' }).click();
    await dialog.getByText('New monthly rate must be more than 0.00').waitFor();
    await dialog.getByLabel('New Monthly Rate').fill('149.50');
    await dialog.getByLabel('Reason').fill('Yearly review');
    await expectAccessible(page, 'Change Rent dialog');
    await demo.product.screenshot(page, 'change-rent-1440');
    await dialog.getByRole('button', { name: 'Schedule Change' }).click();
    await page.getByText('Rent change scheduled').waitFor();
    await dialog.waitFor({ state: 'hidden' });

    const pending = card.getByTestId('pending-rent-change');
    await pending.getByText(/^Rent changes to \$149\.50 from \w{3} \d{1,2}, \d{4}$/).waitFor();
    const scheduled = await get<Changes>(page, `/api/leases/${lease!.id}/rent-changes`);
    expect(scheduled.changes.map((c) => [c.newRate, c.status])).toEqual([['149.50', 'pending']]);

    await pending.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Cancel Change' }).click();
    await page.getByText('Rent change cancelled').waitFor();
    await pending.waitFor({ state: 'detached' });
    expect((await get<Changes>(page, `/api/leases/${lease!.id}/rent-changes`)).changes.map((c) => c.status)).toEqual(['cancelled']);
    await page.close();
  });

  it('follows the notice days saved on Settings → Billing', async () => {
    const page = await demo.wide.newPage();
    await page.goto(`${demo.product.baseUrl}/settings`);
    const billing = page.locator('.ant-card').filter({ has: page.locator('.ant-card-head-title', { hasText: 'Billing' }) });
    const noticeDays = billing.getByLabel('Rent Change Notice Days');
    await noticeDays.waitFor();
    expect(await noticeDays.inputValue()).toBe('30');
    await noticeDays.fill('45');
    await billing.getByRole('button', { name: 'Save Billing Settings' }).click();
    await page.getByText('Billing settings saved successfully').waitFor();
    expect((await get<{ business: { rentChangeNoticeDays: number } }>(page, '/api/settings/billing')).business.rentChangeNoticeDays).toBe(45);
    const [lease] = await get<ActiveLease[]>(page, '/api/leases?status=active&pageSize=1&sort=unit&order=desc');
    const facilityTerms = await get<Terms>(page, `/api/rent-changes/terms?facilityId=${lease!.unit.facilityId}`);
    // Facilities without settings of their own follow the business's.
    const own = await get<{ facility: unknown }>(page, `/api/settings/billing?facilityId=${lease!.unit.facilityId}`);
    if (own.facility === null) expect(facilityTerms.noticeDays).toBe(45);
    const { terms } = await get<Changes>(page, `/api/leases/${lease!.id}/rent-changes`);
    expect(terms.noticeDays).toBe(facilityTerms.noticeDays);
    await page.goto(`${demo.product.baseUrl}/customers/${lease!.customer.id}`);
    await page
      .getByTestId('lease-card')
      .filter({ hasText: `Unit ${lease!.unit.unitNumber}` })
      .getByRole('button', { name: 'Change Rent' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Change Rent' });
    await dialog.getByText(`at least ${terms.noticeDays} days from now`).waitFor();
    expect(await dialog.getByLabel('Effective Date').inputValue()).toBe(terms.earliestEffectiveDate);
    await page.close();
  });

  it('previews a rent increase for a facility, then schedules exactly the leases it showed', async () => {
    const page = await demo.wide.newPage();
    const facilities = await get<Array<{ id: string; name: string }>>(page, '/api/facilities');
    const facility = facilities[0]!;
    const terms = await get<Terms>(page, `/api/rent-changes/terms?facilityId=${facility.id}`);
    const body = { facilityId: facility.id, minMonthsAtRate: 3, kind: 'percent', value: '5', effectiveDate: terms.earliestEffectiveDate };
    const expected = (await (await page.request.post(`${demo.product.baseUrl}/api/rent-changes/preview`, { data: body })).json()) as Plan;
    expect(expected.leases.length).toBeGreaterThan(0);

    await page.goto(`${demo.product.baseUrl}/leases`);
    await page.getByRole('button', { name: 'Rent Increase' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rent Increase' });
    await chooseFacility(page, dialog, facility.name);
    await expect.poll(() => dialog.getByLabel('Effective Date').inputValue()).toBe(terms.earliestEffectiveDate);
    await dialog.getByLabel('Same Rate for at Least (Months)').fill('3');
    await dialog.getByLabel('Percent', { exact: true }).fill('5');
    await dialog.getByRole('button', { name: 'Preview' }).click();

    const rows = dialog.getByTestId('rent-increase-row');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(expected.leases.length);
    const first = expected.leases[0]!;
    await rows.filter({ hasText: first.unit.unitNumber }).getByText(dollars(first.newRate)).first().waitFor();
    await dialog
      .getByTestId('rent-increase-totals')
      .getByText(new RegExp(`^${expected.totals.leases} leases?: .* → \\${dollars(expected.totals.newMonthly)} a month`))
      .waitFor();
    await expectAccessible(page, 'Rent Increase preview');
    await demo.product.screenshot(page, 'rent-increase-preview-1440');

    const label = `Schedule ${expected.totals.leases} Rent ${expected.totals.leases === 1 ? 'Change' : 'Changes'}`;
    await dialog.getByRole('button', { name: label }).click();
    await page.getByText(new RegExp(`^${expected.totals.leases} rent changes scheduled from`)).waitFor();
    await dialog.waitFor({ state: 'hidden' });
    for (const planned of expected.leases.slice(0, 3)) {
      const { changes } = await get<Changes>(page, `/api/leases/${planned.leaseId}/rent-changes`);
      expect(changes.map((c) => [c.newRate, c.status])).toEqual([[planned.newRate, 'pending']]);
    }
    await page.close();
  });
});

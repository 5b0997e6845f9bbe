import { randomUUID } from 'node:crypto';
import { streams } from '@storage/contracts/events';
import { animationsDone } from '@storage/testing/animations';
import { expectAccessible } from '@storage/testing/axe';
import type { Page } from 'playwright-core';
import { sql } from 'slonik';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { demoStaffScreens, horizontalOverflow } from './staff-browser.ts';

// The billing engine's screens in Chromium on the demo data, as journeys through the whole stack:
// a facility's time zone saved, the Billing settings (the business's and a facility's own) saved
// and shown again after a load, an invoice's lines and the billing-run history as the engine writes
// them, with axe on the states no other test checks and the phone width where the layout matters.
// Field by field (defaults, messages, what a form sends, an empty history) the component tests
// check them: billing-settings, facility-form and billing-engine.component.test.tsx.

const JOURNEY_TIMEOUT_MS = 120_000;

describe('Billing engine screens in Chromium', () => {
  const screens = demoStaffScreens();

  const card = (page: Page, title: string) => page.locator('.ant-card').filter({ has: page.locator('.ant-card-head-title', { hasText: title }) });

  const open = async (width: 'wide' | 'narrow', path: string) => {
    const page = await screens[width].newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${screens.product.baseUrl}${path}`);
    return page;
  };

  const api = () => screens.product.platform.api;
  const settle = async (position: { hi: bigint; lo: bigint } | null | undefined) => {
    if (position) expect(await api().afterAppend(position, 15_000)).toBe(true);
  };

  it(
    "shows each facility's time zone and sets it on the facility form",
    async () => {
      const page = await open('wide', '/settings');
      const facilities = card(page, 'Facilities');
      await facilities.getByTestId('facility-row').first().waitFor();
      const zones = await facilities.getByTestId('facility-time-zone').allTextContents();
      expect(zones.sort()).toEqual(['America/Chicago', 'America/Los Angeles', 'America/Los Angeles']);

      await facilities.getByRole('button', { name: 'Add Facility' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Name', { exact: true }).fill('Lakeside Storage');
      await dialog.getByLabel('Address').fill('9 Lake Shore Dr, Chicago, IL 60611');
      // Chromium runs in UTC here: a zone the form offers, so it is the default.
      await dialog.locator('.ant-select').filter({ hasText: 'UTC' }).waitFor();
      // Typed into the select's search and chosen with Enter: a click could land while the list still slides in.
      await dialog.getByLabel('Time Zone').fill('Denver');
      await page.locator('.ant-select-item-option-active').filter({ visible: true, hasText: 'America/Denver' }).waitFor();
      await dialog.getByLabel('Time Zone').press('Enter');
      await dialog.locator('.ant-select-content, .ant-select-selection-item').filter({ hasText: 'America/Denver' }).first().waitFor();
      await dialog.getByRole('button', { name: 'Add Facility' }).click();
      await page.getByText('Facility created successfully').waitFor();
      const row = facilities.getByTestId('facility-row').filter({ hasText: 'Lakeside Storage' });
      await row.getByText('America/Denver').waitFor();
      const saved = await api().pool.oneFirst(sql.type(z.object({ time_zone: z.string() }))`
        SELECT time_zone FROM facilities WHERE name = 'Lakeside Storage'`);
      expect(saved).toBe('America/Denver');
      await page.close();
    },
    JOURNEY_TIMEOUT_MS,
  );

  it(
    "saves the business's billing settings and a facility's own, and a reload shows them",
    async () => {
      const page = await open('wide', '/settings');
      const billing = card(page, 'Billing');
      await billing.getByLabel('Grace Days Before the Late Fee').waitFor();
      await screens.product.screenshot(page, 'billing-settings-1440');

      await billing.getByLabel('Grace Days Before the Late Fee').fill('5');
      await billing.getByLabel('Fixed Late Fee').fill('30.00');
      await billing.getByRole('button', { name: 'Save Billing Settings' }).click();
      await page.getByText('Billing settings saved successfully').waitFor();
      // One late fee: the Payments card shows the fixed fee just saved.
      await card(page, 'Payment Settings').locator('input[value="30.00"]').waitFor();

      // A facility in the header's scope that follows the business's (the demo gives one its own tax),
      // in a new load: it shows the business's settings as the server now keeps them.
      const facilityId = await api().pool.oneFirst(sql.type(z.object({ id: z.string() }))`
        SELECT f.id::text FROM facilities f LEFT JOIN settings s ON s.scope = f.id::text
        WHERE s.billing IS NULL ORDER BY f.name LIMIT 1`);
      await page.goto(`${screens.product.baseUrl}/settings?facility=${facilityId}`);
      const follow = billing.getByRole('switch', { name: "Use the business's settings" });
      await follow.waitFor();
      expect(await follow.isChecked()).toBe(true);
      expect(await billing.getByLabel('Grace Days Before the Late Fee').inputValue()).toBe('5');
      expect(await billing.getByLabel('Fixed Late Fee').inputValue()).toBe('30.00');
      expect(await card(page, 'Payment Settings').getByLabel('Late Fee Amount').inputValue()).toBe('30.00');

      await follow.click();
      await billing.getByText('Percent of the rent, with a minimum').click();
      await billing.getByLabel('Late Fee Percent').fill('12.5');
      await billing.getByLabel('Minimum Late Fee').fill('20');
      await billing.getByLabel('Grace Days Before the Late Fee').fill('3');
      await expectAccessible(page, "Billing card with a facility's own settings");
      await billing.getByRole('button', { name: 'Save Billing Settings' }).click();
      await page.getByText('Billing settings saved successfully').waitFor();

      await page.reload();
      await follow.waitFor();
      expect(await follow.isChecked()).toBe(false);
      expect(await billing.getByLabel('Late Fee Percent').inputValue()).toBe('12.5');
      expect(await billing.getByLabel('Minimum Late Fee').inputValue()).toBe('20.00');
      expect(await billing.getByLabel('Grace Days Before the Late Fee').inputValue()).toBe('3');
      await screens.product.screenshot(page, 'billing-settings-facility-1440');
      await page.close();
    },
    JOURNEY_TIMEOUT_MS,
  );

  it(
    "lists an invoice's lines in its details, with their kinds, periods and the total",
    async () => {
      const customer = await api().pool.one(sql.type(z.object({ id: z.string(), last_name: z.string() }))`
        SELECT id::text, last_name FROM customers WHERE NOT archived ORDER BY created_at LIMIT 1`);
      const invoiceNumber = `INV-LINES-${randomUUID().slice(0, 6).toUpperCase()}`;
      // As the engine writes it: invoice_generated (v2, with lines) on the invoice's stream.
      const invoiceId = randomUUID();
      const { position } = await api().store.append(
        streams.invoice(invoiceId),
        [
          {
            id: randomUUID(),
            type: 'invoice_generated',
            data: {
              invoiceId,
              invoiceNumber,
              customerId: customer.id,
              leaseId: null,
              amount: '165.00',
              dueDate: '2026-12-01',
              status: 'sent',
              description: 'Rent for December',
              lines: [
                { kind: 'rent', description: 'Unit A-101 rent', amount: '120.00', periodStart: '2026-12-01', periodEnd: '2026-12-31' },
                { kind: 'late_fee', description: 'Late fee', amount: '25.00', periodStart: null, periodEnd: null },
                { kind: 'admin_fee', description: 'Admin fee', amount: '20.00', periodStart: null, periodEnd: null },
              ],
            },
            metadata: { actor: { type: 'system' }, correlationId: randomUUID(), causationId: null, schemaVersion: 2, occurredAt: new Date().toISOString() },
          },
        ],
        { expectedRevision: 'no_stream' },
      );
      await settle(position);

      for (const width of ['wide', 'narrow'] as const) {
        const page = await open(width, `/billing?search=${invoiceNumber}`);
        const row = page.getByTestId('invoice-row').filter({ hasText: invoiceNumber });
        await row.getByRole('button', { name: 'View' }).click();
        const drawer = page.locator('.invoice-detail-drawer');
        const lines = drawer.getByTestId('invoice-line');
        await lines.nth(2).waitFor();
        expect(await lines.count()).toBe(3);
        const rent = await lines.first().textContent();
        for (const text of ['Unit A-101 rent', 'Rent', 'Dec 1 – Dec 31, 2026', '$120.00']) expect(rent).toContain(text);
        expect(await drawer.getByTestId('invoice-lines-total').textContent()).toBe('Total$165.00');
        await animationsDone(page);
        // axe once, at the desktop width (the colours are the same on a phone); the phone, for its layout.
        if (width === 'wide') await expectAccessible(page, 'Invoice details with lines');
        else expect(await horizontalOverflow(page)).toBe(0);
        await screens.product.screenshot(page, `invoice-lines-${width === 'wide' ? 1440 : 390}`);
        await page.close();
      }
    },
    JOURNEY_TIMEOUT_MS,
  );

  it(
    'shows the billing-run history, newest first, with the skipped leases and why, for the facility in scope',
    async () => {
      const facilities = await api().pool.any(sql.type(z.object({ id: z.string(), name: z.string() }))`
        SELECT id::text, name FROM facilities WHERE name IN ('Riverside Self Storage', 'Harbor Point Storage') ORDER BY name`);
      const [harbor, riverside] = facilities;
      const record = async (facilityId: string, billingDate: string, ranAt: string, issued: number, skipped: Array<{ leaseId: string; reason: string }>) => {
        const runId = randomUUID();
        const { position } = await api().store.append(
          streams.billingDay(facilityId, billingDate),
          [
            {
              id: randomUUID(),
              type: 'billing_run_completed',
              data: { runId, facilityId, billingDate, invoicesIssued: issued, lateFeesCharged: 2, invoicesOverdue: 3, skipped },
              metadata: { actor: { type: 'system' }, correlationId: randomUUID(), causationId: null, schemaVersion: 1, occurredAt: ranAt },
            },
          ],
          { expectedRevision: 'any' },
        );
        await settle(position);
      };
      await record(riverside!.id, '2030-11-26', '2030-11-26T08:00:03.000Z', 41, [
        { leaseId: randomUUID(), reason: 'The lease has no monthly rent' },
        { leaseId: randomUUID(), reason: 'The lease ended before the period' },
      ]);
      await record(harbor!.id, '2030-11-27', '2030-11-27T08:00:03.000Z', 17, []);

      const page = await open('wide', '/billing');
      await page.getByRole('tab', { name: 'Billing Runs' }).click();
      const rows = page.getByTestId('billing-run-row');
      await rows.nth(1).waitFor();
      expect(new URL(page.url()).searchParams.get('view')).toBe('runs');
      const [newest, older] = [await rows.nth(0).textContent(), await rows.nth(1).textContent()];
      for (const text of ['Harbor Point Storage', 'Nov 27, 2030', '17']) expect(newest).toContain(text);
      for (const text of ['Riverside Self Storage', 'Nov 26, 2030', '41']) expect(older).toContain(text);
      const skipped = rows.nth(1).locator('details');
      expect(await skipped.getByText('The lease has no monthly rent').isVisible()).toBe(false);
      await skipped.locator('summary').click();
      await skipped.getByText('The lease has no monthly rent').waitFor();
      await skipped.getByText('The lease ended before the period').waitFor();
      await expectAccessible(page, 'Billing Runs');
      await screens.product.screenshot(page, 'billing-runs-1440');

      // The header's facility scopes the history (the scheduler's own runs of the demo's day are there too).
      await page.goto(`${screens.product.baseUrl}/billing?view=runs&facility=${harbor!.id}`);
      await rows.first().getByText('Nov 27, 2030', { exact: true }).waitFor();
      expect((await rows.allTextContents()).every((text) => text.includes('Harbor Point Storage'))).toBe(true);
      expect((await rows.allTextContents()).some((text) => text.includes('Riverside Self Storage'))).toBe(false);
      await page.close();

      const phone = await open('narrow', '/billing?view=runs');
      await phone.getByTestId('billing-run-row').nth(1).waitFor();
      expect(await horizontalOverflow(phone)).toBe(0);
      await screens.product.screenshot(phone, 'billing-runs-390');
      await phone.close();
    },
    JOURNEY_TIMEOUT_MS,
  );
});

import { AvailableUnit } from '@storage/contracts/public';
import { MoveInSummary, PublicMoveInQuote } from '@storage/contracts/quotes';
import { NO_UNIT_FEATURES } from '@storage/contracts/unit-features';
import { answer, refuse } from '@storage/testing/component-api';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import AvailableUnitsPage from '../../src/app/routes/available-units.tsx';
import { renderPortal } from './render.tsx';

// The public unit list: each card shows the features staff gave the unit, and a unit nobody
// described shows none (never the same badges on every card).

const unit = (unitNumber: string, features: AvailableUnit['features']): AvailableUnit => ({
  id: crypto.randomUUID(),
  unitNumber,
  building: 'A',
  facility: { id: '7c1a2b3c-4d5e-4f60-8a7b-1c2d3e4f5a6b', name: 'Westside Storage', accessHours: '6:00 AM – 10:00 PM every day' },
  monthlyRate: '149.00',
  size: '10x15',
  description: null,
  features,
});

describe('available units', () => {
  beforeAll(() => {
    // jsdom has no modal dialogs: open and close one as a browser does (the e2e tests use the real one).
    HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
      this.open = true;
    };
    HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
      this.open = false;
    };
  });

  it("shows each unit's own features, and none for a unit nobody described", async () => {
    const described = unit('W-101', { climateControlled: true, driveUp: true, floor: 1, lockType: 'smart' });
    const upstairs = unit('W-201', { climateControlled: false, driveUp: false, floor: 2, lockType: 'disc' });
    const plain = unit('W-301', NO_UNIT_FEATURES);
    renderPortal(<AvailableUnitsPage />, {
      path: '/units',
      api: [
        answer('get', '/api/public/units/available', AvailableUnit.array(), [described, upstairs, plain]),
        answer('get', '/api/public/units/move-in-summaries', MoveInSummary.array(), []),
      ],
    });
    const features = async (unitNumber: string) => {
      const card = await screen.findByRole('article', { name: `Unit ${unitNumber}` });
      const list = within(card).queryByRole('list', { name: 'Features' });
      return list
        ? within(list)
            .getAllByRole('listitem')
            .map((item) => item.textContent)
        : [];
    };
    expect(await features('W-101')).toEqual(['Climate Controlled', 'Drive-Up Access', 'Ground Floor', 'Smart Lock']);
    expect(await features('W-201')).toEqual(['Floor 2', 'Disc Lock']);
    expect(await features('W-301')).toEqual([]);
    expect(screen.queryByText('24/7 Security')).toBeNull();
  });

  it('shows what moving in today costs and the online promotions on each card, in one request, and no figure for a unit not quoted', async () => {
    const quoted = unit('W-101', NO_UNIT_FEATURES);
    const plain = unit('W-102', NO_UNIT_FEATURES);
    const unquoted = unit('W-103', NO_UNIT_FEATURES);
    const today = '2026-11-29';
    const halfOff = {
      promotionId: crypto.randomUUID(),
      name: 'Half off',
      terms: { kind: 'percent_off' as const, percent: '50', months: 2 },
      words: '50% off the first 2 months',
    };
    const summaries = answer('get', '/api/public/units/move-in-summaries', MoveInSummary.array(), [
      { unitId: quoted.id, today, totalDueToday: '1234.50', promotions: [halfOff] },
      { unitId: plain.id, today, totalDueToday: '80.00', promotions: [] },
    ]);
    const quote: PublicMoveInQuote = {
      unitId: quoted.id,
      startDate: today,
      monthlyRate: '149.00',
      today,
      dueToday: [
        {
          kind: 'move-in',
          description: 'Move-in',
          periodStart: today,
          periodEnd: '2026-11-30',
          issueDate: today,
          dueDate: today,
          lines: [
            { kind: 'prorated_rent', description: 'Rent Nov 29 - Nov 30 (prorated)', amount: '9.93', periodStart: today, periodEnd: '2026-11-30' },
            { kind: 'admin_fee', description: 'Admin fee', amount: '25.00', periodStart: null, periodEnd: null },
          ],
          total: '34.93',
        },
      ],
      totalDueToday: '34.93',
      nextInvoice: null,
      protection: null,
      promotion: null,
      offers: { plans: [], promotions: [halfOff] },
    };
    const quoteAnswer = answer('get', `/api/public/units/${quoted.id}/move-in-quote`, PublicMoveInQuote, quote);
    const { user } = renderPortal(<AvailableUnitsPage />, {
      path: '/units',
      api: [answer('get', '/api/public/units/available', AvailableUnit.array(), [quoted, plain, unquoted]), summaries, quoteAnswer],
    });
    const card = async (unitNumber: string) => within(await screen.findByRole('article', { name: `Unit ${unitNumber}` }));
    expect((await (await card('W-101')).findByText(/^Due at move-in:/)).textContent).toBe('Due at move-in: $1,234.50');
    const promotions = (await card('W-101')).getByRole('list', { name: 'Online promotions' });
    expect(
      within(promotions)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Half off: 50% off the first 2 months']);
    expect((await card('W-102')).getByText(/^Due at move-in:/).textContent).toBe('Due at move-in: $80.00');
    expect((await card('W-102')).queryByRole('list', { name: 'Online promotions' })).toBeNull();
    expect((await card('W-103')).queryByText(/Due at move-in/)).toBeNull();
    // One request for the page's units, never one per card.
    expect(summaries.sent.map((request) => request.search.get('unitIds'))).toEqual([[quoted.id, plain.id, unquoted.id].join(',')]);

    // The details show the quote's lines, for the day the summary was quoted for.
    await user.click((await card('W-101')).getByRole('button', { name: 'View Unit Details' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Unit W-101' }));
    const charges = within(await dialog.findByRole('region', { name: 'What you pay at move-in' }));
    await waitFor(() => expect(charges.getByText('Admin fee')).toBeTruthy());
    expect(charges.getByText('$34.93')).toBeTruthy();
    expect(quoteAnswer.sent.map((request) => request.search.get('moveInDate'))).toEqual([today]);
    expect(dialog.getByText('Access hours').nextElementSibling?.textContent).toBe('6:00 AM – 10:00 PM every day');
    expect(dialog.getByRole('link', { name: 'Reserve This Unit' })).toBeTruthy();
  });

  it('shows the units without figures when the summaries cannot be had', async () => {
    const only = unit('W-104', NO_UNIT_FEATURES);
    renderPortal(<AvailableUnitsPage />, {
      path: '/units',
      api: [
        answer('get', '/api/public/units/available', AvailableUnit.array(), [only]),
        refuse('get', '/api/public/units/move-in-summaries', 429, { message: 'Too many requests. Please try again in a minute.' }),
      ],
    });
    const card = within(await screen.findByRole('article', { name: 'Unit W-104' }));
    expect(card.getByRole('link', { name: 'Reserve This Unit' })).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(card.queryByText(/Due at move-in/)).toBeNull();
  });
});

import type { OfferedPromotion } from '@storage/contracts/promotions';
import type { ProtectionPlan } from '@storage/contracts/protection';
import { WaitlistEntry } from '@storage/contracts/public';
import { MoveInQuote } from '@storage/contracts/quotes';
import { Reservation } from '@storage/contracts/reservations';
import { type Answer, answer, answerPage, declareAnswers, refuse } from '@storage/testing/component-api';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ReservationsSection } from '../../src/features/reservations/components/reservations-section.tsx';
import { renderConsole } from './render.tsx';

// Converting a reservation at the desk: the dialog quotes the move-in on the reservation's unit and
// day (its lines, Due today, the next invoice), offers the facility's plans and the promotions that
// apply as the quote says, and sends the chosen ones in the conversion; a refusal naming one shows
// under it. The list says where the renter's own online payment stands.

const reservation: Reservation = {
  id: '3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f',
  status: 'submitted',
  unitId: '4d5e6f7a-8b9c-4d0e-9f1a-2b3c4d5e6f7a',
  unitNumber: 'A101',
  size: '10x10',
  monthlyRate: '120.00',
  facilityId: null,
  customerId: '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b',
  customerName: 'Grace Hopper',
  customerEmail: 'grace@example.com',
  customerPhone: null,
  moveInDate: '2026-02-10',
  specialRequests: null,
  submittedAt: '2026-02-01T10:00:00.000Z',
  leaseId: null,
  matchedCustomer: null,
  onlineCheckout: null,
  onlineCheckoutAt: null,
};

const quotePath = `/api/units/${reservation.unitId}/move-in-quote`;
const convertPath = `/api/reservations/${reservation.id}/convert`;
const Converted = z.object({ reservationId: z.string(), leaseId: z.string().nullable() });

const basic: ProtectionPlan = { planId: '0a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d', name: 'Basic', coverageAmount: '2000.00', monthlyPremium: '12.00' };
const halfOff: OfferedPromotion = {
  promotionId: '2b1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d',
  name: 'Half off',
  terms: { kind: 'percent_off', percent: '50', months: 2 },
  words: '50% off the first 2 months',
};
const basicWords = 'Basic — $2,000 coverage, $12.00/month';
const halfOffWords = 'Half off: 50% off the first 2 months';

type Kind = 'prorated_rent' | 'discount' | 'protection';
const line = (kind: Kind, description: string, amount: string) => ({ kind, description, amount, periodStart: null, periodEnd: null });

/** The quote with what is chosen: rent 81.43, less half of it with the promotion, plus the plan's premium; then March's invoice. */
function quoteOf({ plan = null, promotion = null }: { plan?: ProtectionPlan | null; promotion?: OfferedPromotion | null }): MoveInQuote {
  const lines = [
    line('prorated_rent', 'Prorated rent Feb 10 – Feb 28, 2026 (19 of 28 days)', '81.43'),
    ...(promotion ? [line('discount', 'Promotion: Half off', '-40.72')] : []),
    ...(plan ? [line('protection', `Protection plan: ${plan.name}`, plan.monthlyPremium)] : []),
  ];
  const cents = lines.reduce((sum, l) => sum + Math.round(Number(l.amount) * 100), 0);
  const total = (cents / 100).toFixed(2);
  return {
    unitId: reservation.unitId,
    startDate: reservation.moveInDate,
    monthlyRate: '120.00',
    depositAmount: null,
    today: '2026-02-01',
    dueToday: [
      {
        kind: 'move-in',
        description: 'Move-in charges',
        periodStart: '2026-02-10',
        periodEnd: '2026-02-28',
        issueDate: '2026-02-01',
        dueDate: '2026-02-01',
        lines,
        total,
      },
    ],
    totalDueToday: total,
    nextInvoice: {
      kind: 'rent',
      description: 'Rent for March 2026',
      periodStart: '2026-03-01',
      periodEnd: '2026-03-31',
      issueDate: '2026-02-22',
      dueDate: '2026-03-01',
      lines: [line('prorated_rent', 'Rent March 2026', '120.00')],
      total: '120.00',
    },
    protection: plan,
    promotion: promotion && { promotionId: promotion.promotionId, name: promotion.name, terms: promotion.terms },
    offers: { plans: [basic], promotions: [halfOff] },
  };
}

function renderList(rows: Reservation[], api: Answer[] = [], role: 'clerk' | 'auditor' = 'clerk') {
  return renderConsole(<ReservationsSection facilityId={null} onDecided={() => {}} />, {
    role,
    path: '/leases',
    api: [answerPage('/api/reservations', Reservation, rows), answerPage('/api/waitlist', WaitlistEntry, []), ...api],
  });
}

async function openConvert(row: Reservation, api: Answer[]) {
  const rendered = renderList([row], api);
  await rendered.user.click(await screen.findByRole('button', { name: 'Convert to lease' }));
  return { ...rendered, dialog: await screen.findByRole('dialog') };
}

const total = (dialog: HTMLElement) => within(dialog).getByTestId('move-in-quote-total').textContent;

describe('the Convert dialog', () => {
  it('quotes the reservation’s unit and day, offers the plans and promotions, and converts with those chosen', async () => {
    const plain = answer('get', quotePath, MoveInQuote, quoteOf({}));
    const { user, dialog } = await openConvert(reservation, [plain]);
    expect(within(dialog).getByText('Start a lease for Grace Hopper on unit A101 (10x10) at $120.00/month.')).toBeTruthy();
    await waitFor(() => expect(total(dialog)).toBe('$81.43'));
    // The reservation's unit and move-in day, at the unit's rate (the one the conversion uses), nothing chosen.
    expect(Object.fromEntries(plain.sent.at(-1)!.search)).toEqual({ startDate: '2026-02-10' });
    expect(within(dialog).getByText('Prorated rent Feb 10 – Feb 28, 2026 (19 of 28 days)')).toBeTruthy();
    expect(within(dialog).getByTestId('move-in-quote-next').textContent).toContain('Next invoice: $120.00 on');

    declareAnswers(answer('get', quotePath, MoveInQuote, quoteOf({ plan: basic })));
    await user.click(within(dialog).getByRole('combobox', { name: 'Protection Plan' }));
    expect(screen.getAllByTitle('No protection plan').length).toBeGreaterThan(0);
    await user.click(await screen.findByTitle(basicWords));
    await waitFor(() => expect(total(dialog)).toBe('$93.43'));

    const both = answer('get', quotePath, MoveInQuote, quoteOf({ plan: basic, promotion: halfOff }));
    declareAnswers(both);
    await user.click(within(dialog).getByRole('combobox', { name: 'Promotion' }));
    await user.click(await screen.findByTitle(halfOffWords));
    await waitFor(() => expect(total(dialog)).toBe('$52.71'));
    expect(Object.fromEntries(both.sent.at(-1)!.search)).toEqual({
      startDate: '2026-02-10',
      protectionPlanId: basic.planId,
      promotionId: halfOff.promotionId,
    });
    const section = within(dialog).getByRole('region', { name: 'What the renter pays at move-in' });
    expect(within(section).getByText('Promotion: Half off')).toBeTruthy();
    expect(within(section).getByText('Protection plan: Basic')).toBeTruthy();

    const converted = answer('post', convertPath, Converted, { reservationId: reservation.id, leaseId: reservation.id }, { status: 200 });
    declareAnswers(converted);
    await user.click(within(dialog).getByRole('button', { name: 'Convert to lease' }));
    await screen.findByText('Reservation converted to a lease');
    expect(converted.sent).toHaveLength(1);
    expect(converted.sent[0]!.body).toEqual({
      startDate: '2026-02-10',
      depositAmount: null,
      protectionPlanId: basic.planId,
      promotionId: halfOff.promotionId,
    });
  });

  it('converts with none chosen as null, and for a pending contact as the customer staff chose', async () => {
    const pending: Reservation = { ...reservation, customerId: null, customerName: 'Ada Lovelace', customerEmail: 'ada@example.com' };
    const converted = answer('post', convertPath, Converted, { reservationId: reservation.id, leaseId: reservation.id }, { status: 200 });
    const rendered = renderList([pending], [answer('get', quotePath, MoveInQuote, quoteOf({})), converted]);
    await rendered.user.click(await screen.findByRole('button', { name: 'Convert as new customer' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Add Ada Lovelace as a new customer and start a lease on unit A101 (10x10) at $120.00/month.')).toBeTruthy();
    await waitFor(() => expect(total(dialog)).toBe('$81.43'));
    await rendered.user.click(within(dialog).getByRole('button', { name: 'Convert to lease' }));
    await screen.findByText('Reservation converted to a lease');
    expect(converted.sent[0]!.body).toEqual({ createCustomer: true, startDate: '2026-02-10', depositAmount: null, protectionPlanId: null, promotionId: null });
  });

  it('shows a refusal naming the promotion under the Promotion field, and keeps the dialog open', async () => {
    const { user, dialog } = await openConvert(reservation, [
      answer('get', quotePath, MoveInQuote, quoteOf({})),
      refuse('post', convertPath, 400, { message: 'promotionId: Half off does not apply at the desk', field: 'promotionId' }),
    ]);
    await waitFor(() => expect(total(dialog)).toBe('$81.43'));
    declareAnswers(answer('get', quotePath, MoveInQuote, quoteOf({ promotion: halfOff })));
    await user.click(within(dialog).getByRole('combobox', { name: 'Promotion' }));
    await user.click(await screen.findByTitle(halfOffWords));
    await waitFor(() => expect(total(dialog)).toBe('$40.71'));
    await user.click(within(dialog).getByRole('button', { name: 'Convert to lease' }));
    expect(await within(dialog).findByText('Promotion Half off does not apply at the desk')).toBeTruthy();
    expect(screen.getByRole('dialog')).toBe(dialog);
  });
});

describe('the online checkout on the Reservations list', () => {
  it('tags a renter paying online, and Cancel and the Convert dialog say what acting now may do', async () => {
    const paying: Reservation = { ...reservation, onlineCheckout: 'paying', onlineCheckoutAt: '2026-02-01 11:00:00+00' };
    const { user } = renderList([paying], [answer('get', quotePath, MoveInQuote, quoteOf({}))]);
    const row = await screen.findByTestId('reservation-row');
    expect(within(row).getByTestId('online-checkout').textContent).toBe('Paying online');
    // Cancelling says so too.
    await user.click(within(row).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('The renter is paying online: a payment they make will be refunded.')).toBeTruthy();
    await user.click(within(row).getByRole('button', { name: 'Convert to lease' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('The renter is paying online: converting now may leave their payment to be refunded.')).toBeTruthy();
  });

  it('tags a refunded online payment, even for an auditor, and nothing for a renter who never paid online', async () => {
    const refunded: Reservation = { ...reservation, onlineCheckout: 'refunded', onlineCheckoutAt: '2026-02-01 11:00:00+00' };
    const other: Reservation = { ...reservation, id: '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d', customerName: 'Alan Turing' };
    renderList([refunded, other], [], 'auditor');
    const rows = await screen.findAllByTestId('reservation-row');
    const tag = within(rows[0]!).getByTestId('online-checkout');
    expect(tag.textContent).toBe('Online payment refunded');
    expect(tag.getAttribute('title')).toBe("The renter's online payment was refunded: the rental could not be made.");
    expect(within(rows[1]!).queryByTestId('online-checkout')).toBeNull();
  });
});

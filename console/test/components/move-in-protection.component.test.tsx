import { Lease } from '@storage/contracts/leases';
import type { OfferedPromotion } from '@storage/contracts/promotions';
import type { ProtectionPlan } from '@storage/contracts/protection';
import { MoveInQuote } from '@storage/contracts/quotes';
import { Unit } from '@storage/contracts/units';
import { type Answer, answer, answerPage, apiServer, declareAnswers } from '@storage/testing/component-api';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { takeDeskPaymentOnce } from '../../src/features/customers/api/desk.ts';
import { MoveInButton, type MoveInCustomerPicker } from '../../src/features/leases/components/move-in-button.tsx';
import { graceHopper } from './customer-fixtures.ts';
import { graceLeaseOfA101, unitA101 } from './lease-fixtures.ts';
import { fill, renderConsole } from './render.tsx';

// The Move In dialog's protection plan and promotion: chosen from the quote's offers, sent in the
// quote's query and the Move In's body, their lines in the quote and the payment following its
// total; a promotion the quote refuses once the day changes is taken back, and the field says so;
// a facility without plans says so and links to Settings.

const customer = graceHopper();
const unit = unitA101;
const quotePath = `/api/units/${unit.id}/move-in-quote`;

const basic: ProtectionPlan = { planId: '0a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d', name: 'Basic', coverageAmount: '2000.00', monthlyPremium: '12.00' };
const premium: ProtectionPlan = { planId: '1a1b2c3d-4e5f-4a6b-8c7d-8e9f0a1b2c3d', name: 'Premium', coverageAmount: '5000.00', monthlyPremium: '20.00' };
const halfOff: OfferedPromotion = {
  promotionId: '3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f',
  name: 'Half off',
  terms: { kind: 'percent_off', percent: '50', months: 2 },
  words: '50% off the first 2 months',
};

type Kind = 'prorated_rent' | 'discount' | 'protection';
const line = (kind: Kind, description: string, amount: string) => ({ kind, description, amount, periodStart: null, periodEnd: null });

/** The quote with what is chosen: rent 81.43, less half of it with the promotion, plus the plan's premium. */
function quoteOf({
  plan = null,
  promotion = null,
  offers = { plans: [basic, premium], promotions: [halfOff] },
}: {
  plan?: ProtectionPlan | null;
  promotion?: OfferedPromotion | null;
  offers?: MoveInQuote['offers'];
}): MoveInQuote {
  const lines = [
    line('prorated_rent', 'Prorated rent Feb 10 – Feb 28, 2026 (19 of 28 days)', '81.43'),
    ...(promotion ? [line('discount', 'Promotion: Half off', '-40.72')] : []),
    ...(plan ? [line('protection', `Protection plan: ${plan.name}`, plan.monthlyPremium)] : []),
  ];
  const cents = lines.reduce((sum, l) => sum + Math.round(Number(l.amount) * 100), 0);
  const total = (cents / 100).toFixed(2);
  return {
    unitId: unit.id,
    startDate: '2026-02-10',
    monthlyRate: '120.00',
    depositAmount: null,
    today: '2026-02-10',
    dueToday: [
      {
        kind: 'move-in',
        description: 'Move-in charges',
        periodStart: '2026-02-10',
        periodEnd: '2026-02-28',
        issueDate: '2026-02-10',
        dueDate: '2026-02-10',
        lines,
        total,
      },
    ],
    totalDueToday: total,
    nextInvoice: null,
    protection: plan,
    promotion: promotion && { promotionId: promotion.promotionId, name: promotion.name, terms: promotion.terms },
    offers,
  };
}

const lease = graceLeaseOfA101();

const TypedCustomerPicker: MoveInCustomerPicker = ({ id, value, onChange }) => (
  <input id={id} value={value ?? ''} onChange={(e) => onChange?.(e.target.value)} />
);

async function openMoveIn(api: Answer[]) {
  const rendered = renderConsole(<MoveInButton customerPicker={TypedCustomerPicker} takePayment={takeDeskPaymentOnce} onMovedIn={() => {}} />, {
    role: 'clerk',
    path: '/leases',
    api: [answerPage('/api/units', Unit, [unit]), ...api],
  });
  await rendered.user.click(await screen.findByRole('button', { name: /Move In/ }));
  const dialog = await screen.findByRole('dialog');
  fireEvent.change(within(dialog).getByLabelText('Start Date'), { target: { value: '2026-02-10' } });
  await rendered.user.click(within(dialog).getByRole('combobox', { name: 'Unit' }));
  await rendered.user.click(await screen.findByTitle('A-101 · 10x10 · Building A · $120.00/month'));
  return { ...rendered, dialog };
}

const total = (dialog: HTMLElement) => within(dialog).getByTestId('move-in-quote-total').textContent;
const amountField = (dialog: HTMLElement) => within(dialog).getByLabelText('Amount') as HTMLInputElement;
const basicWords = 'Basic — $2,000 coverage, $12.00/month';
const halfOffWords = 'Half off: 50% off the first 2 months';

describe('the Move In dialog’s protection plan and promotion', () => {
  it('offers the plans and promotions, quotes and moves in with those chosen, and the payment follows the new total', async () => {
    const plain = answer('get', quotePath, MoveInQuote, quoteOf({}));
    const { user, dialog } = await openMoveIn([plain]);
    await waitFor(() => expect(total(dialog)).toBe('$81.43'));
    await waitFor(() => expect(amountField(dialog).value).toBe('81.43'));
    // None chosen at first: the quote asks for neither.
    expect(plain.sent.every((sent) => !sent.search.has('protectionPlanId') && !sent.search.has('promotionId'))).toBe(true);

    const planChosen = answer('get', quotePath, MoveInQuote, quoteOf({ plan: basic }));
    declareAnswers(planChosen);
    await user.click(within(dialog).getByRole('combobox', { name: 'Protection Plan' }));
    expect(await screen.findByTitle('Premium — $5,000 coverage, $20.00/month')).toBeTruthy();
    expect(screen.getAllByTitle('No protection plan').length).toBeGreaterThan(0);
    await user.click(screen.getByTitle(basicWords));
    await waitFor(() => expect(total(dialog)).toBe('$93.43'));
    expect(planChosen.sent.at(-1)!.search.get('protectionPlanId')).toBe(basic.planId);

    const bothChosen = answer('get', quotePath, MoveInQuote, quoteOf({ plan: basic, promotion: halfOff }));
    declareAnswers(bothChosen);
    await user.click(within(dialog).getByRole('combobox', { name: 'Promotion' }));
    await user.click(await screen.findByTitle(halfOffWords));
    await waitFor(() => expect(total(dialog)).toBe('$52.71'));
    const section = within(dialog).getByRole('region', { name: 'What the renter pays at move-in' });
    expect(within(section).getByText('Promotion: Half off')).toBeTruthy();
    expect(within(section).getByText('-$40.72')).toBeTruthy();
    expect(within(section).getByText('Protection plan: Basic')).toBeTruthy();
    expect(within(section).getByText('$12.00')).toBeTruthy();
    expect(Object.fromEntries(bothChosen.sent.at(-1)!.search)).toEqual({
      startDate: '2026-02-10',
      monthlyRate: '120.00',
      protectionPlanId: basic.planId,
      promotionId: halfOff.promotionId,
    });
    // The payment at move-in starts at the new Due today.
    await waitFor(() => expect(amountField(dialog).value).toBe('52.71'));

    const made = answer('post', '/api/leases', Lease, lease);
    declareAnswers(made);
    await user.click(within(dialog).getByLabelText('Take payment now'));
    await fill(user, within(dialog).getByLabelText('Customer'), customer.id);
    await user.click(within(dialog).getByRole('button', { name: 'Move In' }));
    await screen.findByText('Lease created successfully');
    expect(made.sent).toHaveLength(1);
    expect(made.sent[0]!.body).toMatchObject({ unitId: unit.id, protectionPlanId: basic.planId, promotionId: halfOff.promotionId });
  });

  it('takes back a promotion the quote refuses once the day changes, says so under the field, and quotes without it', async () => {
    const offered = answer('get', quotePath, MoveInQuote, quoteOf({}));
    const { user, dialog } = await openMoveIn([offered]);
    await within(dialog).findByRole('combobox', { name: 'Promotion' });
    declareAnswers(answer('get', quotePath, MoveInQuote, quoteOf({ promotion: halfOff })));
    await user.click(within(dialog).getByRole('combobox', { name: 'Promotion' }));
    await user.click(await screen.findByTitle(halfOffWords));
    await waitFor(() => expect(total(dialog)).toBe('$40.71'));

    // From the new day the promotion no longer applies: the quote refuses it, naming the field.
    const refusals: URLSearchParams[] = [];
    const withoutPromotion = answer('get', quotePath, MoveInQuote, { ...quoteOf({ offers: { plans: [basic], promotions: [] } }), startDate: '2026-03-10' });
    declareAnswers(withoutPromotion);
    apiServer.use(
      http.get(quotePath, ({ request }) => {
        const search = new URL(request.url).searchParams;
        if (!search.has('promotionId')) return undefined;
        refusals.push(search);
        return HttpResponse.json({ message: 'promotionId: Half off does not apply to this unit on this day', field: 'promotionId' }, { status: 400 });
      }),
    );
    fireEvent.change(within(dialog).getByLabelText('Start Date'), { target: { value: '2026-03-10' } });

    await waitFor(() =>
      expect(within(dialog).getByTestId('promotionId-withdrawn').textContent).toBe('Half off does not apply to this unit and start date, so it was removed.'),
    );
    expect(refusals.at(-1)!.get('promotionId')).toBe(halfOff.promotionId);
    // Asked again without it; no promotion applies now, so the field is gone and the note stays.
    await waitFor(() => expect(total(dialog)).toBe('$81.43'));
    expect(withoutPromotion.sent.at(-1)!.search.has('promotionId')).toBe(false);
    expect(within(dialog).queryByRole('combobox', { name: 'Promotion' })).toBeNull();
    expect(within(dialog).getByTestId('promotionId-withdrawn')).toBeTruthy();
  });

  it('says a facility without plans has none, linking to Settings, and shows no promotion field when none applies', async () => {
    const { dialog } = await openMoveIn([answer('get', quotePath, MoveInQuote, quoteOf({ offers: { plans: [], promotions: [] } }))]);
    const note = await within(dialog).findByTestId('no-protection-plans');
    expect(note.textContent).toContain('No protection plans are set up for this facility.');
    expect(within(note).getByRole('link', { name: 'Settings' }).getAttribute('href')).toBe('/settings');
    expect(within(dialog).queryByRole('combobox', { name: 'Protection Plan' })).toBeNull();
    expect(within(dialog).queryByRole('combobox', { name: 'Promotion' })).toBeNull();
  });
});

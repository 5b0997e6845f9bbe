import { AvailableUnit, ReservationRequested, UNIT_TAKEN_MESSAGE } from '@storage/contracts/public';
import { PublicMoveInQuote, UNIT_NOT_AVAILABLE_MESSAGE } from '@storage/contracts/quotes';
import { NO_UNIT_FEATURES } from '@storage/contracts/unit-features';
import { answer, neverAnswer, refuse } from '@storage/testing/component-api';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import RentNowPage from '../../src/app/routes/rent-now.tsx';
import { localToday } from '../../src/features/rent-now/reservation-form.ts';
import { fill, type RenderOptions, renderPortal, toastShown } from './render.tsx';

// The rent-now wizard's steps: what step 1 shows while the units load, when there are none and on
// failure; the checks made at submit, in the spec's words; what is sent; and the answer to a unit
// another renter got first.

const w101: AvailableUnit = {
  id: '4f3e2d1c-0b9a-4876-8543-210fedcba987',
  unitNumber: 'W-101',
  building: 'A',
  facility: { id: '7c1a2b3c-4d5e-4f60-8a7b-1c2d3e4f5a6b', name: 'Westside Storage', accessHours: '6:00 AM – 10:00 PM every day' },
  monthlyRate: '149.00',
  size: '10x15',
  description: null,
  features: NO_UNIT_FEATURES,
};
const inDays = (days: number) => localToday(new Date(Date.now() + days * 86_400_000));

const quotePath = `/api/public/units/${w101.id}/move-in-quote`;
const rentLine = (description: string, amount: string) => ({ kind: 'rent' as const, description, amount, periodStart: null, periodEnd: null });
const w101Quote: PublicMoveInQuote = {
  unitId: w101.id,
  startDate: '2030-03-01',
  monthlyRate: '149.00',
  today: '2030-02-26',
  dueToday: [
    {
      kind: 'move-in',
      description: 'Move-in charges',
      periodStart: '2030-03-01',
      periodEnd: '2030-03-31',
      issueDate: '2030-03-01',
      dueDate: '2030-03-01',
      lines: [rentLine('Rent Mar 1 – Mar 31, 2030', '149.00'), { ...rentLine('Admin fee', '25.00'), kind: 'admin_fee' }],
      total: '174.00',
    },
  ],
  totalDueToday: '174.00',
  nextInvoice: {
    kind: 'rent',
    description: 'Rent Apr 1 – Apr 30, 2030',
    periodStart: '2030-04-01',
    periodEnd: '2030-04-30',
    issueDate: '2030-03-27',
    dueDate: '2030-04-01',
    lines: [rentLine('Rent Apr 1 – Apr 30, 2030', '149.00')],
    total: '149.00',
  },
  protection: null,
  promotion: null,
  offers: { plans: [], promotions: [] },
};

function openWizard(api: RenderOptions['api'] = [], path = `/rent-now?unit=${w101.id}`) {
  return renderPortal(<RentNowPage />, {
    path,
    api: [
      answer('get', '/api/public/units/available', AvailableUnit.array(), [w101]),
      ...api,
      // The review's quote, for any test that reaches it with a move-in day (one that declares its own comes first).
      answer('get', quotePath, PublicMoveInQuote, w101Quote),
    ],
  });
}

async function fillContact(user: ReturnType<typeof openWizard>['user'], moveInDate: string) {
  await fill(user, screen.getByLabelText(/^First Name/), 'Olivia');
  await fill(user, screen.getByLabelText(/^Last Name/), 'Online');
  await fill(user, screen.getByLabelText(/^Email/), 'olivia@example.com');
  await fill(user, screen.getByLabelText(/^Phone/), '555-010-3344');
  // A date field takes its value whole (it cannot be typed into in jsdom).
  fireEvent.change(screen.getByLabelText(/^Move-in Date/), { target: { value: moveInDate } });
}

describe('rent-now wizard', () => {
  it('reaches the review without the checks, and names every missing field at submit without sending', async () => {
    const submitted = answer('post', '/api/public/reservations', ReservationRequested, {
      unitId: w101.id,
      moveInDate: inDays(2),
      confirmBy: '2030-01-01T00:00:00.000Z',
      message: 'ok',
    });
    const { user } = openWizard([submitted]);
    await screen.findByText('Step 2 of 3');
    await user.click(screen.getByRole('button', { name: 'Continue to Review' }));
    await screen.findByText('Step 3 of 3');
    await user.click(screen.getByRole('button', { name: 'Submit Reservation' }));
    expect(toastShown()).toEqual({ title: 'Missing Information', description: 'Please fill in: First Name, Last Name, Email, Phone, Move-in Date' });
    expect(submitted.sent).toHaveLength(0);
  });

  it('refuses a move-in date before today', async () => {
    const { user } = openWizard();
    await screen.findByText('Step 2 of 3');
    await fillContact(user, inDays(-1));
    await user.click(screen.getByRole('button', { name: 'Continue to Review' }));
    await user.click(await screen.findByRole('button', { name: 'Submit Reservation' }));
    expect(toastShown()).toEqual({ title: 'Invalid Move-in Date', description: 'The move-in date cannot be earlier than today.' });
  });

  it('sends the unit and the details, then confirms and points to the mailed link', async () => {
    const moveInDate = inDays(2);
    const submitted = answer('post', '/api/public/reservations', ReservationRequested, {
      unitId: w101.id,
      moveInDate,
      confirmBy: '2030-01-01T00:00:00.000Z',
      message: 'Check your email: confirm your reservation from the link we sent you to hold the unit.',
    });
    const { user } = openWizard([submitted]);
    await screen.findByText('Step 2 of 3');
    await fillContact(user, moveInDate);
    await user.click(screen.getByRole('button', { name: 'Continue to Review' }));
    await screen.findByText(/Unit W-101 · 10x15 ft \(150 sq ft\) · Building A · Westside Storage · \$149\.00\/month/);
    await user.click(screen.getByRole('button', { name: 'Submit Reservation' }));
    await screen.findByRole('heading', { name: 'Confirmation' });
    expect(toastShown()).toEqual({ title: 'Reservation Submitted!', description: 'We will contact you within 24 hours to complete the setup.' });
    screen.getByText(/we sent a link to olivia@example\.com/);
    expect(screen.queryByText(/Step \d of 3/)).toBeNull();
    expect(submitted.sent[0]!.body).toEqual({
      unitId: w101.id,
      customerData: {
        firstName: 'Olivia',
        lastName: 'Online',
        email: 'olivia@example.com',
        phone: '555-010-3344',
        address: '',
        emergencyContact: '',
        emergencyPhone: '',
        moveInDate,
        specialRequests: '',
      },
    });
  });

  it('tells a renter whose unit was taken, and offers another', async () => {
    const taken = refuse('post', '/api/public/reservations', 409, { message: UNIT_TAKEN_MESSAGE });
    const { user } = openWizard([taken]);
    await screen.findByText('Step 2 of 3');
    await fillContact(user, inDays(2));
    await user.click(screen.getByRole('button', { name: 'Continue to Review' }));
    await user.click(await screen.findByRole('button', { name: 'Submit Reservation' }));
    expect((await screen.findByRole('alert')).textContent).toContain(UNIT_TAKEN_MESSAGE);
    expect(toastShown()).toEqual({ title: 'Reservation Failed', description: UNIT_TAKEN_MESSAGE });
    await user.click(screen.getByRole('button', { name: 'Choose Another Unit' }));
    await screen.findByText('Step 1 of 3');
    await screen.findByRole('radio', { name: /Unit W-101/ });
    expect((screen.getByRole('radio', { name: /Unit W-101/ }) as HTMLInputElement).checked).toBe(false);
  });
});

describe('rent-now step 1', () => {
  it('shows that the units are loading', async () => {
    renderPortal(<RentNowPage />, { path: '/rent-now', api: [neverAnswer('get', '/api/public/units/available')] });
    await screen.findByRole('status', { name: 'Loading units' });
  });

  it('offers the waiting list when no unit is available', async () => {
    const { user } = renderPortal(<RentNowPage />, { path: '/rent-now', api: [answer('get', '/api/public/units/available', AvailableUnit.array(), [])] });
    await screen.findByRole('heading', { name: 'No units available right now' });
    await user.click(screen.getByRole('button', { name: 'Join Waiting List' }));
    await screen.findByText('Step 2 of 3');
  });

  it("says the units could not load, in the server's words", async () => {
    renderPortal(<RentNowPage />, { path: '/rent-now', api: [refuse('get', '/api/public/units/available', 503, { message: 'Service Unavailable' })] });
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Unable to load available units: Service Unavailable'));
  });

  it('continues only once a unit is chosen', async () => {
    const { user } = openWizard([], '/rent-now');
    const radio = await screen.findByRole('radio', { name: /Unit W-101/ });
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull();
    await user.click(radio);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByText('Step 2 of 3');
  });
});

describe('rent-now review: what you pay at move-in', () => {
  it("shows the unit's move-in charges for the day chosen, their total and the next invoice, beside the spec's review", async () => {
    const quoted = answer('get', quotePath, PublicMoveInQuote, w101Quote);
    const { user } = openWizard([quoted]);
    await screen.findByText('Step 2 of 3');
    const moveInDate = inDays(3);
    await fillContact(user, moveInDate);
    await user.click(screen.getByRole('button', { name: 'Continue to Review' }));
    await screen.findByText('Step 3 of 3');
    const block = await screen.findByRole('region', { name: 'What you pay at move-in' });
    await within(block).findByText('Rent Mar 1 – Mar 31, 2030');
    expect(within(block).getByText('Admin fee')).toBeTruthy();
    expect(within(block).getByText('Due at move-in').nextSibling?.textContent).toBe('$174.00');
    expect(within(block).getByText(/^Next invoice:/).textContent).toBe('Next invoice: $149.00 on Apr 1, 2030');
    expect(quoted.sent.map((sent) => sent.search.get('moveInDate'))).toEqual([moveInDate]);
    // The spec's review stays as it was, with the submit button.
    screen.getByRole('heading', { name: 'Your details' });
    screen.getByRole('button', { name: 'Submit Reservation' });
  });

  it('asks nothing for a day before today, nor without a day', async () => {
    const quoted = answer('get', quotePath, PublicMoveInQuote, w101Quote);
    const { user } = openWizard([quoted]);
    await screen.findByText('Step 2 of 3');
    await user.click(screen.getByRole('button', { name: 'Continue to Review' }));
    await screen.findByText('Step 3 of 3');
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await fillContact(user, inDays(-1));
    await user.click(screen.getByRole('button', { name: 'Continue to Review' }));
    await screen.findByText('Step 3 of 3');
    expect(screen.queryByRole('region', { name: 'What you pay at move-in' })).toBeNull();
    expect(quoted.sent).toHaveLength(0);
  });

  it("says the charges could not be worked out, in the server's words", async () => {
    const { user } = openWizard([refuse('get', quotePath, 409, { message: UNIT_NOT_AVAILABLE_MESSAGE })]);
    await screen.findByText('Step 2 of 3');
    await fillContact(user, inDays(2));
    await user.click(screen.getByRole('button', { name: 'Continue to Review' }));
    const block = await screen.findByRole('region', { name: 'What you pay at move-in' });
    await within(block).findByText(`We could not work out your move-in charges: ${UNIT_NOT_AVAILABLE_MESSAGE}`);
  });
});

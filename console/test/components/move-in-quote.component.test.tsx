import { MoveInQuote } from '@storage/contracts/quotes';
import { NO_UNIT_FEATURES } from '@storage/contracts/unit-features';
import { Unit } from '@storage/contracts/units';
import { type Answer, answer, answerPage, declareAnswers, heldAnswer, refuse } from '@storage/testing/component-api';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MoveInButton, type MoveInCustomerPicker } from '../../src/features/leases/components/move-in-button.tsx';
import { fill, renderConsole } from './render.tsx';

// The Move In dialog's quote: nothing until a unit and a day are chosen, then what the renter pays
// at move-in and the next invoice, asked again (once) as the terms change; loading and refusals.

const unit: Unit = {
  id: '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e',
  unitNumber: 'A-101',
  building: 'A',
  facilityId: null,
  size: '10x10',
  monthlyRate: '120.00',
  status: 'available',
  description: null,
  features: NO_UNIT_FEATURES,
  createdAt: '2026-01-02T10:00:00.000Z',
  updatedAt: '2026-01-02T10:00:00.000Z',
};
const quotePath = `/api/units/${unit.id}/move-in-quote`;

const line = (kind: 'prorated_rent' | 'rent' | 'deposit' | 'admin_fee' | 'tax', description: string, amount: string) => ({
  kind,
  description,
  amount,
  periodStart: null,
  periodEnd: null,
});
const quote = (depositAmount: string | null): MoveInQuote => {
  const lines = [
    line('prorated_rent', 'Prorated rent Feb 10 – Feb 28, 2026 (19 of 28 days)', '81.43'),
    ...(depositAmount ? [line('deposit', 'Security deposit', depositAmount)] : []),
    line('admin_fee', 'Admin fee', '25.00'),
  ];
  const total = depositAmount ? '166.43' : '106.43';
  return {
    unitId: unit.id,
    startDate: '2026-02-10',
    monthlyRate: '120.00',
    depositAmount,
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
    nextInvoice: {
      kind: 'rent',
      description: 'Rent Mar 1 – Mar 31, 2026',
      periodStart: '2026-03-01',
      periodEnd: '2026-03-31',
      issueDate: '2026-02-24',
      dueDate: '2026-03-01',
      lines: [line('rent', 'Rent Mar 1 – Mar 31, 2026', '120.00')],
      total: '120.00',
    },
    protection: null,
    promotion: null,
    offers: { plans: [], promotions: [] },
  };
};

const CustomerPicker: MoveInCustomerPicker = ({ id, value, onChange }) => <input id={id} value={value ?? ''} onChange={(e) => onChange?.(e.target.value)} />;

async function openMoveIn(api: Answer[]) {
  const rendered = renderConsole(<MoveInButton customerPicker={CustomerPicker} onMovedIn={() => {}} />, {
    path: '/leases',
    api: [answerPage('/api/units', Unit, [unit]), ...api],
  });
  await rendered.user.click(await screen.findByRole('button', { name: /Move In/ }));
  const dialog = await screen.findByRole('dialog');
  fireEvent.change(within(dialog).getByLabelText('Start Date'), { target: { value: '2026-02-10' } });
  return { ...rendered, dialog };
}

async function chooseUnit(user: Awaited<ReturnType<typeof openMoveIn>>['user'], dialog: HTMLElement) {
  await user.click(within(dialog).getByRole('combobox', { name: 'Unit' }));
  await user.click(await screen.findByTitle('A-101 · 10x10 · Building A · $120.00/month'));
}

const quoteSection = () => screen.queryByRole('region', { name: 'What the renter pays at move-in' });

describe('the Move In dialog’s quote', () => {
  it('shows nothing until a unit is chosen, then each line, the total due today and the next invoice', async () => {
    const quoted = answer('get', quotePath, MoveInQuote, quote(null));
    const { user, dialog } = await openMoveIn([quoted]);
    expect(quoteSection()).toBeNull();
    await chooseUnit(user, dialog);

    const section = await screen.findByRole('region', { name: 'What the renter pays at move-in' });
    await within(section).findByText('Prorated rent Feb 10 – Feb 28, 2026 (19 of 28 days)');
    expect(within(section).getByText('$81.43')).toBeTruthy();
    expect(within(section).getByText('Admin fee')).toBeTruthy();
    expect(within(section).getByText('Due today')).toBeTruthy();
    expect(within(section).getByTestId('move-in-quote-total').textContent).toBe('$106.43');
    expect(within(section).getByTestId('move-in-quote-next').textContent).toMatch(/^Next invoice: \$120\.00 on Mar 1, 2026/);
    // Asked once, for the unit's rate it took, the day chosen and no deposit.
    expect(quoted.sent).toHaveLength(1);
    expect(Object.fromEntries(quoted.sent[0]!.search)).toEqual({ startDate: '2026-02-10', monthlyRate: '120.00' });
  });

  it('shows each sales tax line under the charge it taxes, in the total', async () => {
    const untaxed = quote(null);
    const move = untaxed.dueToday[0]!;
    const lines = [
      move.lines[0]!,
      line('tax', 'Sales tax 8.875% on Prorated rent Feb 10 – Feb 28, 2026 (19 of 28 days)', '7.23'),
      move.lines[1]!,
      line('tax', 'Sales tax 5% on Admin fee', '1.25'),
    ];
    const taxed: MoveInQuote = { ...untaxed, dueToday: [{ ...move, lines, total: '114.91' }], totalDueToday: '114.91' };
    const { user, dialog } = await openMoveIn([answer('get', quotePath, MoveInQuote, taxed)]);
    await chooseUnit(user, dialog);
    const section = await screen.findByRole('region', { name: 'What the renter pays at move-in' });
    await within(section).findByText('Sales tax 8.875% on Prorated rent Feb 10 – Feb 28, 2026 (19 of 28 days)');
    expect(within(section).getByText('$7.23')).toBeTruthy();
    expect(within(section).getByText('Sales tax 5% on Admin fee')).toBeTruthy();
    expect(within(section).getByTestId('move-in-quote-total').textContent).toBe('$114.91');
  });

  it('asks again, once, when the deposit is typed, and shows the new figures', async () => {
    const first = answer('get', quotePath, MoveInQuote, quote(null));
    const { user, dialog } = await openMoveIn([first]);
    await chooseUnit(user, dialog);
    await screen.findByText('$106.43');
    const withDeposit = answer('get', quotePath, MoveInQuote, quote('60.00'));
    declareAnswers(withDeposit);
    await fill(user, within(dialog).getByLabelText('Deposit'), '60.00');
    await screen.findByText('Security deposit');
    expect(screen.getByTestId('move-in-quote-total').textContent).toBe('$166.43');
    expect(withDeposit.sent).toHaveLength(1);
    expect(withDeposit.sent[0]!.search.get('depositAmount')).toBe('60.00');
  });

  it('does not ask for a rate the Move In would refuse, and says why nothing is quoted', async () => {
    const quoted = answer('get', quotePath, MoveInQuote, quote(null));
    const { user, dialog } = await openMoveIn([quoted]);
    await chooseUnit(user, dialog);
    await screen.findByText('$106.43');
    await fill(user, within(dialog).getByLabelText(/Monthly Rate/), '12.345');
    await screen.findByText('Enter a valid monthly rate and deposit to see what the renter pays.');
    expect(quoted.sent.every((sent) => sent.search.get('monthlyRate') === '120.00')).toBe(true);
  });

  it('shows a placeholder while the quote loads, then the figures', async () => {
    const held = heldAnswer('get', quotePath, MoveInQuote, quote(null));
    const { user, dialog } = await openMoveIn([held]);
    await chooseUnit(user, dialog);
    await held.arrived;
    const section = await screen.findByRole('region', { name: 'What the renter pays at move-in' });
    expect(section.querySelector('.ant-skeleton')).not.toBeNull();
    expect(within(section).queryByText('Due today')).toBeNull();
    held.release();
    await within(section).findByText('Due today');
  });

  it('says the quote could not be made, in the server’s words', async () => {
    const { user, dialog } = await openMoveIn([refuse('get', quotePath, 404, { message: 'Unit not found' })]);
    await chooseUnit(user, dialog);
    await screen.findByText('Could not work out the move-in charges');
    await waitFor(() => expect(screen.getByRole('region', { name: 'What the renter pays at move-in' }).textContent).toContain('Unit not found'));
  });
});

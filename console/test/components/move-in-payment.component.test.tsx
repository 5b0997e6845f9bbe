import { DeskReceipt } from '@storage/contracts/billing';
import { Customer } from '@storage/contracts/customers';
import type { StaffRole } from '@storage/contracts/enums';
import { Lease } from '@storage/contracts/leases';
import { MoveInQuote } from '@storage/contracts/quotes';
import { NO_UNIT_FEATURES } from '@storage/contracts/unit-features';
import { Unit } from '@storage/contracts/units';
import { type Answer, answer, answerPage, declareAnswers, heldAnswer, refuse } from '@storage/testing/component-api';
import { useQuery } from '@tanstack/react-query';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { authUserQueryOptions } from '../../src/features/auth/api/get-auth-user.ts';
import { takeDeskPaymentOnce } from '../../src/features/customers/api/desk.ts';
import { CustomerPicker, customerOption } from '../../src/features/customers/components/customer-picker.tsx';
import { LazyCustomerFormDialog } from '../../src/features/customers/components/lazy-customer-form-dialog.tsx';
import { MoveInButton, type MoveInCustomerPicker, type MoveInNewCustomerDialog } from '../../src/features/leases/components/move-in-button.tsx';
import { graceHopper } from './customer-fixtures.ts';
import { FACILITIES, fill, renderConsole } from './render.tsx';

// The Move In dialog takes the move-in payment: the amount starts at the quote's Due today and
// follows it until staff type their own; the lease is made first, then the payment taken for the
// renter under its attempt key; a payment refused after the lease says so and leaves the lease;
// without a payment nothing is paid; New customer adds one over the dialog and chooses them.

const customer = graceHopper();
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
const paymentsPath = `/api/customers/${customer.id}/payments`;

const quoteOf = (depositAmount: string | null, total: string): MoveInQuote => ({
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
      lines: [{ kind: 'prorated_rent', description: 'Prorated rent', amount: total, periodStart: null, periodEnd: null }],
      total,
    },
  ],
  totalDueToday: total,
  nextInvoice: null,
  protection: null,
  promotion: null,
  offers: { plans: [], promotions: [] },
});

const lease: Lease = {
  id: '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b',
  customer: { id: customer.id, firstName: customer.firstName, lastName: customer.lastName, email: customer.email, phone: customer.phone },
  unit: { id: unit.id, unitNumber: unit.unitNumber, size: unit.size, building: unit.building, facilityId: null },
  isActive: true,
  monthlyRate: '120.00',
  depositAmount: null,
  startDate: '2026-02-10',
  endDate: null,
  moveOutDate: null,
  createdAt: '2026-02-10T10:00:00.000Z',
  invoiceSummary: { paid: 0, overdue: 0, total: 1 },
};
const receipt: DeskReceipt = {
  receiptId: '6f7a8b9c-0d1e-4f2a-8b3c-4d5e6f7a8b9c',
  applied: [{ invoiceId: '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d', invoiceNumber: 'INV-0107', amount: '226.80' }],
  credited: '0.00',
};

const TypedCustomerPicker: MoveInCustomerPicker = ({ id, value, onChange }) => (
  <input id={id} value={value ?? ''} onChange={(e) => onChange?.(e.target.value)} />
);

/** The Add Customer dialog over the Move In, as the Lease Agreements screen plugs it in. */
const NewCustomerDialog: MoveInNewCustomerDialog = ({ open, onClose, onCreated }) => (
  <LazyCustomerFormDialog open={open} onClose={onClose} onCreated={(created) => onCreated(customerOption(created))} />
);

/** Says when the signed-in member is known, so a test sees what the screen offers them, not what it shows before. */
function SignedInRole() {
  const role = useQuery(authUserQueryOptions()).data?.role;
  return role ? <span>Signed in as {role}</span> : null;
}

type Options = { role?: StaffRole; picker?: MoveInCustomerPicker; path?: string };

async function openMoveIn(api: Answer[], { role = 'clerk', picker = TypedCustomerPicker, path = '/leases' }: Options = {}) {
  const onMovedIn = vi.fn();
  const rendered = renderConsole(
    <MoveInButton customerPicker={picker} newCustomerDialog={NewCustomerDialog} takePayment={takeDeskPaymentOnce} onMovedIn={onMovedIn} />,
    { role, path, api: [answerPage('/api/units', Unit, [unit]), ...api] },
  );
  await rendered.user.click(await screen.findByRole('button', { name: /Move In/ }));
  const dialog = await screen.findByRole('dialog');
  fireEvent.change(within(dialog).getByLabelText('Start Date'), { target: { value: '2026-02-10' } });
  return { ...rendered, dialog, onMovedIn };
}

async function chooseUnit(user: Awaited<ReturnType<typeof openMoveIn>>['user'], dialog: HTMLElement) {
  await user.click(within(dialog).getByRole('combobox', { name: 'Unit' }));
  await user.click(await screen.findByTitle('A-101 · 10x10 · Building A · $120.00/month'));
}

/** The customer typed, the unit chosen, and the quote's Due today on screen. */
async function fillMoveIn(opened: Awaited<ReturnType<typeof openMoveIn>>, dueToday: string) {
  const { user, dialog } = opened;
  await fill(user, within(dialog).getByLabelText('Customer'), customer.id);
  await chooseUnit(user, dialog);
  await waitFor(() => expect(within(dialog).getByTestId('move-in-quote-total').textContent).toBe(dueToday));
}

const amountField = (dialog: HTMLElement) => within(dialog).getByLabelText('Amount') as HTMLInputElement;
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('the Move In dialog’s payment at move-in', () => {
  it('starts at the quote’s Due today and takes the payment after the lease is made, under its attempt key, in one toast', async () => {
    const made = heldAnswer('post', '/api/leases', Lease, lease);
    const paid = answer('post', paymentsPath, DeskReceipt, receipt);
    const opened = await openMoveIn([answer('get', quotePath, MoveInQuote, quoteOf(null, '226.80')), made, paid]);
    const { user, dialog, onMovedIn } = opened;
    await fillMoveIn(opened, '$226.80');
    const section = within(dialog).getByRole('region', { name: 'Payment at move-in' });
    expect((within(section).getByLabelText('Take payment now') as HTMLInputElement).checked).toBe(true);
    await waitFor(() => expect(amountField(dialog).value).toBe('226.80'));
    await user.click(within(section).getByLabelText('Method'));
    await user.click(await screen.findByTitle('Check'));
    await fill(user, await within(section).findByLabelText('Check Number'), '1042');

    await user.click(within(dialog).getByRole('button', { name: 'Move In' }));
    await made.arrived;
    // Nothing is paid before the lease is made.
    expect(paid.sent).toHaveLength(0);
    made.release();
    await screen.findByText('Lease created; payment recorded: INV-0107 $226.80');
    expect(made.sent).toHaveLength(1);
    expect(made.sent[0]!.headers.get('Idempotency-Key')).toMatch(uuid);
    expect(paid.sent).toHaveLength(1);
    expect(paid.sent[0]!.body).toEqual({ amount: '226.80', method: 'check', reference: '1042' });
    expect(paid.sent[0]!.headers.get('Idempotency-Key')).toMatch(uuid);
    expect(onMovedIn).toHaveBeenCalled();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('follows the quote until staff type an amount, and takes less than due when told', async () => {
    const paid = answer('post', paymentsPath, DeskReceipt, { ...receipt, applied: [{ ...receipt.applied[0]!, amount: '100.00' }] });
    const opened = await openMoveIn([answer('get', quotePath, MoveInQuote, quoteOf(null, '226.80')), answer('post', '/api/leases', Lease, lease), paid]);
    const { user, dialog } = opened;
    await fillMoveIn(opened, '$226.80');
    await waitFor(() => expect(amountField(dialog).value).toBe('226.80'));
    declareAnswers(answer('get', quotePath, MoveInQuote, quoteOf('60.00', '286.80')));
    await fill(user, within(dialog).getByLabelText('Deposit'), '60.00');
    await waitFor(() => expect(within(dialog).getByTestId('move-in-quote-total').textContent).toBe('$286.80'));
    await waitFor(() => expect(amountField(dialog).value).toBe('286.80'));

    await fill(user, amountField(dialog), '100.00');
    declareAnswers(answer('get', quotePath, MoveInQuote, quoteOf('70.00', '296.80')));
    await fill(user, within(dialog).getByLabelText('Deposit'), '70.00');
    await waitFor(() => expect(within(dialog).getByTestId('move-in-quote-total').textContent).toBe('$296.80'));
    expect(amountField(dialog).value).toBe('100.00');

    await user.click(within(dialog).getByRole('button', { name: 'Move In' }));
    await screen.findByText('Lease created; payment recorded: INV-0107 $100.00');
    expect(paid.sent[0]!.body).toEqual({ amount: '100.00', method: 'cash', reference: null });
  });

  it('makes one lease and pays once when Move In is pressed again while it saves', async () => {
    const made = heldAnswer('post', '/api/leases', Lease, lease);
    const paid = answer('post', paymentsPath, DeskReceipt, receipt);
    const opened = await openMoveIn([answer('get', quotePath, MoveInQuote, quoteOf(null, '226.80')), made, paid]);
    const { user, dialog } = opened;
    await fillMoveIn(opened, '$226.80');
    await waitFor(() => expect(amountField(dialog).value).toBe('226.80'));
    const submit = within(dialog).getByRole('button', { name: 'Move In' });
    await user.click(submit);
    await made.arrived;
    await user.click(submit);
    made.release();
    await screen.findByText('Lease created; payment recorded: INV-0107 $226.80');
    expect(made.sent).toHaveLength(1);
    expect(paid.sent).toHaveLength(1);
  });

  it('sends the same Move In again under the same key after a lost answer, then pays once', async () => {
    const lost = refuse('post', '/api/leases', 503, { message: 'The server is not answering' });
    const paid = answer('post', paymentsPath, DeskReceipt, receipt);
    const opened = await openMoveIn([answer('get', quotePath, MoveInQuote, quoteOf(null, '226.80')), lost, paid]);
    const { user, dialog } = opened;
    await fillMoveIn(opened, '$226.80');
    await waitFor(() => expect(amountField(dialog).value).toBe('226.80'));
    await user.click(within(dialog).getByRole('button', { name: 'Move In' }));
    await screen.findByText('Failed to create lease');
    expect(paid.sent).toHaveLength(0);

    const made = answer('post', '/api/leases', Lease, lease);
    declareAnswers(made);
    await user.click(within(dialog).getByRole('button', { name: 'Move In' }));
    await screen.findByText('Lease created; payment recorded: INV-0107 $226.80');
    // The server finishes the first attempt rather than making a second lease.
    expect(made.sent[0]!.headers.get('Idempotency-Key')).toBe(lost.sent[0]!.headers.get('Idempotency-Key'));
    expect(paid.sent).toHaveLength(1);
  });

  it('says plainly when the lease is made but the payment is refused, and keeps the lease', async () => {
    const made = answer('post', '/api/leases', Lease, lease);
    const refused = refuse('post', paymentsPath, 409, { message: 'This customer is archived' });
    const opened = await openMoveIn([answer('get', quotePath, MoveInQuote, quoteOf(null, '226.80')), made, refused]);
    const { user, dialog, onMovedIn } = opened;
    await fillMoveIn(opened, '$226.80');
    await waitFor(() => expect(amountField(dialog).value).toBe('226.80'));
    await user.click(within(dialog).getByRole('button', { name: 'Move In' }));

    await within(dialog).findByText("Lease created, but the payment was not recorded: This customer is archived. Take it from the customer's page.");
    expect(made.sent).toHaveLength(1);
    expect(refused.sent).toHaveLength(1);
    expect(onMovedIn).toHaveBeenCalled();
    expect(screen.queryByText(/^Lease created; payment recorded/)).toBeNull();
    // Nothing in the dialog makes the lease again.
    expect(within(dialog).queryByRole('button', { name: 'Move In' })).toBeNull();
    await user.click(within(dialog).getByText('Close', { selector: 'button > span' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(made.sent).toHaveLength(1);
  });

  it('sends no payment when Take payment now is off', async () => {
    const made = answer('post', '/api/leases', Lease, lease);
    const paid = answer('post', paymentsPath, DeskReceipt, receipt);
    const opened = await openMoveIn([answer('get', quotePath, MoveInQuote, quoteOf(null, '226.80')), made, paid]);
    const { user, dialog } = opened;
    await fillMoveIn(opened, '$226.80');
    await user.click(within(dialog).getByLabelText('Take payment now'));
    expect(within(dialog).queryByLabelText('Amount')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Move In' }));
    await screen.findByText('Lease created successfully');
    expect(made.sent).toHaveLength(1);
    expect(paid.sent).toHaveLength(0);
  });

  it('offers no payment to a role that may not take one (an auditor, who may not move anyone in either)', async () => {
    renderConsole(
      <>
        <SignedInRole />
        <MoveInButton customerPicker={TypedCustomerPicker} takePayment={takeDeskPaymentOnce} onMovedIn={() => {}} />
      </>,
      { role: 'auditor', path: '/leases' },
    );
    // Once the member is known, the screen offers nothing.
    await screen.findByText('Signed in as auditor');
    expect(screen.queryByRole('button', { name: /Move In/ })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Payment at move-in' })).toBeNull();
    expect(screen.queryByText('Take payment now')).toBeNull();
  });

  it('adds a New customer over the dialog and chooses them in the picker', async () => {
    const riverside = FACILITIES[0]!;
    const added = graceHopper({
      id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      facilityId: riverside.id,
    });
    const create = answer('post', '/api/customers', Customer, added);
    const made = answer('post', '/api/leases', Lease, { ...lease, customer: { ...lease.customer, id: added.id } });
    const opened = await openMoveIn(
      [answerPage('/api/customers', Customer, []), answer('get', quotePath, MoveInQuote, quoteOf(null, '226.80')), create, made],
      {
        picker: CustomerPicker,
        // With a facility in scope the Add Customer form starts on it.
        path: `/leases?facility=${riverside.id}`,
      },
    );
    const { user, dialog } = opened;
    await user.click(within(dialog).getByRole('button', { name: /New customer/ }));
    const addTitle = await screen.findByText('Add Customer', { selector: '.ant-modal-title' });
    const addDialog = within(addTitle.closest<HTMLElement>('[role="dialog"]')!);
    await fill(user, await addDialog.findByLabelText('First Name'), 'Ada');
    await fill(user, addDialog.getByLabelText('Last Name'), 'Lovelace');
    await fill(user, addDialog.getByLabelText('Email'), 'ada@example.com');
    await user.click(addDialog.getByRole('button', { name: 'Add Customer' }));
    await screen.findByText('Customer created successfully');
    await waitFor(() => expect(screen.queryByText('Add Customer', { selector: '.ant-modal-title' })).toBeNull());
    expect(create.sent).toHaveLength(1);
    // The Move In's picker names the customer added.
    await within(dialog).findByText('Ada Lovelace · ada@example.com');

    await chooseUnit(user, dialog);
    await user.click(within(dialog).getByLabelText('Take payment now'));
    await user.click(within(dialog).getByRole('button', { name: 'Move In' }));
    await screen.findByText('Lease created successfully');
    expect((made.sent[0]!.body as { customerId: string }).customerId).toBe(added.id);
  });
});

import { DeskReceipt } from '@storage/contracts/billing';
import { Lease } from '@storage/contracts/leases';
import { MerchandiseItem, MerchandiseQuote, MerchandiseSale } from '@storage/contracts/merchandise';
import { MoveInQuote } from '@storage/contracts/quotes';
import { Unit } from '@storage/contracts/units';
import { type Answer, answer, answerPage, declareAnswers, heldAnswer, refuse } from '@storage/testing/component-api';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { takeDeskPaymentOnce } from '../../src/features/customers/api/desk.ts';
import { MoveInButton, type MoveInCustomerPicker, type MoveInMerchandise } from '../../src/features/leases/components/move-in-button.tsx';
import { sellMerchandise } from '../../src/features/merchandise/api/merchandise.ts';
import { MoveInMerchandiseSection } from '../../src/features/merchandise/components/move-in-merchandise.tsx';
import { graceHopper } from './customer-fixtures.ts';
import { graceLeaseOfA101, unitA101 } from './lease-fixtures.ts';
import { FACILITIES, fill, renderConsole } from './render.tsx';

// Merchandise sold in the Move In dialog: items of the unit's facility with their quantities, their
// lines and tax in a block of their own in the quote, counted in Due today (which the payment starts
// at); on Move In the lease first, then the sale under a key derived from the move-in's, then the
// payment; a sale refused after the lease keeps the lease, says why, and the payment covers the
// move-in only.

const facilityId = FACILITIES[0]!.id;
const customer = graceHopper();
const unit: Unit = { ...unitA101, facilityId };
const lease = graceLeaseOfA101({ unit: { ...graceLeaseOfA101().unit, facilityId } });
const quotePath = `/api/units/${unit.id}/move-in-quote`;
const itemsQuotePath = `/api/facilities/${facilityId}/merchandise-quote`;
const salesPath = `/api/customers/${customer.id}/merchandise-sales`;
const paymentsPath = `/api/customers/${customer.id}/payments`;

const item = (n: number, changes: Partial<MerchandiseItem>): MerchandiseItem => ({
  id: `a1b2c3d4-0000-4000-8000-00000000000${n}`,
  facilityId,
  name: 'Item',
  price: '1.00',
  taxable: true,
  stock: 5,
  active: true,
  ...changes,
});
const lock = item(1, { name: 'Disc lock', price: '24.99', stock: 5 });
const box = item(2, { name: 'Small box', price: '2.50', stock: 0 });
const retired = item(3, { name: 'Old tape', price: '3.00', stock: 9, active: false });
const catalogue = (items: MerchandiseItem[]) => answer('get', `/api/facilities/${facilityId}/merchandise`, z.array(MerchandiseItem), items);

const moveInQuote: MoveInQuote = {
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
      lines: [{ kind: 'prorated_rent', description: 'Prorated rent', amount: '226.80', periodStart: null, periodEnd: null }],
      total: '226.80',
    },
  ],
  totalDueToday: '226.80',
  nextInvoice: null,
  protection: null,
  promotion: null,
  offers: { plans: [], promotions: [] },
};
const twoLocks: MerchandiseQuote = {
  lines: [
    { kind: 'merchandise', description: 'Disc lock × 2', amount: '49.98', periodStart: null, periodEnd: null },
    { kind: 'tax', description: 'Sales tax 8.875% on Disc lock × 2', amount: '4.44', periodStart: null, periodEnd: null },
  ],
  total: '54.42',
};
const oneLock: MerchandiseQuote = {
  lines: [
    { kind: 'merchandise', description: 'Disc lock', amount: '24.99', periodStart: null, periodEnd: null },
    { kind: 'tax', description: 'Sales tax 8.875% on Disc lock', amount: '2.22', periodStart: null, periodEnd: null },
  ],
  total: '27.21',
};
const sale: MerchandiseSale = {
  saleId: 'b1b2c3d4-0000-4000-8000-000000000001',
  customerId: customer.id,
  invoiceId: 'c1b2c3d4-0000-4000-8000-000000000001',
  invoiceNumber: 'MER-202602-ABCDEF012345',
  total: '54.42',
};
const receiptOf = (...applied: [string, string][]): DeskReceipt => ({
  receiptId: '6f7a8b9c-0d1e-4f2a-8b3c-4d5e6f7a8b9c',
  applied: applied.map(([invoiceNumber, amount], n) => ({ invoiceId: `7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0${n}`, invoiceNumber, amount })),
  credited: '0.00',
});

const TypedCustomerPicker: MoveInCustomerPicker = ({ id, value, onChange }) => (
  <input id={id} value={value ?? ''} onChange={(e) => onChange?.(e.target.value)} />
);

/** As the Lease Agreements screen plugs the merchandise feature in. */
const merchandise: MoveInMerchandise = { Section: MoveInMerchandiseSection, sell: sellMerchandise };

async function openMoveIn(api: Answer[], items = [lock, box, retired]) {
  const onMovedIn = vi.fn();
  const rendered = renderConsole(
    <MoveInButton customerPicker={TypedCustomerPicker} takePayment={takeDeskPaymentOnce} merchandise={merchandise} onMovedIn={onMovedIn} />,
    {
      role: 'clerk',
      path: '/leases',
      api: [answerPage('/api/units', Unit, [unit]), answer('get', quotePath, MoveInQuote, moveInQuote), catalogue(items), ...api],
    },
  );
  const { user } = rendered;
  await user.click(await screen.findByRole('button', { name: /Move In/ }));
  const dialog = await screen.findByRole('dialog');
  fireEvent.change(within(dialog).getByLabelText('Start Date'), { target: { value: '2026-02-10' } });
  await fill(user, within(dialog).getByLabelText('Customer'), customer.id);
  await user.click(within(dialog).getByRole('combobox', { name: 'Unit' }));
  await user.click(await screen.findByTitle('A-101 · 10x10 · Building A · $120.00/month'));
  await waitFor(() => expect(within(dialog).getByTestId('move-in-quote-total').textContent).toBe('$226.80'));
  return { ...rendered, dialog, onMovedIn };
}

/** Two disc locks added in the Merchandise section (`itemsQuote` answering their quote), and Due today with them on screen. */
async function addTwoLocks({ user, dialog }: Awaited<ReturnType<typeof openMoveIn>>, itemsQuote: Answer) {
  const section = within(await within(dialog).findByRole('region', { name: 'Merchandise' }));
  await user.click(section.getByRole('button', { name: /Add Item/ }));
  await user.click(section.getByLabelText('Item 1'));
  await user.click(await screen.findByTitle('Disc lock · $24.99 · 5 left'));
  await fill(user, section.getByLabelText('Quantity 1'), '2');
  await waitFor(() => expect(itemsQuote.sent.at(-1)?.search.get('lines')).toBe(`${lock.id}:2`));
  await waitFor(() => expect(within(dialog).getByTestId('move-in-quote-total').textContent).toBe('$281.22'));
  await waitFor(() => expect(amountField(dialog).value).toBe('281.22'));
}

const amountField = (dialog: HTMLElement) => within(dialog).getByLabelText('Amount') as HTMLInputElement;

describe('merchandise in the Move In dialog', () => {
  it("offers the unit's facility's items, shows their lines and tax as a Merchandise block of the quote, and counts them in Due today", async () => {
    const opened = await openMoveIn([answer('get', itemsQuotePath, MerchandiseQuote, oneLock)]);
    const { user, dialog } = opened;
    // Before any item, Due today is the move-in's and the payment starts there.
    await waitFor(() => expect(amountField(dialog).value).toBe('226.80'));
    expect(within(dialog).queryByTestId('move-in-quote-merchandise')).toBeNull();

    const section = within(await within(dialog).findByRole('region', { name: 'Merchandise' }));
    await user.click(section.getByRole('button', { name: /Add Item/ }));
    await user.click(section.getByLabelText('Item 1'));
    // Stock is shown; an item out of stock cannot be chosen; a retired one is not offered.
    const outOfStock = await screen.findByTitle('Small box · $2.50 · none left');
    expect(outOfStock.closest('.ant-select-item-option')!.className).toContain('ant-select-item-option-disabled');
    expect(screen.getByTitle('Disc lock · $24.99 · 5 left').closest('.ant-select-item-option')!.className).not.toContain('ant-select-item-option-disabled');
    expect(screen.queryByTitle(/Old tape/)).toBeNull();
    await user.click(screen.getByTitle('Disc lock · $24.99 · 5 left'));
    await waitFor(() => expect(within(dialog).getByTestId('move-in-quote-total').textContent).toBe('$254.01'));
    await waitFor(() => expect(amountField(dialog).value).toBe('254.01'));

    const itemsQuote = answer('get', itemsQuotePath, MerchandiseQuote, twoLocks);
    declareAnswers(itemsQuote);
    await fill(user, section.getByLabelText('Quantity 1'), '2');
    await waitFor(() => expect(within(dialog).getByTestId('move-in-quote-total').textContent).toBe('$281.22'));
    expect(itemsQuote.sent.at(-1)!.search.get('lines')).toBe(`${lock.id}:2`);
    const block = within(within(dialog).getByTestId('move-in-quote-merchandise'));
    block.getByText('Merchandise');
    block.getByText('Disc lock × 2');
    block.getByText('$49.98');
    block.getByText('Sales tax 8.875% on Disc lock × 2');
    block.getByText('$4.44');
    // The payment's starting amount follows Due today.
    await waitFor(() => expect(amountField(dialog).value).toBe('281.22'));

    // Taken off again: Due today is the move-in's alone.
    await user.click(section.getByRole('button', { name: 'Remove item' }));
    await waitFor(() => expect(within(dialog).getByTestId('move-in-quote-total').textContent).toBe('$226.80'));
    expect(within(dialog).queryByTestId('move-in-quote-merchandise')).toBeNull();
    await waitFor(() => expect(amountField(dialog).value).toBe('226.80'));
  });

  it('shows no Merchandise section when the facility sells nothing', async () => {
    const { dialog } = await openMoveIn([], [retired]);
    await waitFor(() => expect(amountField(dialog).value).toBe('226.80'));
    expect(within(dialog).queryByRole('region', { name: 'Merchandise' })).toBeNull();
    expect(within(dialog).queryByText('Add Item')).toBeNull();
  });

  it('sells the items after the lease, under a key of their own derived from the move-in’s, then takes the payment for both', async () => {
    const made = heldAnswer('post', '/api/leases', Lease, lease);
    const sold = heldAnswer('post', salesPath, MerchandiseSale, sale);
    const paid = answer('post', paymentsPath, DeskReceipt, receiptOf(['INV-0107', '226.80'], [sale.invoiceNumber, '54.42']));
    const itemsQuote = answer('get', itemsQuotePath, MerchandiseQuote, twoLocks);
    const opened = await openMoveIn([itemsQuote, made, sold, paid]);
    const { user, dialog, onMovedIn } = opened;
    await addTwoLocks(opened, itemsQuote);

    await user.click(within(dialog).getByRole('button', { name: 'Move In' }));
    await made.arrived;
    // Nothing is sold before the lease is made.
    expect(sold.sent).toHaveLength(0);
    made.release();
    await sold.arrived;
    // Nothing is paid before the sale is answered.
    expect(paid.sent).toHaveLength(0);
    sold.release();
    await screen.findByText(`Lease created; items sold: invoice ${sale.invoiceNumber}; payment recorded: INV-0107 $226.80, ${sale.invoiceNumber} $54.42`);

    expect(sold.sent).toHaveLength(1);
    expect(sold.sent[0]!.body).toEqual({ facilityId, lines: [{ itemId: lock.id, quantity: 2 }] });
    const leaseKey = made.sent[0]!.headers.get('Idempotency-Key')!;
    const saleKey = sold.sent[0]!.headers.get('Idempotency-Key')!;
    expect(saleKey).not.toBe(leaseKey);
    expect(saleKey.startsWith(leaseKey)).toBe(true);
    expect(paid.sent).toHaveLength(1);
    expect(paid.sent[0]!.body).toEqual({ amount: '281.22', method: 'cash', reference: null });
    expect(onMovedIn).toHaveBeenCalled();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('keeps the lease when the sale is refused after it, says which item and what is left, and the payment covers the move-in only', async () => {
    const made = answer('post', '/api/leases', Lease, lease);
    const refused = refuse('post', salesPath, 409, { message: 'Not enough Disc lock in stock: only 1 left', field: 'lines' });
    const paid = answer('post', paymentsPath, DeskReceipt, receiptOf(['INV-0107', '226.80']));
    const itemsQuote = answer('get', itemsQuotePath, MerchandiseQuote, twoLocks);
    const opened = await openMoveIn([itemsQuote, made, refused, paid]);
    const { user, dialog, onMovedIn } = opened;
    await addTwoLocks(opened, itemsQuote);
    await user.click(within(dialog).getByRole('button', { name: 'Move In' }));

    await within(dialog).findByText('Lease created, but the items were not sold: Not enough Disc lock in stock: only 1 left.');
    within(dialog).getByText('Payment recorded for the move-in: INV-0107 $226.80.');
    expect(made.sent).toHaveLength(1);
    expect(refused.sent).toHaveLength(1);
    expect(onMovedIn).toHaveBeenCalled();
    expect(paid.sent).toHaveLength(1);
    expect(paid.sent[0]!.body).toEqual({ amount: '226.80', method: 'cash', reference: null });
    expect(screen.queryByText(/^Lease created; /)).toBeNull();
    // Nothing in the dialog makes the lease again.
    expect(within(dialog).queryByRole('button', { name: 'Move In' })).toBeNull();
    await user.click(within(dialog).getByText('Close', { selector: 'button > span' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('after a sale with no answer, Move In again gets the same lease and sends the sale under the same key, then pays once', async () => {
    const made = answer('post', '/api/leases', Lease, lease);
    const lost = refuse('post', salesPath, 503, { message: 'The server is not answering' });
    const paid = answer('post', paymentsPath, DeskReceipt, receiptOf(['INV-0107', '226.80'], [sale.invoiceNumber, '54.42']));
    const itemsQuote = answer('get', itemsQuotePath, MerchandiseQuote, twoLocks);
    const opened = await openMoveIn([itemsQuote, made, lost, paid]);
    const { user, dialog } = opened;
    await addTwoLocks(opened, itemsQuote);
    await user.click(within(dialog).getByRole('button', { name: 'Move In' }));
    await screen.findByText('Lease created, but the items got no answer. Press Move In again to finish.');
    expect(paid.sent).toHaveLength(0);

    const sold = answer('post', salesPath, MerchandiseSale, sale);
    declareAnswers(sold);
    await user.click(within(dialog).getByRole('button', { name: 'Move In' }));
    await screen.findByText(`Lease created; items sold: invoice ${sale.invoiceNumber}; payment recorded: INV-0107 $226.80, ${sale.invoiceNumber} $54.42`);
    // The server answers the lease it made and finishes the first sale rather than selling again.
    expect(made.sent).toHaveLength(2);
    expect(made.sent[1]!.headers.get('Idempotency-Key')).toBe(made.sent[0]!.headers.get('Idempotency-Key'));
    expect(sold.sent[0]!.headers.get('Idempotency-Key')).toBe(lost.sent[0]!.headers.get('Idempotency-Key'));
    expect(paid.sent).toHaveLength(1);
  });
});

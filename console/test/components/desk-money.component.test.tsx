import { DeskPaymentPlan, DeskReceipt } from '@storage/contracts/billing';
import { CustomerAccount } from '@storage/contracts/customers';
import { answer, answerEmpty, declareAnswers, refuse } from '@storage/testing/component-api';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { GiveCreditButton, RefundCreditButton, TakePaymentButton } from '../../src/features/customers/components/desk-money-buttons.tsx';
import { fill, type RenderOptions, renderConsole } from './render.tsx';

// The customer page's money dialogs: Take Payment, Give Credit and Refund Credit. Each shows the
// renter's balance and credit at its top and starts from them; Take Payment shows, before it is
// taken, which invoices the amount would pay (as the server plans it) and follows the amount. Their
// amount and reason checks as the screen words them, what they send, the receipt in words, and the
// server's refusal. Which roles see them is in customer-page.component.test.tsx.

const customerId = '0f1e2d3c-4b5a-4697-8887-766554433221';
const [oldest, newer] = ['aa0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d', 'bb0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d'];

const owing: CustomerAccount = { openBalance: '170.00', standing: 'OVERDUE', credit: '12.50', payments: [] };
const accountOf = (account: CustomerAccount) => answer('get', `/api/customers/${customerId}/account`, CustomerAccount, account);
const planPath = `/api/customers/${customerId}/payment-plan`;
const planOf = (plan: DeskPaymentPlan) => answer('get', planPath, DeskPaymentPlan, plan);

/** The whole balance: both invoices in full, nothing left over. */
const payingAll: DeskPaymentPlan = {
  applied: [
    { invoiceId: oldest, invoiceNumber: 'INV-0041', amount: '120.00', openBalance: '120.00', paysInFull: true },
    { invoiceId: newer, invoiceNumber: 'INV-0042', amount: '50.00', openBalance: '50.00', paysInFull: true },
  ],
  credited: '0.00',
};

type Button = 'Take Payment' | 'Give Credit' | 'Refund Credit';

async function open(button: Button, api: RenderOptions['api'] = [], account = owing) {
  const onMoneyMoved = vi.fn();
  const props = { customerId, onMoneyMoved };
  const ui = {
    'Take Payment': <TakePaymentButton {...props} />,
    'Give Credit': <GiveCreditButton {...props} />,
    'Refund Credit': <RefundCreditButton {...props} />,
  }[button];
  const rendered = renderConsole(ui, { path: `/customers/${customerId}`, api: [accountOf(account), ...(api ?? [])] });
  await rendered.user.click(await screen.findByRole('button', { name: button }));
  const dialog = within(await screen.findByRole('dialog'));
  const amount = (await dialog.findByLabelText('Amount')) as HTMLInputElement;
  return { ...rendered, dialog, amount, onMoneyMoved };
}

/** The figures at the dialog's top, label by label. */
async function figures(dialog: ReturnType<typeof within>) {
  const shown = await dialog.findByTestId('desk-account');
  return { balance: within(shown).getByText('Outstanding Balance'), shown };
}

describe('Take Payment', () => {
  it('shows the balance and the credit, starts at the whole balance, and shows which invoices that pays before it is taken', async () => {
    const plan = planOf(payingAll);
    const { dialog, amount } = await open('Take Payment', [plan]);
    const { shown } = await figures(dialog);
    within(shown).getByText('$170.00');
    within(shown).getByText('$12.50');
    expect(amount.value).toBe('170.00');
    expect(document.activeElement).toBe(amount);
    const rows = within(await dialog.findByTestId('payment-plan')).getAllByRole('row');
    expect(rows.slice(1).map((row) => row.textContent)).toEqual(['INV-0041$120.00In full', 'INV-0042$50.00In full']);
    dialog.getByText('Kept as credit: $0.00');
    expect(plan.sent.map((s) => s.search.get('amount'))).toEqual(['170.00']);
  });

  it('follows the amount: part of the oldest for less, every invoice and credit for more', async () => {
    const { user, dialog, amount } = await open('Take Payment', [planOf(payingAll)]);
    await dialog.findByText('INV-0042');

    const part = planOf({
      applied: [{ invoiceId: oldest, invoiceNumber: 'INV-0041', amount: '80.00', openBalance: '120.00', paysInFull: false }],
      credited: '0.00',
    });
    declareAnswers(part);
    await fill(user, amount, '80');
    await dialog.findByText('In part, $40.00 still owed');
    expect(dialog.queryByText('INV-0042')).toBeNull();
    expect(part.sent.map((s) => s.search.get('amount'))).toEqual(['80']);

    const over = planOf({ ...payingAll, credited: '30.00' });
    declareAnswers(over);
    await fill(user, amount, '200.00');
    await dialog.findByText('Kept as credit: $30.00');
    dialog.getByText('INV-0042');
    expect(over.sent.map((s) => s.search.get('amount'))).toEqual(['200.00']);

    await fill(user, amount, '12.345');
    await dialog.findByText('Enter an amount to see which invoices it pays.');
  });

  it('starts empty when nothing is owed, and says what any amount would become', async () => {
    const plan = planOf({ applied: [], credited: '25.00' });
    const { user, dialog, amount } = await open('Take Payment', [plan], { ...owing, openBalance: '0.00', standing: 'CURRENT' });
    expect(amount.value).toBe('');
    dialog.getByText('Enter an amount to see which invoices it pays.');
    await fill(user, amount, '25.00');
    await dialog.findByText('No invoice is open.');
    dialog.getByText('Kept as credit: $25.00');
  });

  it.each([
    ['', 'Amount must be an amount with at most two decimals, e.g. 120.00'],
    ['12.345', 'Amount must be an amount with at most two decimals, e.g. 120.00'],
    ['0', 'Amount must be more than 0.00'],
  ])('refuses the amount %j with its message', async (typed, message) => {
    const { user, dialog, amount } = await open('Take Payment', [planOf(payingAll)]);
    await user.clear(amount);
    if (typed) await fill(user, amount, typed);
    await user.click(dialog.getByRole('button', { name: 'Record Payment' }));
    await dialog.findByText(message);
  });

  it('asks for the check number when paid by check, sends the payment once and says what it paid', async () => {
    const paid = answer('post', `/api/customers/${customerId}/payments`, DeskReceipt, {
      receiptId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
      applied: [{ invoiceId: oldest, invoiceNumber: 'INV-0042', amount: '120.00' }],
      credited: '5.50',
    });
    const plan = planOf({ ...payingAll, applied: [payingAll.applied[0]!], credited: '5.50' });
    const { user, dialog, amount, onMoneyMoved } = await open('Take Payment', [paid, plan]);
    await fill(user, amount, '125.50');
    await dialog.findByText('Kept as credit: $5.50');
    await user.click(dialog.getByLabelText('Method'));
    await user.click(await screen.findByTitle('Check'));
    await fill(user, await dialog.findByLabelText('Check Number'), '1042');
    await user.click(dialog.getByRole('button', { name: 'Record Payment' }));
    await screen.findByText('Payment recorded: INV-0042 $120.00; $5.50 kept as credit');
    expect(paid.sent).toHaveLength(1);
    expect(paid.sent[0]!.body).toEqual({ amount: '125.50', method: 'check', reference: '1042' });
    expect(onMoneyMoved).toHaveBeenCalled();
  });

  it("shows the server's refusal in the Error toast", async () => {
    const refused = refuse('post', `/api/customers/${customerId}/payments`, 409, { message: 'This customer is archived' });
    const plan = planOf({ applied: [{ ...payingAll.applied[0]!, amount: '20.00', paysInFull: false }], credited: '0.00' });
    const { user, dialog, amount } = await open('Take Payment', [refused, plan]);
    await fill(user, amount, '20');
    await dialog.findByText('In part, $100.00 still owed');
    await user.click(dialog.getByRole('button', { name: 'Record Payment' }));
    await screen.findByText('Failed to record the payment');
    screen.getByText('This customer is archived');
  });

  it('says when the balance cannot be loaded, makes up no figure, and still takes a payment', async () => {
    const failed = refuse('get', `/api/customers/${customerId}/account`, 503, { message: 'The database is not answering' });
    const onMoneyMoved = vi.fn();
    const { user } = renderConsole(<TakePaymentButton customerId={customerId} onMoneyMoved={onMoneyMoved} />, { api: [failed, planOf(payingAll)] });
    await user.click(await screen.findByRole('button', { name: 'Take Payment' }));
    const dialog = within(await screen.findByRole('dialog'));
    await dialog.findByText('Could not load the balance');
    expect(dialog.queryByTestId('desk-account')).toBeNull();
    expect(((await dialog.findByLabelText('Amount')) as HTMLInputElement).value).toBe('');
  });
});

describe('Give Credit', () => {
  it('shows the balance and the credit, and waits in an empty amount', async () => {
    const { dialog, amount } = await open('Give Credit');
    const { shown } = await figures(dialog);
    within(shown).getByText('$170.00');
    within(shown).getByText('$12.50');
    expect(amount.value).toBe('');
    expect(document.activeElement).toBe(amount);
  });

  it('asks for an amount and a reason', async () => {
    const { user, dialog } = await open('Give Credit');
    await user.click(dialog.getByRole('button', { name: 'Give Credit' }));
    await dialog.findByText('Amount must be an amount with at most two decimals, e.g. 120.00');
    dialog.getByText('Reason is required');
  });

  it('sends the credit with its reason and says so', async () => {
    const given = answerEmpty('post', `/api/customers/${customerId}/credits`);
    const { user, dialog, amount } = await open('Give Credit', [given]);
    await fill(user, amount, '15.00');
    await fill(user, dialog.getByLabelText('Reason'), 'Door sticks: goodwill');
    await user.click(dialog.getByRole('button', { name: 'Give Credit' }));
    await screen.findByText('Credit given');
    expect(given.sent[0]!.body).toEqual({ amount: '15.00', reason: 'Door sticks: goodwill' });
  });
});

describe('Refund Credit', () => {
  it('shows the balance and the credit, starts at the whole credit, and refuses more than it', async () => {
    const refunded = answerEmpty('post', `/api/customers/${customerId}/credit-refunds`);
    const { user, dialog, amount } = await open('Refund Credit', [refunded]);
    const { shown } = await figures(dialog);
    within(shown).getByText('$170.00');
    within(shown).getByText('$12.50');
    expect(amount.value).toBe('12.50');
    await fill(user, amount, '12.51');
    await fill(user, dialog.getByLabelText('Reason'), 'Moving away');
    await user.click(dialog.getByRole('button', { name: 'Refund Credit' }));
    await dialog.findByText('Amount must be at most $12.50, the credit on the account');
    expect(refunded.sent).toHaveLength(0);
  });

  it('refunds the credit it starts at, with its reason', async () => {
    const refunded = answerEmpty('post', `/api/customers/${customerId}/credit-refunds`);
    const { user, dialog } = await open('Refund Credit', [refunded]);
    await fill(user, dialog.getByLabelText('Reason'), 'Moving away');
    await user.click(dialog.getByRole('button', { name: 'Refund Credit' }));
    await screen.findByText('Credit of $12.50 refunded');
    expect(refunded.sent[0]!.body).toEqual({ amount: '12.50', method: 'check', reference: null, reason: 'Moving away' });
  });

  it('starts empty and refunds nothing when the account holds no credit', async () => {
    const { user, dialog, amount } = await open('Refund Credit', [], { ...owing, credit: '0.00' });
    expect(amount.value).toBe('');
    await fill(user, amount, '5.00');
    await user.click(dialog.getByRole('button', { name: 'Refund Credit' }));
    await dialog.findByText('Amount must be at most $0.00, the credit on the account');
  });
});

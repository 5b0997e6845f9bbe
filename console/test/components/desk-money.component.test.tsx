import { DeskReceipt } from '@storage/contracts/billing';
import { answer, answerEmpty, refuse } from '@storage/testing/component-api';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { GiveCreditButton, TakePaymentButton } from '../../src/features/customers/components/desk-money-buttons.tsx';
import { fill, type RenderOptions, renderConsole } from './render.tsx';

// The customer page's money dialogs: Take Payment and Give Credit. Their amount and reason checks
// as the screen words them, what they send, the receipt in words, and the server's refusal. Which
// roles see them is in customer-page.component.test.tsx.

const customerId = '0f1e2d3c-4b5a-4697-8887-766554433221';

async function open(button: 'Take Payment' | 'Give Credit', api: RenderOptions['api'] = []) {
  const onMoneyMoved = vi.fn();
  const ui =
    button === 'Take Payment' ? (
      <TakePaymentButton customerId={customerId} onMoneyMoved={onMoneyMoved} />
    ) : (
      <GiveCreditButton customerId={customerId} onMoneyMoved={onMoneyMoved} />
    );
  const rendered = renderConsole(ui, { path: `/customers/${customerId}`, api });
  await rendered.user.click(await screen.findByRole('button', { name: button }));
  const dialog = within(await screen.findByRole('dialog'));
  return { ...rendered, dialog, onMoneyMoved };
}

describe('Take Payment', () => {
  it.each([
    ['', 'Amount must be an amount with at most two decimals, e.g. 120.00'],
    ['12.345', 'Amount must be an amount with at most two decimals, e.g. 120.00'],
    ['0', 'Amount must be more than 0.00'],
  ])('refuses the amount %j with its message', async (amount, message) => {
    const { user, dialog } = await open('Take Payment');
    if (amount) await fill(user, dialog.getByLabelText('Amount'), amount);
    await user.click(dialog.getByRole('button', { name: 'Record Payment' }));
    await dialog.findByText(message);
  });

  it('asks for the check number when paid by check, sends the payment once and says what it paid', async () => {
    const paid = answer('post', `/api/customers/${customerId}/payments`, DeskReceipt, {
      receiptId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
      applied: [{ invoiceId: 'aa0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d', invoiceNumber: 'INV-0042', amount: '120.00' }],
      credited: '5.50',
    });
    const { user, dialog, onMoneyMoved } = await open('Take Payment', [paid]);
    await fill(user, dialog.getByLabelText('Amount'), '125.50');
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
    const { user, dialog } = await open('Take Payment', [refused]);
    await fill(user, dialog.getByLabelText('Amount'), '20');
    await user.click(dialog.getByRole('button', { name: 'Record Payment' }));
    await screen.findByText('Failed to record the payment');
    screen.getByText('This customer is archived');
  });
});

describe('Give Credit', () => {
  it('asks for an amount and a reason', async () => {
    const { user, dialog } = await open('Give Credit');
    await user.click(dialog.getByRole('button', { name: 'Give Credit' }));
    await dialog.findByText('Amount must be an amount with at most two decimals, e.g. 120.00');
    dialog.getByText('Reason is required');
  });

  it('sends the credit with its reason and says so', async () => {
    const given = answerEmpty('post', `/api/customers/${customerId}/credits`);
    const { user, dialog } = await open('Give Credit', [given]);
    await fill(user, dialog.getByLabelText('Amount'), '15.00');
    await fill(user, dialog.getByLabelText('Reason'), 'Door sticks: goodwill');
    await user.click(dialog.getByRole('button', { name: 'Give Credit' }));
    await screen.findByText('Credit given');
    expect(given.sent[0]!.body).toEqual({ amount: '15.00', reason: 'Door sticks: goodwill' });
  });
});

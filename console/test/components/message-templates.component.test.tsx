import { Customer } from '@storage/contracts/customers';
import { MessagePreview, MessageTemplate } from '@storage/contracts/messages';
import { answer, answerPage, declareAnswers, refuse } from '@storage/testing/component-api';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CustomerPicker } from '../../src/features/customers/components/customer-picker.tsx';
import { MessageTemplatesCard } from '../../src/features/messages/components/message-templates-card.tsx';
import { graceHopper } from './customer-fixtures.ts';
import { fill, renderConsole } from './render.tsx';
import { reservationConfirmedTemplate } from './settings-fixtures.ts';

// Settings → Messages to renters, for the owner: choosing a message, the server's refusal of an
// unknown placeholder, the wording saved and marked as the owner's own, and a preview of a wording
// not saved yet with a renter's real data (what the server fills in is the API tests' concern).

const grace = graceHopper();
const confirmed = reservationConfirmedTemplate;
const invoiceIssued: MessageTemplate = {
  key: 'invoice_issued',
  label: 'Invoice issued',
  subject: 'Invoice {invoiceNumber}: {amount} due {dueDate}',
  body: 'Your invoice {invoiceNumber} for {amount} is due on {dueDate}.',
  isDefault: true,
  optional: true,
  defaultSubject: 'Invoice {invoiceNumber}: {amount} due {dueDate}',
  defaultBody: 'Your invoice {invoiceNumber} for {amount} is due on {dueDate}.',
};
const lateNotice: MessageTemplate = { ...invoiceIssued, key: 'late_notice', label: 'Late notice', optional: false };
const templates = [confirmed, invoiceIssued, lateNotice];
const reworded: MessageTemplate = { ...invoiceIssued, subject: 'Bill {invoiceNumber} for {firstName}', isDefault: false };

const saveAt = '/api/message-templates/invoice_issued';

async function openInvoiceIssued() {
  const rendered = renderConsole(<MessageTemplatesCard canEdit canPreview customerPicker={CustomerPicker} />, {
    api: [answer('get', '/api/message-templates', MessageTemplate.array(), templates), answerPage('/api/customers', Customer, [grace])],
  });
  const { user } = rendered;
  const card = within(await screen.findByTestId('message-templates-card'));
  await user.click(await card.findByRole('combobox', { name: 'Message' }));
  await user.click(await screen.findByTitle('Invoice issued'));
  await card.findByDisplayValue(invoiceIssued.subject);
  return { ...rendered, card };
}

describe('Messages to renters', () => {
  it('says whether the chosen message may be turned off by renters or is a legal notice', async () => {
    const { user, card } = await openInvoiceIssued();
    card.getByText('Renters may turn it off');
    expect(card.queryByText('Your wording')).toBeNull();
    await user.click(card.getByRole('combobox', { name: 'Message' }));
    await user.click(await screen.findByTitle('Late notice'));
    await card.findByText('Legal notice: always sent');
  });

  it("shows the server's refusal of an unknown placeholder, then saves the wording and marks it as the owner's", async () => {
    const { user, card } = await openInvoiceIssued();
    const refused = refuse('put', saveAt, 400, { message: 'subject: unknown placeholder {unknownThing}', field: 'subject' });
    declareAnswers(refused);
    await fill(user, card.getByLabelText('Subject'), 'Bill {invoiceNumber} for {firstName}: {unknownThing}');
    await user.click(card.getByRole('button', { name: 'Save Message' }));
    await screen.findByText('subject: unknown placeholder {unknownThing}');
    expect(refused.sent[0]!.body).toEqual({ subject: 'Bill {invoiceNumber} for {firstName}: {unknownThing}', body: invoiceIssued.body });

    const saved = answer('put', saveAt, MessageTemplate, reworded);
    // The list asked again once saved: the owner's wording.
    declareAnswers(saved, answer('get', '/api/message-templates', MessageTemplate.array(), [confirmed, reworded, lateNotice]));
    await fill(user, card.getByLabelText('Subject'), 'Bill {invoiceNumber} for {firstName}');
    await user.click(card.getByRole('button', { name: 'Save Message' }));
    await screen.findByText('Message saved successfully');
    expect(saved.sent[0]!.body).toEqual({ subject: 'Bill {invoiceNumber} for {firstName}', body: invoiceIssued.body });
    await card.findByText('Your wording');
    expect((card.getByLabelText('Subject') as HTMLInputElement).value).toBe('Bill {invoiceNumber} for {firstName}');
    expect(card.getByRole('button', { name: 'Reset to Default' }).hasAttribute('disabled')).toBe(false);
  });

  it('previews the wording on screen, not yet saved, with the renter chosen', async () => {
    const { user, card } = await openInvoiceIssued();
    const preview = answer('post', `${saveAt}/preview`, MessagePreview, {
      to: grace.email,
      subject: 'Bill INV-1001 for Grace',
      body: 'Your invoice INV-1001 for $42.10 is due on Dec 1, 2026.',
    });
    declareAnswers(preview);
    expect(card.getByRole('button', { name: 'Preview' }).hasAttribute('disabled')).toBe(true);
    await fill(user, card.getByLabelText('Subject'), 'Bill {invoiceNumber} for {firstName}');
    await user.type(card.getByLabelText('Preview for'), 'Grace');
    await user.click(await screen.findByTitle(`Grace Hopper · ${grace.email}`));
    await user.click(card.getByRole('button', { name: 'Preview' }));
    const shown = within(await card.findByTestId('message-preview'));
    shown.getByText(`To: ${grace.email}`);
    shown.getByText('Bill INV-1001 for Grace');
    shown.getByText('Your invoice INV-1001 for $42.10 is due on Dec 1, 2026.');
    await waitFor(() => expect(preview.sent).toHaveLength(1));
    expect(preview.sent[0]!.body).toEqual({ customerId: grace.id, subject: 'Bill {invoiceNumber} for {firstName}', body: invoiceIssued.body });
  });
});

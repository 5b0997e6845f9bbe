import { MessagePreferences, messageTemplateLabels } from '@storage/contracts/messages';
import { answer } from '@storage/testing/component-api';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MessagePreferencesCard } from '../../src/features/messages/components/message-preferences-card.tsx';
import { renderConsole } from './render.tsx';

// A renter's choice of messages on the customer page: a switch for staff who may change it, the
// choice in words for one who may not.

const customerId = '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b';
const preferences: MessagePreferences = { optOuts: ['payment_receipt'], optional: ['payment_receipt', 'invoice_issued'], alwaysSent: ['late_notice'] };
const api = () => [answer('get', '/api/customers/:customerId/message-preferences', MessagePreferences, preferences)];

describe('messages to the renter', () => {
  it('gives a clerk a switch per optional message, off where the renter opted out', async () => {
    renderConsole(<MessagePreferencesCard customerId={customerId} canChange />, { role: 'clerk', api: api() });
    const receipts = await screen.findByRole('switch', { name: messageTemplateLabels.payment_receipt });
    expect(receipts.getAttribute('aria-checked')).toBe('false');
    expect(screen.getByRole('switch', { name: messageTemplateLabels.invoice_issued }).getAttribute('aria-checked')).toBe('true');
  });

  it('tells an auditor each choice in words, with no switch to move', async () => {
    renderConsole(<MessagePreferencesCard customerId={customerId} canChange={false} />, { role: 'auditor', api: api() });
    await screen.findByText('Turned off');
    expect(screen.getByText('Sent')).toBeTruthy();
    expect(screen.queryByRole('switch')).toBeNull();
  });
});

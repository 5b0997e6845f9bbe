import { describe, expect, it } from 'vitest';
import { describeMessageEvent } from './message-words.ts';

describe('message events in words', () => {
  it('tells a reworded template and a reset one', () => {
    expect(describeMessageEvent('message_template_updated', { templateKey: 'late_notice', template: { subject: 's', body: 'b' } })).toBe(
      'Late notice message reworded',
    );
    expect(describeMessageEvent('message_template_updated', { templateKey: 'late_notice', template: null })).toBe(
      'Late notice message back to the default wording',
    );
  });

  it("tells the renter's choice of emails", () => {
    expect(describeMessageEvent('customer_message_preferences_updated', { customerId: 'x', optOuts: ['invoice_issued', 'payment_receipt'] })).toBe(
      'Emails turned off: Invoice issued, Payment receipt',
    );
    expect(describeMessageEvent('customer_message_preferences_updated', { customerId: 'x', optOuts: [] })).toBe('Emails: every message is sent');
    expect(describeMessageEvent('customer_added', {})).toBeNull();
  });
});

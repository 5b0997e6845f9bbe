import { describe, expect, it } from 'vitest';
import { cardMessages, cardRefusal } from './test-provider.ts';

const today = new Date('2026-11-22T12:00:00Z');
const card = { cardNumber: '4242424242424242', expiry: '11/26', cvc: '123' };

describe('the test provider reads a card', () => {
  it('pays with 4242… however it is spaced, until the end of its expiry month', () => {
    expect(cardRefusal(card, today)).toBeNull();
    expect(cardRefusal({ ...card, cardNumber: '4242 4242-4242 4242', expiry: '1 / 2030', cvc: '1234' }, today)).toBeNull();
  });

  it("answers Stripe's messages for the declined card and for invalid numbers, expiries and codes", () => {
    expect(cardRefusal({ ...card, cardNumber: '4000 0000 0000 0002' }, today)).toBe(cardMessages.declined);
    expect(cardRefusal({ ...card, cardNumber: '4242' }, today)).toBe(cardMessages.invalidNumber);
    expect(cardRefusal({ ...card, expiry: '00/30' }, today)).toBe(cardMessages.invalidExpiry);
    expect(cardRefusal({ ...card, expiry: '1230' }, today)).toBe(cardMessages.invalidExpiry);
    expect(cardRefusal({ ...card, expiry: '10/26' }, today)).toBe(cardMessages.expired);
    expect(cardRefusal({ ...card, cvc: '12a' }, today)).toBe(cardMessages.invalidCvc);
    // An invalid card is refused as invalid before it could be declined.
    expect(cardRefusal({ cardNumber: '4000000000000002', expiry: '10/26', cvc: '1' }, today)).toBe(cardMessages.expired);
  });
});

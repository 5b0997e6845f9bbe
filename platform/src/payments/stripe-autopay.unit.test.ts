import Stripe from 'stripe';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createStripeProvider } from './stripe-provider.ts';

// Stripe cannot be reached from these machines: the autopay calls of the Stripe adapter are
// checked offline, their request shapes seen and Stripe's documented answers fed, by replacing
// the SDK's methods here only. Nothing here shows that Stripe's servers accept them.

const offline = new Stripe('sk_test_offline');
const proto = <T>(resource: object) => Object.getPrototypeOf(resource) as T;
type Method = (...args: unknown[]) => unknown;
const paymentIntents = proto<{ create: Method; search: Method }>(offline.paymentIntents);
const setupIntents = proto<{ retrieve: Method }>(offline.setupIntents);

const cardError = (code: string, message: string) =>
  new Stripe.errors.StripeCardError({ type: 'card_error', code, message, payment_intent: { id: 'pi_declined' } as Stripe.PaymentIntent });

describe('the Stripe adapter saves cards and charges them off-session (offline)', () => {
  const provider = createStripeProvider({ secretKey: 'sk_test_offline', publishableKey: 'pk_test_offline', webhookSecret: undefined });
  const charge = {
    amount: '120.50',
    invoiceId: 'inv-1',
    customerId: 'cust-1',
    providerCustomerId: 'cus_1',
    providerPaymentMethodId: 'pm_1',
    idempotencyKey: 'autopay-inv-1-2',
  };
  afterAll(() => vi.restoreAllMocks());

  it('charges with off_session and confirm under the idempotency key, our key in the metadata', async () => {
    const create = vi.spyOn(paymentIntents, 'create').mockResolvedValueOnce({ id: 'pi_ok', status: 'succeeded' });
    expect(await provider.chargeSavedCard(charge)).toEqual({ status: 'succeeded', intentId: 'pi_ok' });
    expect(create).toHaveBeenCalledWith(
      {
        amount: 12050,
        currency: 'usd',
        customer: 'cus_1',
        payment_method: 'pm_1',
        off_session: true,
        confirm: true,
        metadata: { invoiceId: 'inv-1', customerId: 'cust-1', autopayKey: 'autopay-inv-1-2' },
      },
      { idempotencyKey: 'autopay-inv-1-2' },
    );
  });

  it("reads a decline and a card that needs its owner from Stripe's card errors", async () => {
    vi.spyOn(paymentIntents, 'create').mockRejectedValueOnce(cardError('card_declined', 'Your card was declined.'));
    expect(await provider.chargeSavedCard(charge)).toEqual({ status: 'failed', intentId: 'pi_declined', reason: 'Your card was declined.' });
    vi.spyOn(paymentIntents, 'create').mockRejectedValueOnce(cardError('authentication_required', 'This payment requires authentication.'));
    expect(await provider.chargeSavedCard(charge)).toMatchObject({ status: 'requires_action', intentId: 'pi_declined' });
  });

  it('finds a charge again by the key in its metadata', async () => {
    const search = vi.spyOn(paymentIntents, 'search').mockResolvedValueOnce({ data: [{ id: 'pi_ok', status: 'succeeded' }] });
    expect(await provider.findSavedCardCharge('autopay-inv-1-2')).toEqual({ status: 'succeeded', intentId: 'pi_ok' });
    expect(search).toHaveBeenCalledWith({ query: "metadata['autopayKey']:'autopay-inv-1-2'", limit: 1 });
    vi.spyOn(paymentIntents, 'search').mockResolvedValueOnce({ data: [] });
    expect(await provider.findSavedCardCharge('autopay-inv-1-3')).toBeNull();
  });

  it("saves the card of a confirmed SetupIntent of this renter only, never the browser's word", async () => {
    const renter = { customerId: 'cust-1', email: 'r@example.com' };
    const setup = {
      id: 'seti_1',
      status: 'succeeded',
      customer: 'cus_1',
      metadata: { customerId: 'cust-1' },
      payment_method: { id: 'pm_1', card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 } },
    };
    const retrieve = vi.spyOn(setupIntents, 'retrieve').mockResolvedValueOnce(setup);
    expect(await provider.saveCard(renter, { setupIntentId: 'seti_1' }, new Date())).toEqual({
      providerCustomerId: 'cus_1',
      providerPaymentMethodId: 'pm_1',
      brand: 'visa',
      last4: '4242',
      expMonth: 12,
      expYear: 2030,
    });
    expect(retrieve).toHaveBeenCalledWith('seti_1', { expand: ['payment_method'] });
    vi.spyOn(setupIntents, 'retrieve').mockResolvedValueOnce({ ...setup, metadata: { customerId: 'someone-else' } });
    await expect(provider.saveCard(renter, { setupIntentId: 'seti_1' }, new Date())).rejects.toThrow(/another customer/);
    vi.spyOn(setupIntents, 'retrieve').mockResolvedValueOnce({ ...setup, status: 'requires_payment_method' });
    await expect(provider.saveCard(renter, { setupIntentId: 'seti_1' }, new Date())).rejects.toThrow(/not saved/);
  });
});

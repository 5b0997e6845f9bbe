import { randomUUID } from 'node:crypto';
import { PaymentProfile } from '@storage/contracts/autopay';
import { streams } from '@storage/contracts/events';
import { runBillingDay } from '@storage/domain/billing/run';
import { generateInvoice, sendInvoice } from '@storage/domain/invoices/commands';
import { createTestProvider } from '@storage/platform/payments/test-provider';
import { sessionCookie, startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The renter's saved cards and autopay through the API: portal session only, each call for the
// session's own customer (another renter's card is not found), bad input a 400 naming the field
// with nothing written, the card number nowhere in the history; staff see who is enrolled.

const CARD = { cardNumber: '4242 4242 4242 4242', expiry: '12/30', cvc: '123' };

describe('saved cards and autopay', () => {
  let platform: TestPlatform;
  let staff: string;
  const renters: { id: string; cookie: string }[] = [];

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, cookie?: string, payload?: object) =>
    platform.api.app.inject({ method, url, headers: cookie ? { cookie } : {}, ...(payload ? { payload } : {}) });

  async function newRenter() {
    const tag = randomUUID().slice(0, 8);
    const phone = `555-01${String(renters.length).padStart(2, '0')}`;
    const email = `card-${tag}@example.com`;
    const made = await call('POST', '/api/customers', staff, { firstName: 'Cara', lastName: `Card${tag}`, email, phone });
    expect(made.statusCode, made.body).toBe(201);
    const verified = await platform.api.app.inject({
      method: 'POST',
      url: '/api/customer/verify',
      payload: { email, phoneLast4: phone.slice(-4) },
      remoteAddress: `10.9.0.${renters.length + 1}`,
    });
    expect(verified.statusCode, verified.body).toBe(200);
    const renter = { id: made.json().id as string, cookie: sessionCookie(verified.headers['set-cookie']) };
    renters.push(renter);
    return renter;
  }

  const profileEvents = async (customerId: string) => platform.api.store.readStream(streams.paymentProfile(customerId));

  beforeAll(async () => {
    platform = await startTestPlatform({ billing: false });
    staff = await platform.signIn('owner');
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('answers only a portal session: 401 signed out and for staff', async () => {
    const routes = [
      ['GET', '/api/customer/payment-methods'],
      ['POST', '/api/customer/payment-methods'],
      ['POST', '/api/customer/payment-methods/setup'],
      ['DELETE', `/api/customer/payment-methods/${randomUUID()}`],
      ['PUT', '/api/customer/autopay'],
    ] as const;
    for (const [method, url] of routes) {
      expect((await call(method, url, undefined, method === 'GET' || method === 'DELETE' ? undefined : {})).statusCode, `${method} ${url}`).toBe(401);
      expect((await call(method, url, staff, method === 'GET' || method === 'DELETE' ? undefined : {})).statusCode, `${method} ${url} (staff)`).toBe(401);
    }
  });

  it('refuses bad input with a 400 naming the field, and writes nothing', async () => {
    const { id, cookie } = await newRenter();
    const cases: [object, string][] = [
      [{ expiry: '12/30', cvc: '123' }, 'cardNumber'],
      [{ ...CARD, cardNumber: '4111 1111 1111 1111' }, 'cardNumber'],
      [{ ...CARD, expiry: '01/20' }, 'expiry'],
      [{ ...CARD, expiry: '13/30' }, 'expiry'],
      [{ ...CARD, cvc: '1' }, 'cvc'],
      [{ ...CARD, cardNumber: 4242424242424242 }, 'cardNumber'],
      [{ ...CARD, autopay: 'yes' }, 'autopay'],
      [{ ...CARD, setupIntentId: 'nope' }, 'setupIntentId'],
    ];
    for (const [payload, field] of cases) {
      const response = await call('POST', '/api/customer/payment-methods', cookie, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().field, JSON.stringify(payload)).toBe(field);
    }
    expect((await call('POST', '/api/customer/payment-methods', cookie, { ...CARD, pan: '1' })).statusCode).toBe(400);
    const autopay = await call('PUT', '/api/customer/autopay', cookie, { enabled: 'yes' });
    expect(autopay.statusCode).toBe(400);
    expect(autopay.json().field).toBe('enabled');
    // Autopay needs a card.
    const noCard = await call('PUT', '/api/customer/autopay', cookie, { enabled: true });
    expect(noCard.statusCode).toBe(400);
    expect(noCard.json().field).toBe('paymentMethodId');
    expect(await profileEvents(id)).toEqual([]);
  });

  it('saves a card (never its number) with autopay on; staff see the renter enrolled', async () => {
    const { id, cookie } = await newRenter();
    const other = await newRenter();
    const saved = await call('POST', '/api/customer/payment-methods', cookie, { ...CARD, autopay: true });
    expect(saved.statusCode, saved.body).toBe(201);
    const profile = PaymentProfile.parse(saved.json());
    expect(profile).toMatchObject({ autopay: true, provider: 'test', charges: [] });
    expect(profile.cards).toEqual([{ id: expect.any(String), brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030, autopay: true }]);
    expect((await call('GET', '/api/customer/payment-methods', cookie)).json()).toEqual(profile);

    const history = JSON.stringify((await profileEvents(id)).map((e) => e.data));
    expect(history).not.toContain('4242424242424242');
    expect(history).not.toContain('4242 4242');
    expect((await profileEvents(id)).map((e) => e.type)).toEqual(['payment_method_saved', 'autopay_enrolled']);

    const staffView = await call('GET', `/api/customers/${id}/payment-profile`, staff);
    expect(staffView.statusCode).toBe(200);
    expect(staffView.json()).toMatchObject({ autopay: true, cards: [{ last4: '4242', autopay: true }] });
    expect((await call('GET', `/api/customers/${randomUUID()}/payment-profile`, staff)).statusCode).toBe(404);

    const listed = async (autopay: 'on' | 'off') =>
      ((await call('GET', `/api/customers?autopay=${autopay}&pageSize=100`, staff)).json() as { id: string }[]).map((c) => c.id);
    expect(await listed('on')).toContain(id);
    expect(await listed('on')).not.toContain(other.id);
    expect(await listed('off')).toContain(other.id);
    expect(await listed('off')).not.toContain(id);
    expect((await call('GET', '/api/customers?autopay=maybe', staff)).json().field).toBe('autopay');
  });

  it("answers 404 for another renter's card, and changes nothing of theirs", async () => {
    const owner = await newRenter();
    const stranger = await newRenter();
    const saved = PaymentProfile.parse((await call('POST', '/api/customer/payment-methods', owner.cookie, { ...CARD, autopay: true })).json());
    const cardId = saved.cards[0]!.id;
    expect((await call('DELETE', `/api/customer/payment-methods/${cardId}`, stranger.cookie)).statusCode).toBe(404);
    expect((await call('PUT', '/api/customer/autopay', stranger.cookie, { enabled: true, paymentMethodId: cardId })).statusCode).toBe(404);
    expect((await call('DELETE', '/api/customer/payment-methods/not-an-id', owner.cookie)).json().field).toBe('id');
    expect((await call('GET', '/api/customer/payment-methods', stranger.cookie)).json()).toMatchObject({ cards: [], autopay: false });
    expect((await call('GET', '/api/customer/payment-methods', owner.cookie)).json()).toMatchObject({ autopay: true, cards: [{ id: cardId }] });
  });

  it('turns autopay off and on, and stops it with the card it charged', async () => {
    const { id, cookie } = await newRenter();
    const saved = PaymentProfile.parse((await call('POST', '/api/customer/payment-methods', cookie, CARD)).json());
    expect(saved.autopay).toBe(false);
    const on = await call('PUT', '/api/customer/autopay', cookie, { enabled: true });
    expect(on.json()).toMatchObject({ autopay: true, cards: [{ autopay: true }] });
    // Again: nothing more recorded.
    await call('PUT', '/api/customer/autopay', cookie, { enabled: true });
    const off = await call('PUT', '/api/customer/autopay', cookie, { enabled: false });
    expect(off.json()).toMatchObject({ autopay: false, cards: [{ autopay: false }] });
    await call('PUT', '/api/customer/autopay', cookie, { enabled: true, paymentMethodId: saved.cards[0]!.id });
    const removed = await call('DELETE', `/api/customer/payment-methods/${saved.cards[0]!.id}`, cookie);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ autopay: false, cards: [] });
    expect((await profileEvents(id)).map((e) => e.type)).toEqual([
      'payment_method_saved',
      'autopay_enrolled',
      'autopay_cancelled',
      'autopay_enrolled',
      'autopay_cancelled',
      'payment_method_removed',
    ]);
    expect((await call('DELETE', `/api/customer/payment-methods/${saved.cards[0]!.id}`, cookie)).statusCode).toBe(200);
  });

  it('shows the renter and staff a charge that needs the renter, on a bill still theirs to pay', async () => {
    const { id, cookie } = await newRenter();
    await call('POST', '/api/customer/payment-methods', cookie, { ...CARD, cardNumber: '4000 0025 0000 3155', autopay: true });
    const ctx = { store: platform.api.store, actor: { type: 'system' as const }, correlationId: randomUUID(), now: new Date('2026-05-20T12:00:00Z') };
    const made = await generateInvoice(ctx, {
      invoiceNumber: `INV-AP-${randomUUID().slice(0, 8)}`,
      customerId: id,
      leaseId: null,
      amount: '80.00',
      dueDate: '2026-06-01',
      status: 'draft',
      description: 'Rent',
    });
    if (made.state.status !== 'current') throw new Error('no invoice');
    await sendInvoice(ctx, made.state.invoiceId);
    expect(await platform.readModelCaughtUp()).toBe(true);
    const provider = createTestProvider(platform.api.pool);
    await runBillingDay({ store: platform.api.store, pool: platform.api.pool, provider }, new Date('2026-06-01T18:00:00Z'), { date: '2026-06-01' });
    expect(await platform.readModelCaughtUp()).toBe(true);
    const charge = {
      invoiceId: made.state.invoiceId,
      attempt: 1,
      amount: '80.00',
      date: '2026-06-01',
      status: 'failed',
      requiresAction: true,
      nextAttemptOn: null,
      invoiceOpen: true,
    };
    expect(PaymentProfile.parse((await call('GET', '/api/customer/payment-methods', cookie)).json()).charges).toEqual([
      { ...charge, reason: expect.stringMatching(/confirm/) },
    ]);
    expect((await call('GET', `/api/customers/${id}/payment-profile`, staff)).json().charges).toMatchObject([charge]);
  });
});

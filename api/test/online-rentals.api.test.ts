import { randomUUID } from 'node:crypto';
import { defaultBillingSettings } from '@storage/contracts/billing';
import { streams } from '@storage/contracts/events';
import { RentalCheckout, RentalOffer, RentalStatus } from '@storage/contracts/online-rentals';
import type { Promotion } from '@storage/contracts/promotions';
import { leaseInvoiceId } from '@storage/domain/billing/lease-billing';
import { type CommandContext, loadAggregate, toDomainEvent } from '@storage/domain/commands/handle';
import { addFacility } from '@storage/domain/facilities/commands';
import { invoiceAggregate } from '@storage/domain/invoices/invoice';
import { reconcilePayments } from '@storage/domain/payments/reconcile';
import { cancelReservation, convertReservation } from '@storage/domain/reservations/commands';
import { updateBillingSettings, updatePromotions, updateProtectionSettings } from '@storage/domain/settings/commands';
import { addUnit } from '@storage/domain/units/commands';
import { unitAggregate } from '@storage/domain/units/unit';
import { createTestProvider } from '@storage/platform/payments/test-provider';
import { confirmationToken } from '@storage/testing/online-reservations';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { startSmtpServer, type TestSmtpServer } from '@storage/testing/smtp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Finishing an online reservation online, through the real move-in, billing and the built-in test
// card provider (Stripe's servers cannot run here): the payment moves the renter in on the plan
// and promotion chosen, pays the move-in invoice, and is refunded when the rental can no longer be made.

const tag = () => Math.random().toString(36).slice(2, 8);
const daysFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const goodCard = { cardNumber: '4242 4242 4242 4242', expiry: `12/${(new Date().getUTCFullYear() + 2) % 100}`, cvc: '123' };
const basic = { planId: randomUUID(), name: 'Basic', coverageAmount: '2000.00', monthlyPremium: '12.00' };
const webSpecial: Promotion = {
  promotionId: randomUUID(),
  name: 'Web special',
  terms: { kind: 'percent_off', percent: '50', months: 1 },
  channel: 'online',
  facilityIds: [],
  unitSizes: [],
  startsOn: null,
  endsOn: null,
  active: true,
};

describe('online rental API', () => {
  let platform: TestPlatform;
  let smtp: TestSmtpServer;
  let facilityId: string;
  const context = (): CommandContext => ({ store: platform.api.store, actor: { type: 'system' }, correlationId: randomUUID(), now: new Date() });
  const post = (url: string, payload: object) =>
    platform.api.app.inject({ method: 'POST', url, payload, remoteAddress: `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` });

  /** Reads the agreement the choices make and signs it with the payment, as the renter's page does. */
  async function signAndCheckout(choices: { token: string; protectionPlanId?: string; promotionId?: string }) {
    const agreement = await post('/api/public/rentals/agreement', choices);
    expect(agreement.statusCode).toBe(200);
    const { documentSha256 } = agreement.json() as { documentSha256: string };
    const answer = await post('/api/public/rentals/checkout', { ...choices, signature: { signerName: 'Rita Renter', mark: 'M 1 1 L 20 20', documentSha256 } });
    expect(answer.statusCode).toBe(200);
    return RentalCheckout.parse(answer.json());
  }

  async function reservedUnit(at = facilityId) {
    const unitId = randomUUID();
    const fields = {
      facilityId: at,
      unitNumber: `R-${tag()}`,
      building: 'B',
      size: '10x10' as const,
      monthlyRate: '120.00',
      status: 'available' as const,
      description: null,
    };
    const added = await addUnit(context(), fields, unitId);
    if (added.position) await platform.api.afterAppend(added.position, 10_000);
    const email = `rita-${tag()}@example.com`;
    const customerData = {
      firstName: 'Rita',
      lastName: 'Renter',
      email,
      phone: `555-020-${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`,
      moveInDate: daysFromNow(2),
    };
    expect((await post('/api/public/reservations', { unitId, customerData })).statusCode).toBe(201);
    const token = confirmationToken(smtp, email);
    const confirmed = await post('/api/public/reservations/confirm', { token });
    expect(confirmed.statusCode).toBe(200);
    return { unitId, token, reservationId: confirmed.json().reservationId as string };
  }

  beforeAll(async () => {
    smtp = await startSmtpServer();
    platform = await startTestPlatform({
      config: { smtpUrl: `smtp://127.0.0.1:${smtp.port}`, mailFrom: 'office@rentals.test', publicUrl: 'https://storage.test' },
    });
    facilityId = randomUUID();
    await addFacility(
      context(),
      { name: `Rental Test ${tag()}`, address: '2 Test Way', phone: null, managerName: null, accessHours: { opensAt: '06:00', closesAt: '22:00' } },
      facilityId,
    );
    await updateBillingSettings(
      context(),
      { ...defaultBillingSettings, adminFee: '15.00', salesTax: { rent: '8', adminFee: '0', lateFee: '0', merchandise: '0' } },
      facilityId,
    );
    await updateProtectionSettings(context(), { plans: [basic], defaultPlanId: null, enrollAfterDays: null }, facilityId);
    await updatePromotions(context(), [webSpecial]);
  });
  afterAll(async () => {
    await platform?.close();
    await smtp?.close();
  });

  it('pays online with a plan and the web promotion, and the payment moves the renter in: lease, paid invoice, gate code', async () => {
    const { token, reservationId, unitId } = await reservedUnit();
    const choices = { token, protectionPlanId: basic.planId, promotionId: webSpecial.promotionId };
    const offered = await post('/api/public/rentals/offer', choices);
    expect(offered.statusCode).toBe(200);
    const offer = RentalOffer.parse(offered.json());
    expect(offer.quote.offers.promotions.map((p) => p.name)).toEqual(['Web special']);
    const lines = offer.quote.dueToday[0]!.lines.map((l) => l.kind);
    expect(lines).toEqual(expect.arrayContaining(['discount', 'protection', 'admin_fee']));

    // The renter reads the agreement these choices make (the plan and the promotion as its addenda) and signs it to pay.
    const agreement = await post('/api/public/rentals/agreement', choices);
    expect(agreement.statusCode).toBe(200);
    const toSign = agreement.json() as { documentSha256: string; leaseId: string; text: string; signature: unknown };
    expect(toSign).toMatchObject({ leaseId: reservationId, signature: null });
    expect(toSign.text).toContain('== Protection Plan Addendum ==\nPlan: Basic\nCoverage: Up to $2,000.00 for the stored goods');
    expect(toSign.text).toContain('== Promotion Addendum ==\nPromotion: Web special\nTerms: 50% off the first month');
    // The facility's gate hours are the tenant's access.
    expect(toSign.text).toContain('The tenant has access to the unit 6:00 AM – 10:00 PM every day.');
    const signature = { signerName: 'Rita Renter', mark: 'M 1 1 L 20 20', documentSha256: toSign.documentSha256 };
    // Not signed, or signed over another document: refused, and no payment is started.
    expect((await post('/api/public/rentals/checkout', choices)).statusCode).toBe(400);
    const otherDocument = await post('/api/public/rentals/checkout', { ...choices, promotionId: null, signature });
    expect(otherDocument.statusCode).toBe(409);
    expect(otherDocument.json().message).toBe('The lease changed since you opened it. Please review it again.');
    const before = await platform.api.store.readStream(streams.reservation(reservationId));
    expect(before.some((e) => e.type === 'reservation_checkout_started')).toBe(false);

    const checkout = RentalCheckout.parse((await post('/api/public/rentals/checkout', { ...choices, signature })).json());
    if (checkout.kind !== 'pay') throw new Error(`expected a payment, got ${checkout.kind}`);
    expect(checkout.amount).toBe(offer.quote.totalDueToday);
    // A repeat gets the same payment back.
    const again = RentalCheckout.parse((await post('/api/public/rentals/checkout', { ...choices, signature })).json());
    expect(again).toMatchObject({ kind: 'pay', paymentIntentId: checkout.paymentIntentId });

    // Not paid yet: reporting it is refused, and nothing moves.
    expect((await post('/api/public/rentals/complete', { token, paymentIntentId: checkout.paymentIntentId })).statusCode).toBe(409);
    // The renter's page pays with the test provider's card form, by the link's token (no portal session yet).
    const card = await post('/api/public/rentals/test-payment', { token, paymentIntentId: checkout.paymentIntentId, card: goodCard });
    expect(card.statusCode).toBe(200);
    expect(card.json()).toMatchObject({ status: 'succeeded' });
    const completed = await post('/api/public/rentals/complete', { token, paymentIntentId: checkout.paymentIntentId });
    expect(completed.statusCode).toBe(200);
    expect(RentalStatus.parse(completed.json())).toMatchObject({ status: 'rented', moveInDate: daysFromNow(2), accessHours: '6:00 AM – 10:00 PM every day' });

    const invoiceId = leaseInvoiceId(reservationId, daysFromNow(2));
    const { state: invoice } = await loadAggregate(platform.api.store, streams.invoice(invoiceId), invoiceAggregate);
    if (invoice.status !== 'current') throw new Error('no move-in invoice');
    expect(invoice.fields.status).toBe('paid');
    expect(invoice.fields.lines).toEqual(offer.quote.dueToday[0]!.lines);
    // The lease starts with its plan and promotion, and carries the signature given before paying, with its evidence.
    const leaseEvents = (await platform.api.store.readStream(streams.lease(reservationId))).map((e) => toDomainEvent(e));
    expect(leaseEvents.slice(0, 3).map((e) => e.type)).toEqual(['lease_started', 'lease_protection_changed', 'lease_promotion_applied']);
    const signed = leaseEvents.find((e) => e.type === 'lease_signed');
    expect(signed?.data).toMatchObject({ signerName: 'Rita Renter', channel: 'online', documentSha256: toSign.documentSha256 });
    expect(signed?.data).toHaveProperty('ipAddress', expect.stringMatching(/^10\.9\./));
    const { state: unit } = await loadAggregate(platform.api.store, streams.unit(unitId), unitAggregate);
    expect(unit).toMatchObject({ fields: { status: 'occupied' } });

    // The gate code arrives once the move-in's reaction assigned it; the lease is signed already.
    await expect
      .poll(async () => RentalStatus.parse((await post('/api/public/rentals/status', { token })).json()).gateCode, { timeout: 20_000 })
      .toMatch(/^\d+$/);
    expect(RentalStatus.parse((await post('/api/public/rentals/status', { token })).json()).signed).toBe(true);
    // The lease as it stands renders the very document signed before it existed.
    await expect
      .poll(async () => (await post('/api/public/rentals/agreement', { token })).json(), { timeout: 10_000 })
      .toMatchObject({ leaseId: reservationId, documentSha256: toSign.documentSha256, signedThisDocument: true });
    // Reporting it again changes nothing.
    expect((await post('/api/public/rentals/complete', { token, paymentIntentId: checkout.paymentIntentId })).json()).toMatchObject({ status: 'rented' });
  });

  it('moves in and records the signature at once when nothing is due today (a free first month, no fees)', async () => {
    const freeFacility = randomUUID();
    await addFacility(context(), { name: `Free Month ${tag()}`, address: '3 Test Way', phone: null, managerName: null }, freeFacility);
    await updateBillingSettings(context(), { ...defaultBillingSettings, adminFee: '0.00' }, freeFacility);
    const free: Promotion = {
      ...webSpecial,
      promotionId: randomUUID(),
      name: 'First month free',
      terms: { kind: 'percent_off', percent: '100', months: 1 },
      facilityIds: [freeFacility],
    };
    await updatePromotions(context(), [webSpecial, free]);
    const { token, reservationId } = await reservedUnit(freeFacility);
    const checkout = await signAndCheckout({ token, promotionId: free.promotionId });
    expect(checkout).toEqual({ kind: 'rented' });
    const types = (await platform.api.store.readStream(streams.lease(reservationId))).map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['lease_started', 'lease_promotion_applied', 'lease_signed']));
    // A facility without gate hours gives 24-hour access.
    expect(RentalStatus.parse((await post('/api/public/rentals/status', { token })).json())).toMatchObject({
      status: 'rented',
      signed: true,
      accessHours: '24/7',
    });
  });

  it('finishes a rental stopped after its move-in (before the signature and the payment were recorded) by the reconciliation', async () => {
    const { token, reservationId } = await reservedUnit();
    const checkout = await signAndCheckout({ token });
    if (checkout.kind !== 'pay') throw new Error('expected a payment');
    const provider = createTestProvider(platform.api.pool);
    await provider.confirmIntent(checkout.paymentIntentId, goodCard, new Date());
    // The request stopped right after the move-in: the lease exists, unsigned, its invoice unpaid.
    await convertReservation(context(), reservationId, { depositAmount: null, startDate: daysFromNow(2), protectionPlanId: null, promotionId: null }, 'online');
    expect((await platform.api.store.readStream(streams.lease(reservationId))).some((e) => e.type === 'lease_signed')).toBe(false);
    const run = await reconcilePayments({ pool: platform.api.pool, store: platform.api.store, provider }, new Date(), 0);
    expect(run.failures).toEqual([]);
    const signed = (await platform.api.store.readStream(streams.lease(reservationId))).filter((e) => e.type === 'lease_signed');
    expect(signed).toHaveLength(1);
    const { state: invoice } = await loadAggregate(platform.api.store, streams.invoice(leaseInvoiceId(reservationId, daysFromNow(2))), invoiceAggregate);
    expect(invoice).toMatchObject({ status: 'current', fields: { status: 'paid' } });
    // Again: nothing more.
    await reconcilePayments({ pool: platform.api.pool, store: platform.api.store, provider }, new Date(), 0);
    expect((await platform.api.store.readStream(streams.lease(reservationId))).filter((e) => e.type === 'lease_signed')).toHaveLength(1);
  });

  it('refunds a payment whose rental can no longer be made (the reservation cancelled meanwhile), found by the reconciliation', async () => {
    const { token, reservationId, unitId } = await reservedUnit();
    const checkout = await signAndCheckout({ token });
    if (checkout.kind !== 'pay') throw new Error('expected a payment');
    const provider = createTestProvider(platform.api.pool);
    await provider.confirmIntent(checkout.paymentIntentId, goodCard, new Date());
    // Staff cancel it while the renter's page is closing: nobody reports the payment.
    await cancelReservation(context(), reservationId, 'Called to cancel');
    const run = await reconcilePayments({ pool: platform.api.pool, store: platform.api.store, provider }, new Date(), 0);
    expect(run.failures).toEqual([]);
    const events = (await platform.api.store.readStream(streams.reservation(reservationId))).map((e) => toDomainEvent(e));
    const refunded = events.find((e) => e.type === 'reservation_checkout_refunded');
    expect(refunded?.data).toMatchObject({ paymentIntentId: checkout.paymentIntentId, amount: checkout.amount });
    const known = await provider.retrieveIntent(checkout.paymentIntentId);
    expect(known?.status).toBe('succeeded');
    // No lease, the unit free again, and the renter told so.
    expect((await platform.api.store.readStream(streams.lease(reservationId))).length).toBe(0);
    const { state: unit } = await loadAggregate(platform.api.store, streams.unit(unitId), unitAggregate);
    expect(unit).toMatchObject({ fields: { status: 'available' } });
    expect(RentalStatus.parse((await post('/api/public/rentals/status', { token })).json()).status).toBe('refunded');
    // A second run refunds nothing twice.
    const second = await reconcilePayments({ pool: platform.api.pool, store: platform.api.store, provider }, new Date(), 0);
    expect(second.failures).toEqual([]);
    const refunds = (await platform.api.store.readStream(streams.reservation(reservationId))).filter((e) => e.type === 'reservation_checkout_refunded');
    expect(refunds).toHaveLength(1);
  });

  it('refunds a payment made while staff moved the renter in at the office on another day (its invoice never exists)', async () => {
    const { token, reservationId } = await reservedUnit();
    const checkout = await signAndCheckout({ token });
    if (checkout.kind !== 'pay') throw new Error('expected a payment');
    await convertReservation(context(), reservationId, { depositAmount: null, startDate: daysFromNow(5) });
    const card = await post('/api/public/rentals/test-payment', { token, paymentIntentId: checkout.paymentIntentId, card: goodCard });
    expect(card.json()).toMatchObject({ status: 'succeeded' });
    const completed = await post('/api/public/rentals/complete', { token, paymentIntentId: checkout.paymentIntentId });
    expect(completed.statusCode).toBe(200);
    const events = (await platform.api.store.readStream(streams.reservation(reservationId))).map((e) => toDomainEvent(e));
    expect(events.find((e) => e.type === 'reservation_checkout_refunded')?.data).toMatchObject({
      paymentIntentId: checkout.paymentIntentId,
      reason: 'The rental was finished at the office on other terms',
    });
    // The lease made at the office stands, its own invoice unpaid by this card, and unsigned: the
    // agreement signed online was for another lease.
    expect((await platform.api.store.readStream(streams.lease(reservationId))).some((e) => e.type === 'lease_signed')).toBe(false);
    const { state: invoice } = await loadAggregate(platform.api.store, streams.invoice(leaseInvoiceId(reservationId, daysFromNow(5))), invoiceAggregate);
    expect(invoice).toMatchObject({ status: 'current', fields: { status: 'sent' } });
  });

  it('refuses a link that confirms nothing, a desk-only choice, and another reservation’s payment', async () => {
    expect((await post('/api/public/rentals/offer', { token: 'not-a-link' })).statusCode).toBe(404);
    expect((await post('/api/public/rentals/agreement', { token: 'not-a-link' })).statusCode).toBe(404);
    expect((await post('/api/public/rentals/checkout', { token: '' })).statusCode).toBe(400);
    const first = await reservedUnit();
    const second = await reservedUnit();
    const badPlan = await post('/api/public/rentals/offer', { token: first.token, protectionPlanId: randomUUID() });
    expect(badPlan.statusCode).toBe(400);
    expect(badPlan.json().message).toContain('protectionPlanId');
    const checkout = await signAndCheckout({ token: first.token });
    if (checkout.kind !== 'pay') throw new Error('expected a payment');
    expect((await post('/api/public/rentals/complete', { token: second.token, paymentIntentId: checkout.paymentIntentId })).statusCode).toBe(404);
    expect(
      (await post('/api/public/rentals/test-payment', { token: second.token, paymentIntentId: checkout.paymentIntentId, card: goodCard })).statusCode,
    ).toBe(404);
  });
});

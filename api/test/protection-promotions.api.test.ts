import { randomUUID } from 'node:crypto';
import { defaultBillingSettings } from '@storage/contracts/billing';
import { type DomainEvent, streams } from '@storage/contracts/events';
import type { Promotion } from '@storage/contracts/promotions';
import { LeaseProtectionView } from '@storage/contracts/protection';
import { MoveInQuote, PublicMoveInQuote } from '@storage/contracts/quotes';
import { leaseInvoiceId } from '@storage/domain/billing/lease-billing';
import { runBillingDay } from '@storage/domain/billing/run';
import { type CommandContext, loadAggregate, toDomainEvent } from '@storage/domain/commands/handle';
import { addFacility } from '@storage/domain/facilities/commands';
import { invoiceAggregate } from '@storage/domain/invoices/invoice';
import { leaseAggregate } from '@storage/domain/leases/lease';
import { updateBillingSettings, updatePromotions, updateProtectionSettings } from '@storage/domain/settings/commands';
import { addUnit } from '@storage/domain/units/commands';
import { sessionCookie, startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Protection plans and promotions through the real move-in and billing: what the quote promises is
// what the lease is billed, a promotion is checked where it is taken, and a lease's plan changes
// from the first period not yet invoiced.

const tag = () => Math.random().toString(36).slice(2, 8);
const daysFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

const basic = { planId: randomUUID(), name: 'Basic', coverageAmount: '2000.00', monthlyPremium: '12.00' };
const premium = { planId: randomUUID(), name: 'Premium', coverageAmount: '5000.00', monthlyPremium: '20.00' };
const promotion = (fields: Partial<Promotion>): Promotion => ({
  promotionId: randomUUID(),
  name: 'Half off',
  terms: { kind: 'percent_off', percent: '50', months: 2 },
  channel: 'both',
  facilityIds: [],
  unitSizes: [],
  startsOn: null,
  endsOn: null,
  active: true,
  ...fields,
});

describe('protection plans and promotions API', () => {
  let platform: TestPlatform;
  let cookie: string;
  let facilityId: string;
  const halfOff = promotion({});
  const onlineOnly = promotion({ name: 'Web special', terms: { kind: 'fixed_price', amount: '1.00', months: 1 }, channel: 'online' });
  const elsewhere = promotion({ name: 'Other site', facilityIds: [randomUUID()] });
  const inject = (method: 'GET' | 'POST', url: string, payload?: object, as: string = cookie) =>
    platform.api.app.inject({ method, url, headers: { cookie: as }, ...(payload && { payload }) });
  const context = (now = new Date()): CommandContext => ({ store: platform.api.store, actor: { type: 'system' }, correlationId: randomUUID(), now });

  async function newUnit() {
    const unitId = randomUUID();
    const fields = {
      facilityId,
      unitNumber: `P-${tag()}`,
      building: 'A',
      size: '10x10' as const,
      monthlyRate: '120.00',
      status: 'available' as const,
      description: null,
    };
    const added = await addUnit(context(), fields, unitId);
    if (added.position) await platform.api.afterAppend(added.position, 10_000);
    return unitId;
  }

  async function newCustomer() {
    const response = await inject('POST', '/api/customers', {
      firstName: 'Pat',
      lastName: 'Plan',
      email: `pat-${tag()}@example.com`,
      phone: '555-010-7788',
      facilityId,
    });
    expect(response.statusCode).toBe(201);
    return response.json().id as string;
  }

  const leaseEvents = async (leaseId: string) => (await platform.api.store.readStream(streams.lease(leaseId))).map((e) => toDomainEvent(e));

  beforeAll(async () => {
    platform = await startTestPlatform();
    cookie = await platform.signIn();
    facilityId = randomUUID();
    await addFacility(context(), { name: `Protection Test ${tag()}`, address: '1 Test Way', phone: null, managerName: null }, facilityId);
    await updateBillingSettings(context(), { ...defaultBillingSettings, salesTax: { rent: '10', adminFee: '0', lateFee: '0', merchandise: '0' } }, facilityId);
    await updateProtectionSettings(context(), { plans: [basic, premium], defaultPlanId: basic.planId, enrollAfterDays: 30 }, facilityId);
    await updatePromotions(context(), [halfOff, onlineOnly, elsewhere]);
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('moves in with a plan and a promotion on exactly the quoted lines: the discount taxed down, the premium untaxed', async () => {
    const unitId = await newUnit();
    const startDate = daysFromNow(0);
    const query = `startDate=${startDate}&protectionPlanId=${basic.planId}&promotionId=${halfOff.promotionId}`;
    const quoted = await inject('GET', `/api/units/${unitId}/move-in-quote?${query}`);
    expect(quoted.statusCode).toBe(200);
    const quote = MoveInQuote.parse(quoted.json());
    // The desk is offered the plans and the promotions of this facility taken at the desk, not the web-only one nor another site's.
    expect(quote.offers.plans.map((p) => p.name)).toEqual(['Basic', 'Premium']);
    expect(quote.offers.promotions.map((p) => p.name)).toEqual(['Half off']);
    expect(quote.protection).toEqual(basic);
    expect(quote.promotion).toMatchObject({ promotionId: halfOff.promotionId, terms: halfOff.terms });
    const kinds = quote.dueToday[0]!.lines.map((l) => l.kind);
    expect(['rent', 'prorated_rent']).toContain(kinds[0]);
    expect(kinds.slice(1)).toEqual(['tax', 'discount', 'tax', 'protection']);
    const [rent, rentTax, discount, discountTax, protection] = quote.dueToday[0]!.lines;
    expect(discount).toMatchObject({ kind: 'discount' });
    // Half off, to the cent (half up), and its tax the negative of half the rent's tax give or take the cent's rounding.
    const cents = (amount: string) => Math.round(Number(amount) * 100);
    expect(cents(discount!.amount)).toBe(-Math.round(cents(rent!.amount) / 2));
    expect(Math.abs(cents(discountTax!.amount) + cents(rentTax!.amount) / 2)).toBeLessThanOrEqual(1);
    expect(protection).toMatchObject({ kind: 'protection' });

    const customerId = await newCustomer();
    const moved = await inject('POST', '/api/leases', {
      customerId,
      unitId,
      monthlyRate: '120.00',
      startDate,
      protectionPlanId: basic.planId,
      promotionId: halfOff.promotionId,
    });
    expect(moved.statusCode).toBe(201);
    const leaseId = moved.json().id as string;
    for (const invoice of quote.dueToday) {
      const { state } = await loadAggregate(platform.api.store, streams.invoice(leaseInvoiceId(leaseId, invoice.periodStart)), invoiceAggregate);
      if (state.status !== 'current') throw new Error(`No invoice for ${invoice.periodStart}`);
      expect(state.fields.lines).toEqual(invoice.lines);
      expect(state.fields.amount).toBe(invoice.total);
    }
    // Both choices are on the lease's stream, in the move-in's own append.
    const types = (await leaseEvents(leaseId)).map((e) => e.type);
    expect(types.slice(0, 3)).toEqual(['lease_started', 'lease_protection_changed', 'lease_promotion_applied']);
  });

  it('refuses a promotion not taken at the desk or not of this facility, and a plan the facility does not offer, writing nothing', async () => {
    const unitId = await newUnit();
    const customerId = await newCustomer();
    const base = { customerId, unitId, monthlyRate: '120.00', startDate: daysFromNow(0) };
    for (const [payload, field] of [
      [{ ...base, promotionId: onlineOnly.promotionId }, 'promotionId'],
      [{ ...base, promotionId: elsewhere.promotionId }, 'promotionId'],
      [{ ...base, promotionId: randomUUID() }, 'promotionId'],
      [{ ...base, protectionPlanId: randomUUID() }, 'protectionPlanId'],
      [{ ...base, protectionPlanId: 'basic' }, 'protectionPlanId'],
    ] as const) {
      const response = await inject('POST', '/api/leases', payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().message).toContain(field);
    }
    const unit = await inject('GET', `/api/units/${unitId}`);
    expect(unit.json().status).toBe('available');
    // The quote checks the same way.
    const quote = await inject('GET', `/api/units/${unitId}/move-in-quote?startDate=${base.startDate}&promotionId=${onlineOnly.promotionId}`);
    expect(quote.statusCode).toBe(400);
  });

  it('offers the web-only promotion on the public quote, and refuses the desk one there only when it is desk-only', async () => {
    const unitId = await newUnit();
    const moveInDate = daysFromNow(1);
    const response = await platform.api.app.inject({
      method: 'GET',
      url: `/api/public/units/${unitId}/move-in-quote?moveInDate=${moveInDate}&promotionId=${onlineOnly.promotionId}&protectionPlanId=${premium.planId}`,
    });
    expect(response.statusCode).toBe(200);
    const quote = PublicMoveInQuote.parse(response.json());
    expect(quote.offers.promotions.map((p) => p.name).sort()).toEqual(['Half off', 'Web special']);
    // A $1.00 first month: the rent line less its discount is 1.00 prorated the same way.
    const lines = quote.dueToday[0]!.lines;
    expect(lines.find((l) => l.kind === 'protection')!.description).toContain('Premium');
    expect(lines.some((l) => l.kind === 'discount')).toBe(true);
  });

  it('changes the plan from the first period not yet invoiced, cancels it, and records proof of insurance; an auditor may only read', async () => {
    const unitId = await newUnit();
    const customerId = await newCustomer();
    const moved = await inject('POST', '/api/leases', { customerId, unitId, monthlyRate: '120.00', startDate: daysFromNow(0) });
    const leaseId = moved.json().id as string;
    const auditor = await platform.signIn('auditor');

    const seen = await inject('GET', `/api/leases/${leaseId}/protection`, undefined, auditor);
    expect(seen.statusCode).toBe(200);
    expect(LeaseProtectionView.parse(seen.json())).toMatchObject({ current: null, history: [], insuranceProof: null });
    expect((await inject('POST', `/api/leases/${leaseId}/protection`, { planId: premium.planId }, auditor)).statusCode).toBe(403);

    const chosen = await inject('POST', `/api/leases/${leaseId}/protection`, { planId: premium.planId });
    expect(chosen.statusCode).toBe(200);
    const view = LeaseProtectionView.parse(chosen.json());
    expect(view.current).toEqual(premium);
    // The move-in invoice is issued: the plan starts with the next period.
    const { state } = await loadAggregate(platform.api.store, streams.lease(leaseId), leaseAggregate);
    if (state.status !== 'active') throw new Error('lease not active');
    const nextDay = new Date(Date.parse(`${state.billedThrough}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    expect(view.history).toEqual([expect.objectContaining({ protection: premium, effectiveDate: nextDay, reason: 'changed_by_staff' })]);
    // The same plan again: nothing more.
    await inject('POST', `/api/leases/${leaseId}/protection`, { planId: premium.planId });
    const cancelled = LeaseProtectionView.parse((await inject('POST', `/api/leases/${leaseId}/protection`, { planId: null })).json());
    expect(cancelled.history.map((h) => h.reason)).toEqual(['changed_by_staff', 'cancelled_by_staff']);
    expect(cancelled.current).toBeNull();

    const unknown = await inject('POST', `/api/leases/${leaseId}/protection`, { planId: randomUUID() });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toContain('planId');

    const expired = await inject('POST', `/api/leases/${leaseId}/insurance-proof`, { carrier: 'Acme', policyNumber: 'A-1', expiresOn: daysFromNow(-1) });
    expect(expired.statusCode).toBe(400);
    expect(expired.json().message).toContain('expiresOn');
    const proof = await inject('POST', `/api/leases/${leaseId}/insurance-proof`, { carrier: 'Acme Mutual', policyNumber: 'A-1', expiresOn: daysFromNow(200) });
    expect(proof.statusCode).toBe(200);
    expect(proof.json().insuranceProof).toEqual({ carrier: 'Acme Mutual', policyNumber: 'A-1', expiresOn: daysFromNow(200) });
    expect((await inject('GET', `/api/leases/${randomUUID()}/protection`)).statusCode).toBe(404);
  });

  it('lets a renter see and choose their own plan in the portal, never another renter’s', async () => {
    const unitId = await newUnit();
    const renterSession = async () => {
      const email = `rae-${tag()}@example.com`;
      const added = await inject('POST', '/api/customers', { firstName: 'Rae', lastName: 'Renter', email, phone: '555-010-4321', facilityId });
      const verified = await platform.api.app.inject({
        method: 'POST',
        url: '/api/customer/verify',
        payload: { email, phoneLast4: '4321' },
        remoteAddress: `10.8.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
      });
      expect(verified.statusCode, verified.body).toBe(200);
      return { customerId: added.json().id as string, cookie: sessionCookie(verified.headers['set-cookie']) };
    };
    const { customerId, cookie: renter } = await renterSession();
    const moved = await inject('POST', '/api/leases', { customerId, unitId, monthlyRate: '120.00', startDate: daysFromNow(0) });
    const leaseId = moved.json().id as string;
    const seen = await inject('GET', `/api/customer/leases/${leaseId}/protection`, undefined, renter);
    expect(seen.statusCode).toBe(200);
    expect(LeaseProtectionView.parse(seen.json()).plans.map((p) => p.name)).toEqual(['Basic', 'Premium']);
    const chosen = await inject('POST', `/api/customer/leases/${leaseId}/protection`, { planId: basic.planId }, renter);
    expect(chosen.statusCode).toBe(200);
    expect(LeaseProtectionView.parse(chosen.json()).history).toEqual([expect.objectContaining({ protection: basic, reason: 'chosen_by_renter' })]);
    // Cancelling is the office's, and another renter's lease is not theirs to see.
    expect((await inject('POST', `/api/customer/leases/${leaseId}/protection`, { planId: null }, renter)).statusCode).toBe(400);
    const { cookie: stranger } = await renterSession();
    expect((await inject('GET', `/api/customer/leases/${leaseId}/protection`, undefined, stranger)).statusCode).toBe(404);
    expect((await inject('POST', `/api/customer/leases/${leaseId}/protection`, { planId: basic.planId }, stranger)).statusCode).toBe(404);
  });

  it('enrolls a renter with neither a plan nor proof in the default plan after the days set, once; a renter with proof is left alone', async () => {
    const startDate = daysFromNow(-40);
    const [bare, insured] = [await newUnit(), await newUnit()];
    const leaseOf = async (unitId: string) => {
      const response = await inject('POST', '/api/leases', { customerId: await newCustomer(), unitId, monthlyRate: '120.00', startDate });
      expect(response.statusCode).toBe(201);
      return response.json().id as string;
    };
    const [bareLease, insuredLease] = [await leaseOf(bare), await leaseOf(insured)];
    await inject('POST', `/api/leases/${insuredLease}/insurance-proof`, { carrier: 'Acme', policyNumber: 'B-2', expiresOn: daysFromNow(100) });

    for (let run = 0; run < 2; run++) await runBillingDay({ store: platform.api.store, pool: platform.api.pool }, new Date(), { facilityId });
    const enrolled = (await leaseEvents(bareLease)).filter(
      (e): e is Extract<DomainEvent, { type: 'lease_protection_changed' }> => e.type === 'lease_protection_changed',
    );
    expect(enrolled.map((e) => [e.data.reason, e.data.protection?.name])).toEqual([['enrolled_by_default', 'Basic']]);
    expect((await leaseEvents(insuredLease)).some((e) => e.type === 'lease_protection_changed')).toBe(false);
  });
});

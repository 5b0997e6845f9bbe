import { randomUUID } from 'node:crypto';
import type { LeaseTerms } from '@storage/contracts/lease-terms';
import { LeaseDocument } from '@storage/contracts/leases';
import { type CommandContext, toDomainEvent } from '@storage/domain/commands/handle';
import { addFacility } from '@storage/domain/facilities/commands';
import { addUnit } from '@storage/domain/units/commands';
import type { Position } from '@storage/eventstore/port';
import { confirmationToken } from '@storage/testing/online-reservations';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { startSmtpServer, type TestSmtpServer } from '@storage/testing/smtp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The lease template: the owner's additional terms, the business's or a facility's own, printed in
// the agreement after the generated ones, at the desk and online.

const tag = () => Math.random().toString(36).slice(2, 8);
const daysFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const MARK = 'M 10 40 C 30 10, 50 70, 70 40 L 120 35';
const lockTerm = 'The tenant must keep the unit locked with a lock of their own when not present.';
const businessTerms: LeaseTerms = { additionalTerms: [lockTerm, 'The office may enter the unit in an emergency.'] };
const ownTerms: LeaseTerms = { additionalTerms: ['No vehicles may be stored at this facility.'] };

describe('lease terms API', () => {
  let platform: TestPlatform;
  let smtp: TestSmtpServer;
  let owner: string;
  let facilityId: string;
  const inject = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: unknown, as = owner) =>
    platform.api.app.inject({ method, url, payload: payload as object, headers: { cookie: as } });
  const post = (url: string, payload: object) =>
    platform.api.app.inject({ method: 'POST', url, payload, remoteAddress: `10.8.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` });
  const context = (): CommandContext => ({ store: platform.api.store, actor: { type: 'system' }, correlationId: randomUUID(), now: new Date() });
  const projected = async (result: { position: Position | null }) => {
    if (result.position) await platform.api.afterAppend(result.position, 10_000);
  };
  const eventsOf = async (scope: string) => (await platform.api.store.readStream(`settings-${scope}`)).map(toDomainEvent);

  async function newUnit(at: string) {
    const unitId = randomUUID();
    const fields = {
      facilityId: at,
      unitNumber: `T-${tag()}`,
      building: 'A',
      size: '10x10' as const,
      monthlyRate: '120.00',
      status: 'available' as const,
      description: null,
    };
    await projected(await addUnit(context(), fields, unitId));
    return unitId;
  }

  /** A desk lease at the facility: its agreement as the lease page shows it and as it would be signed. */
  async function deskLease(at = facilityId) {
    const customer = await inject('POST', '/api/customers', {
      firstName: 'Jane',
      lastName: 'Renter',
      email: `jane-${tag()}-${tag()}@example.com`,
      phone: '555-010-2030',
    });
    expect(customer.statusCode).toBe(201);
    const lease = await inject('POST', '/api/leases', {
      customerId: customer.json().id,
      unitId: await newUnit(at),
      monthlyRate: '120.00',
      startDate: '2025-03-01',
    });
    expect(lease.statusCode).toBe(201);
    return lease.json().id as string;
  }
  const documentTerms = async (leaseId: string) => {
    const response = await inject('GET', `/api/leases/${leaseId}/document`);
    expect(response.statusCode).toBe(200);
    return LeaseDocument.parse(response.json()).termsAndConditions;
  };

  /** The agreement an online rental at the facility would be signed on. */
  async function onlineAgreementText(at = facilityId) {
    const unitId = await newUnit(at);
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
    expect((await post('/api/public/reservations/confirm', { token })).statusCode).toBe(200);
    const agreement = await post('/api/public/rentals/agreement', { token });
    expect(agreement.statusCode).toBe(200);
    return (agreement.json() as { text: string }).text;
  }

  beforeAll(async () => {
    smtp = await startSmtpServer();
    platform = await startTestPlatform({
      config: { smtpUrl: `smtp://127.0.0.1:${smtp.port}`, mailFrom: 'office@rentals.test', publicUrl: 'https://storage.test' },
    });
    owner = await platform.signIn('owner');
    facilityId = randomUUID();
    await projected(
      await addFacility(context(), { name: `Terms Test ${tag()}`, address: '1 Test Way', phone: null, managerName: 'Maria Gonzalez' }, facilityId),
    );
  });
  afterAll(async () => {
    await platform?.close();
    await smtp?.close();
  });

  it('answers 401 signed out, and shows no terms before any are saved: the agreement has its six generated ones', async () => {
    expect((await platform.api.app.inject({ method: 'GET', url: '/api/settings/lease-terms' })).statusCode).toBe(401);
    expect((await platform.api.app.inject({ method: 'PUT', url: '/api/settings/lease-terms', payload: { facilityId: null, terms: null } })).statusCode).toBe(
      401,
    );
    const none = await inject('GET', `/api/settings/lease-terms?facilityId=${facilityId}`);
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual({ business: null, facility: null, effective: { additionalTerms: [] } });
    expect(await documentTerms(await deskLease())).toHaveLength(6);
  });

  it("prints the business's terms after the generated ones, at the desk and online, and a lease signed before shows it signed an earlier version", async () => {
    const leaseId = await deskLease();
    const shown = (await inject('GET', `/api/leases/${leaseId}/signature`)).json() as { documentSha256: string };
    const signed = await inject('POST', `/api/leases/${leaseId}/signature`, { signerName: 'Jane Renter', mark: MARK, documentSha256: shown.documentSha256 });
    expect(signed.statusCode).toBe(201);

    const saved = await inject('PUT', '/api/settings/lease-terms', {
      facilityId: null,
      terms: { additionalTerms: [`  ${lockTerm} `, businessTerms.additionalTerms[1]] },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ business: businessTerms, facility: null, effective: businessTerms });
    expect((await inject('GET', `/api/settings/lease-terms?facilityId=${facilityId}`)).json()).toEqual({
      business: businessTerms,
      facility: null,
      effective: businessTerms,
    });
    // Saving the same terms again records nothing.
    expect((await inject('PUT', '/api/settings/lease-terms', { facilityId: null, terms: businessTerms })).statusCode).toBe(200);
    expect((await eventsOf('business')).filter((e) => e.type === 'lease_terms_updated')).toEqual([
      { type: 'lease_terms_updated', data: { facilityId: null, terms: businessTerms } },
    ]);

    const terms = await documentTerms(leaseId);
    expect(terms).toHaveLength(8);
    expect(terms.slice(6)).toEqual(businessTerms.additionalTerms);
    const toSign = (await inject('GET', `/api/leases/${leaseId}/signature`)).json() as { text: string; signedThisDocument: boolean };
    expect(toSign.text).toContain(`7. ${lockTerm}\n8. The office may enter the unit in an emergency.`);
    expect(toSign.signedThisDocument).toBe(false);

    expect(await onlineAgreementText()).toContain(`7. ${lockTerm}`);
  });

  it("lets a facility keep terms of its own instead, and follow the business's again", async () => {
    const own = await inject('PUT', '/api/settings/lease-terms', { facilityId, terms: ownTerms });
    expect(own.statusCode).toBe(200);
    expect(own.json()).toEqual({ business: businessTerms, facility: ownTerms, effective: ownTerms });
    const leaseId = await deskLease();
    expect((await documentTerms(leaseId)).slice(6)).toEqual(ownTerms.additionalTerms);
    const online = await onlineAgreementText();
    expect(online).toContain('7. No vehicles may be stored at this facility.');
    expect(online).not.toContain(lockTerm);

    const follow = await inject('PUT', '/api/settings/lease-terms', { facilityId, terms: null });
    expect(follow.json()).toEqual({ business: businessTerms, facility: null, effective: businessTerms });
    expect((await documentTerms(leaseId)).slice(6)).toEqual(businessTerms.additionalTerms);
    expect((await eventsOf(facilityId)).filter((e) => e.type === 'lease_terms_updated').map((e) => e.data)).toEqual([
      { facilityId, terms: ownTerms },
      { facilityId, terms: null },
    ]);
  });

  it.each([
    ['a blank term', { facilityId: null, terms: { additionalTerms: ['Fine.', '  '] } }, 'terms.additionalTerms.1'],
    ['a term over 1000 characters', { facilityId: null, terms: { additionalTerms: ['a', 'b', 'c', 'x'.repeat(1001)] } }, 'terms.additionalTerms.3'],
    ['more than 20 terms', { facilityId: null, terms: { additionalTerms: Array.from({ length: 21 }, (_, i) => `Term ${i + 1}.`) } }, 'terms.additionalTerms'],
    ['a term that is not text', { facilityId: null, terms: { additionalTerms: [42] } }, 'terms.additionalTerms.0'],
    ['no terms field', { facilityId: null }, 'terms'],
    ['a bad facility id', { facilityId: 'not-an-id', terms: null }, 'facilityId'],
  ])('refuses %s: 400 naming the field, nothing written', async (_what, body, field) => {
    const before = (await eventsOf('business')).length;
    const response = await inject('PUT', '/api/settings/lease-terms', body);
    expect(response.statusCode).toBe(400);
    expect(response.json().field).toBe(field);
    expect((await eventsOf('business')).length).toBe(before);
  });

  it('answers 404 for a facility that does not exist, writing nothing', async () => {
    const missing = randomUUID();
    expect((await inject('GET', `/api/settings/lease-terms?facilityId=${missing}`)).statusCode).toBe(404);
    expect((await inject('PUT', '/api/settings/lease-terms', { facilityId: missing, terms: ownTerms })).statusCode).toBe(404);
    expect(await eventsOf(missing)).toEqual([]);
    expect((await inject('GET', '/api/settings/lease-terms?facilityId=nope')).json().field).toBe('facilityId');
  });

  it('lets a manager save them, and refuses clerks and auditors (who may read them), writing nothing', async () => {
    const manager = await platform.signIn('manager');
    expect((await inject('PUT', '/api/settings/lease-terms', { facilityId: null, terms: businessTerms }, manager)).statusCode).toBe(200);
    const before = (await eventsOf('business')).length;
    for (const role of ['clerk', 'auditor'] as const) {
      const cookie = await platform.signIn(role);
      expect((await inject('PUT', '/api/settings/lease-terms', { facilityId: null, terms: null }, cookie)).statusCode, role).toBe(403);
      expect((await inject('GET', '/api/settings/lease-terms', undefined, cookie)).statusCode, role).toBe(200);
    }
    expect((await eventsOf('business')).length).toBe(before);
  });
});

import { randomUUID } from 'node:crypto';
import { defaultBillingSettings } from '@storage/contracts/billing';
import { streams } from '@storage/contracts/events';
import { LEASE_CHANGED_SINCE_OPENED, LeaseSignature, LeaseToSign } from '@storage/contracts/lease-signatures';
import { Lease } from '@storage/contracts/leases';
import type { CommandContext } from '@storage/domain/commands/handle';
import { addFacility } from '@storage/domain/facilities/commands';
import { leaseDocumentSha256 } from '@storage/domain/leases/signature';
import { addUnit } from '@storage/domain/units/commands';
import type { Position } from '@storage/eventstore/port';
import { readModelProjections } from '@storage/projector/projections';
import { describeDifference, verifyReadModel } from '@storage/projector/verify';
import { sessionCookie, startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { pdfPagesText } from './pdf-text.ts';

const tag = () => Math.random().toString(36).slice(2, 8);
let nextIp = 1;
const freshIp = () => `10.9.${Math.floor(nextIp / 250)}.${(nextIp++ % 250) + 1}`;
const MARK = 'M 10 40 C 30 10, 50 70, 70 40 L 120 35';

describe('signing the lease', () => {
  let platform: TestPlatform;
  let owner: string;
  const inject = (
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    options: { payload?: unknown; cookie?: string; headers?: Record<string, string>; ip?: string } = {},
  ) =>
    platform.api.app.inject({
      method,
      url,
      payload: options.payload as object,
      headers: { ...(options.cookie ? { cookie: options.cookie } : {}), ...options.headers },
      remoteAddress: options.ip,
    });
  const context = (): CommandContext => ({ store: platform.api.store, actor: { type: 'system' }, correlationId: randomUUID(), now: new Date() });
  const projected = async (result: { position: Position | null }) => {
    if (result.position) await platform.api.afterAppend(result.position, 10_000);
  };

  async function moveIn() {
    const facilityId = randomUUID();
    await projected(
      await addFacility(context(), { name: `Sign Test ${tag()}`, address: '1 Test Way', phone: null, managerName: 'Maria Gonzalez' }, facilityId),
    );
    const unitId = randomUUID();
    const unit = {
      facilityId,
      unitNumber: `S-${tag()}`,
      building: 'A',
      size: '10x10' as const,
      monthlyRate: '120.00',
      status: 'available' as const,
      description: null,
    };
    await projected(await addUnit(context(), unit, unitId));
    const phone = `555-01${String(Math.floor(Math.random() * 100)).padStart(2, '0')}-${String(Math.floor(Math.random() * 10000)).padStart(4, '0')}`;
    const customer = await inject('POST', '/api/customers', {
      cookie: owner,
      payload: { firstName: 'Ada', lastName: `Signer${tag()}`, email: `ada-${tag()}-${tag()}@example.com`, phone, facilityId },
    });
    expect(customer.statusCode, customer.body).toBe(201);
    const { id: customerId, email } = customer.json() as { id: string; email: string };
    const response = await inject('POST', '/api/leases', {
      cookie: owner,
      payload: { customerId, unitId, monthlyRate: '120.00', depositAmount: '60.00', startDate: '2025-03-01' },
    });
    expect(response.statusCode, response.body).toBe(201);
    return { lease: Lease.parse(response.json()), facilityId, email, phone };
  }

  async function renterSession(email: string, phone: string) {
    const response = await inject('POST', '/api/customer/verify', { payload: { email, phoneLast4: phone.slice(-4) }, ip: freshIp() });
    expect(response.statusCode, response.body).toBe(200);
    return sessionCookie(response.headers['set-cookie']);
  }

  const toSign = async (url: string, cookie: string) => {
    const response = await inject('GET', url, { cookie });
    expect(response.statusCode, response.body).toBe(200);
    return LeaseToSign.parse(response.json());
  };

  beforeAll(async () => {
    platform = await startTestPlatform();
    owner = await platform.signIn('owner');
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('records a desk signature with the request’s IP and user agent and the hash the server computed, and a repeat answers it', async () => {
    const { lease } = await moveIn();
    const clerk = await platform.signIn('clerk');
    const shown = await toSign(`/api/leases/${lease.id}/signature`, clerk);
    expect(shown.signature).toBeNull();
    const awaiting = await inject('GET', `/api/leases?search=${encodeURIComponent(lease.unit.unitNumber)}&signature=awaiting`, { cookie: owner });
    expect((awaiting.json() as Lease[]).map((l) => [l.id, l.signature])).toEqual([[lease.id, null]]);
    expect(shown.text).toContain('Rent is due on the 1st of each month.');

    const signed = await inject('POST', `/api/leases/${lease.id}/signature`, {
      cookie: clerk,
      payload: { signerName: 'Ada Lovelace', mark: MARK, documentSha256: shown.documentSha256 },
      headers: { 'user-agent': 'DeskTablet/1.0' },
      ip: '203.0.113.9',
    });
    expect(signed.statusCode, signed.body).toBe(201);
    const signature = LeaseSignature.parse(signed.json());
    expect(signature).toMatchObject({
      leaseId: lease.id,
      customerId: lease.customer.id,
      signerName: 'Ada Lovelace',
      channel: 'desk',
      ipAddress: '203.0.113.9',
      userAgent: 'DeskTablet/1.0',
      documentSha256: shown.documentSha256,
      mark: MARK,
    });

    const events = await platform.api.store.readStream(streams.lease(lease.id));
    const recorded = events.filter((e) => e.type === 'lease_signed');
    expect(recorded).toHaveLength(1);
    expect(recorded[0]!.id).toBe(signature.eventId);
    // The hash is the domain's, over the document as recorded: never the client's word.
    expect(leaseDocumentSha256((recorded[0]!.data as { document: Parameters<typeof leaseDocumentSha256>[0] }).document)).toBe(shown.documentSha256);

    const again = await inject('POST', `/api/leases/${lease.id}/signature`, { cookie: clerk, payload: { signerName: 'Someone Else', mark: MARK } });
    expect(again.statusCode).toBe(200);
    expect(LeaseSignature.parse(again.json())).toEqual(signature);
    expect((await platform.api.store.readStream(streams.lease(lease.id))).filter((e) => e.type === 'lease_signed')).toHaveLength(1);

    const list = await inject('GET', `/api/leases?search=${encodeURIComponent(lease.unit.unitNumber)}`, { cookie: owner });
    expect((list.json() as Lease[])[0]!.signature).toEqual({ signerName: 'Ada Lovelace', signedAt: signature.signedAt, channel: 'desk' });
    const search = `search=${encodeURIComponent(lease.unit.unitNumber)}`;
    expect((await inject('GET', `/api/leases?${search}&signature=awaiting`, { cookie: owner })).json()).toEqual([]);
    expect((await inject('GET', `/api/leases?${search}&signature=signed`, { cookie: owner })).json()).toHaveLength(1);
  });

  it('prints the renter, the unit, the rent and the facility as their streams hold them: rows the projector has not brought up to date change nothing', async () => {
    const { lease, facilityId } = await moveIn();
    const shown = await toSign(`/api/leases/${lease.id}/signature`, owner);
    const name = await platform.api.pool.oneFirst(sql.type(z.object({ name: z.string() }))`SELECT name FROM facilities WHERE id = ${facilityId}`);
    for (const text of [`${name}, 1 Test Way`, 'Maria Gonzalez', 'Name: Ada', `Unit Number: ${lease.unit.unitNumber}`, '$120.00'])
      expect(shown.text).toContain(text);
    // The read model's rows say otherwise, as rows behind their streams would: the document the
    // signature's check renders must follow none of them.
    const stale = [
      sql.unsafe`UPDATE facilities SET name = 'Stale Row', manager_name = 'Someone Stale' WHERE id = ${facilityId}`,
      sql.unsafe`UPDATE customers SET first_name = 'Stale' WHERE id = ${lease.customer.id}`,
      sql.unsafe`UPDATE units SET unit_number = 'Stale-1' WHERE id = ${lease.unit.id}`,
      sql.unsafe`UPDATE leases SET monthly_rate = 999.00 WHERE id = ${lease.id}`,
    ];
    const restore = [
      sql.unsafe`UPDATE facilities SET name = ${name}, manager_name = 'Maria Gonzalez' WHERE id = ${facilityId}`,
      sql.unsafe`UPDATE customers SET first_name = 'Ada' WHERE id = ${lease.customer.id}`,
      sql.unsafe`UPDATE units SET unit_number = ${lease.unit.unitNumber} WHERE id = ${lease.unit.id}`,
      sql.unsafe`UPDATE leases SET monthly_rate = 120.00 WHERE id = ${lease.id}`,
    ];
    for (const statement of stale) await platform.api.pool.query(statement);
    try {
      const again = await toSign(`/api/leases/${lease.id}/signature`, owner);
      expect(again.text).not.toContain('Stale');
      expect(again.text).not.toContain('999');
      expect(again.documentSha256).toBe(shown.documentSha256);
      const signed = await inject('POST', `/api/leases/${lease.id}/signature`, {
        cookie: owner,
        payload: { signerName: 'Ada Lovelace', mark: MARK, documentSha256: shown.documentSha256 },
      });
      expect(signed.statusCode, signed.body).toBe(201);
    } finally {
      for (const statement of restore) await platform.api.pool.query(statement);
    }
  });

  it('refuses an auditor, and 401 signed out', async () => {
    const { lease } = await moveIn();
    const auditor = await platform.signIn('auditor');
    const refused = await inject('POST', `/api/leases/${lease.id}/signature`, { cookie: auditor, payload: { signerName: 'Ada Lovelace', mark: MARK } });
    expect(refused.statusCode).toBe(403);
    expect((await inject('POST', `/api/leases/${lease.id}/signature`, { payload: { signerName: 'Ada Lovelace', mark: MARK } })).statusCode).toBe(401);
    expect((await inject('POST', `/api/customer/leases/${lease.id}/signature`, { payload: { signerName: 'Ada Lovelace', mark: MARK } })).statusCode).toBe(401);
    expect((await platform.api.store.readStream(streams.lease(lease.id))).some((e) => e.type === 'lease_signed')).toBe(false);
    // Auditors read the signed PDF: 404 until there is one.
    expect((await inject('GET', `/api/leases/${lease.id}/signed.pdf`, { cookie: auditor })).statusCode).toBe(404);
  });

  it('answers 409 when the lease changed since the signer opened it, and then takes a signature of the new document', async () => {
    const { lease, facilityId } = await moveIn();
    const before = await toSign(`/api/leases/${lease.id}/signature`, owner);
    const first = await inject('POST', `/api/leases/${lease.id}/signature`, { cookie: owner, payload: { signerName: 'Ada Lovelace', mark: MARK } });
    expect(first.statusCode).toBe(201);

    const saved = await inject('PUT', '/api/settings/billing', {
      cookie: owner,
      payload: { facilityId, settings: { ...defaultBillingSettings, graceDays: 5 } },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const after = await toSign(`/api/leases/${lease.id}/signature`, owner);
    expect(after.text).toContain('unpaid 5 days after its due date (on the 6th of the month)');
    expect(after.documentSha256).not.toBe(before.documentSha256);
    expect(after.signedThisDocument).toBe(false);

    const stale = await inject('POST', `/api/leases/${lease.id}/signature`, {
      cookie: owner,
      payload: { signerName: 'Ada Lovelace', mark: MARK, documentSha256: before.documentSha256 },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(LEASE_CHANGED_SINCE_OPENED);

    const second = await inject('POST', `/api/leases/${lease.id}/signature`, {
      cookie: owner,
      payload: { signerName: 'Ada Lovelace', mark: MARK, documentSha256: after.documentSha256 },
    });
    expect(second.statusCode).toBe(201);
    expect(LeaseSignature.parse(second.json()).documentSha256).toBe(after.documentSha256);
    expect((await platform.api.store.readStream(streams.lease(lease.id))).filter((e) => e.type === 'lease_signed')).toHaveLength(2);

    // The list shows the newest signature, and a rebuild from the events gives the same tables.
    const [shown] = (await inject('GET', `/api/leases?search=${encodeURIComponent(lease.unit.unitNumber)}`, { cookie: owner })).json() as Lease[];
    expect(shown!.signature?.signedAt).toBe(LeaseSignature.parse(second.json()).signedAt);
    const verification = await verifyReadModel(platform.api.pool, platform.api.store, readModelProjections);
    expect(verification.differences.map(describeDifference)).toEqual([]);
  });

  it('refuses a mark over 64 KB, one that is not a path or PNG, and a missing name, naming the field, and records nothing', async () => {
    const { lease } = await moveIn();
    const cases = [
      { payload: { signerName: 'Ada Lovelace', mark: `M 0 0 ${'L 1 1 '.repeat(11_000)}` }, field: 'mark' },
      { payload: { signerName: 'Ada Lovelace', mark: '<script>alert(1)</script>' }, field: 'mark' },
      { payload: { signerName: 'Ada Lovelace', mark: `data:image/png;base64,${Buffer.from('not a png at all').toString('base64')}` }, field: 'mark' },
      { payload: { signerName: '  ', mark: MARK }, field: 'signerName' },
      { payload: { signerName: 'Ada Lovelace', mark: MARK, documentSha256: 'abc' }, field: 'documentSha256' },
    ];
    for (const { payload, field } of cases) {
      const response = await inject('POST', `/api/leases/${lease.id}/signature`, { cookie: owner, payload });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().field ?? response.json().message).toContain(field);
    }
    expect((await platform.api.store.readStream(streams.lease(lease.id))).some((e) => e.type === 'lease_signed')).toBe(false);
    expect(
      (await inject('POST', `/api/leases/${randomUUID()}/signature`, { cookie: owner, payload: { signerName: 'Ada Lovelace', mark: MARK } })).statusCode,
    ).toBe(404);
  });

  it('refuses to sign a lease that has ended', async () => {
    const { lease } = await moveIn();
    const ended = await inject('POST', `/api/leases/${lease.id}/end`, { cookie: owner, payload: { endDate: '2025-04-30' } });
    expect(ended.statusCode, ended.body).toBe(200);
    const refused = await inject('POST', `/api/leases/${lease.id}/signature`, { cookie: owner, payload: { signerName: 'Ada Lovelace', mark: MARK } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('ended');
  });

  it('lets a renter sign their own lease online and download it; another renter’s lease is 404', async () => {
    const mine = await moveIn();
    const theirs = await moveIn();
    const cookie = await renterSession(mine.email, mine.phone);

    for (const [method, url] of [
      ['GET', `/api/customer/leases/${theirs.lease.id}/signature`],
      ['POST', `/api/customer/leases/${theirs.lease.id}/signature`],
      ['GET', `/api/customer/leases/${theirs.lease.id}/signed.pdf`],
    ] as const) {
      const response = await inject(method, url, { cookie, payload: method === 'POST' ? { signerName: 'Ada Lovelace', mark: MARK } : undefined });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await inject('GET', `/api/customer/leases/${mine.lease.id}/signed.pdf`, { cookie })).statusCode).toBe(404);

    const shown = await toSign(`/api/customer/leases/${mine.lease.id}/signature`, cookie);
    const signed = await inject('POST', `/api/customer/leases/${mine.lease.id}/signature`, {
      cookie,
      payload: { signerName: 'Ada Lovelace', mark: MARK, documentSha256: shown.documentSha256 },
      headers: { 'user-agent': 'RenterPhone/2.0' },
      ip: '198.51.100.4',
    });
    expect(signed.statusCode, signed.body).toBe(201);
    const signature = LeaseSignature.parse(signed.json());
    expect(signature).toMatchObject({ channel: 'online', ipAddress: '198.51.100.4', userAgent: 'RenterPhone/2.0' });
    const event = (await platform.api.store.readStream(streams.lease(mine.lease.id))).find((e) => e.type === 'lease_signed')!;
    expect(event.metadata.actor).toEqual({ type: 'customer', id: mine.lease.customer.id });
    // Staff cannot be a renter's session, nor a renter staff.
    expect((await inject('POST', `/api/leases/${mine.lease.id}/signature`, { cookie, payload: { signerName: 'Ada', mark: MARK } })).statusCode).toBe(401);

    const pdf = await inject('GET', `/api/customer/leases/${mine.lease.id}/signed.pdf`, { cookie });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
    const pages = pdfPagesText(pdf.rawPayload);
    const certificate = pages.at(-1)!;
    expect(certificate).toContain('Certificate of Signature');
    expect(certificate).toContain(signature.documentSha256);
    expect(certificate).toContain(signature.eventId);
    expect(certificate).toContain('198.51.100.4');
    expect(certificate).toContain('RenterPhone/2.0');
    expect(certificate).toContain('Online');
    expect(pages[0]).toContain('Storage Unit Lease Agreement');
  });

  it('gives staff and auditors the signed PDF with the certificate page', async () => {
    const { lease } = await moveIn();
    const signed = LeaseSignature.parse(
      (
        await inject('POST', `/api/leases/${lease.id}/signature`, { cookie: owner, payload: { signerName: 'Ada Lovelace', mark: MARK }, ip: '192.0.2.44' })
      ).json(),
    );
    const auditor = await platform.signIn('auditor');
    const pdf = await inject('GET', `/api/leases/${lease.id}/signed.pdf`, { cookie: auditor });
    expect(pdf.statusCode).toBe(200);
    const certificate = pdfPagesText(pdf.rawPayload).at(-1)!;
    expect(certificate).toContain(signed.documentSha256);
    expect(certificate).toContain('192.0.2.44');
    expect(certificate).toContain('At the desk');
  });
});

import { randomUUID } from 'node:crypto';
import { GateCode } from '@storage/contracts/access';
import { defaultBillingSettings } from '@storage/contracts/billing';
import { LeaseToSign } from '@storage/contracts/lease-signatures';
import { Lease } from '@storage/contracts/leases';
import { PortalUnit } from '@storage/contracts/portal';
import type { CommandContext } from '@storage/domain/commands/handle';
import { addFacility } from '@storage/domain/facilities/commands';
import { updateBillingSettings } from '@storage/domain/settings/commands';
import { addUnit } from '@storage/domain/units/commands';
import { wakeOutbox } from '@storage/projector/outbox/signal';
import { sessionCookie, startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { startSmtpServer, type TestSmtpServer, mailText as textOf } from '@storage/testing/smtp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

// A facility that asks for a signed lease before access: the desk move-in's gate code is assigned
// but opens nothing, and the welcome with the code is not mailed, until the renter signs; the
// signature opens it and mails it (a real SMTP server). A facility that does not ask keeps today's
// move-in: the code opens the gate at once.

const tag = () => Math.random().toString(36).slice(2, 8);
const MARK = 'M 10 40 C 30 10, 50 70, 70 40 L 120 35';

describe('gate access that waits for the signed lease', () => {
  let platform: TestPlatform;
  let smtp: TestSmtpServer;
  let owner: string;
  const context = (): CommandContext => ({ store: platform.api.store, actor: { type: 'system' }, correlationId: randomUUID(), now: new Date() });
  const inject = (method: 'GET' | 'POST', url: string, payload?: object) => platform.api.app.inject({ method, url, payload, headers: { cookie: owner } });
  const gateCodes = async (customerId: string) => z.array(GateCode).parse((await inject('GET', `/api/customers/${customerId}/gate-codes`)).json());
  const welcomesTo = (email: string) => smtp.received.filter((m) => m.to.includes(email) && m.raw.includes('Subject: Welcome to'));

  beforeAll(async () => {
    smtp = await startSmtpServer();
    platform = await startTestPlatform({
      billing: false,
      config: { smtpUrl: `smtp://127.0.0.1:${smtp.port}`, mailFrom: 'office@signed.test', publicUrl: 'https://storage.test' },
    });
    owner = await platform.signIn('owner');
  });
  afterAll(async () => {
    await platform?.close();
    await smtp?.close();
  });

  async function deskMoveIn(signatureBeforeAccess: boolean, accessHours: { opensAt: string; closesAt: string } | null = null) {
    const facilityId = randomUUID();
    await addFacility(context(), { name: `Signed ${tag()}`, address: '1 Test Way', phone: null, managerName: 'Maria Gonzalez', accessHours }, facilityId);
    await updateBillingSettings(context(), { ...defaultBillingSettings, signatureBeforeAccess }, facilityId);
    const unitId = randomUUID();
    const unit = {
      facilityId,
      unitNumber: `G-${tag()}`,
      building: 'A',
      size: '10x10' as const,
      monthlyRate: '120.00',
      status: 'available' as const,
      description: null,
    };
    const added = await addUnit(context(), unit, unitId);
    if (added.position) await platform.api.afterAppend(added.position, 10_000);
    const email = `gail-${tag()}-${tag()}@example.com`;
    const phone = `555-03${String(Math.floor(Math.random() * 100)).padStart(2, '0')}-${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`;
    const customer = await inject('POST', '/api/customers', { firstName: 'Gail', lastName: `Gate${tag()}`, email, phone, facilityId });
    expect(customer.statusCode, customer.body).toBe(201);
    const customerId = customer.json().id as string;
    const moved = await inject('POST', '/api/leases', { customerId, unitId, monthlyRate: '120.00', depositAmount: null, startDate: '2026-03-01' });
    expect(moved.statusCode, moved.body).toBe(201);
    return { lease: Lease.parse(moved.json()), customerId, email, phone };
  }

  it('holds the code and the welcome until the renter signs at the desk, then opens the gate and mails the code', async () => {
    const { lease, customerId, email, phone } = await deskMoveIn(true);
    await expect.poll(async () => (await gateCodes(customerId)).map((c) => [c.status, c.suspendedReason])).toEqual([['suspended', 'unsigned']]);
    // The renter's portal says why the code does not open the gate yet.
    const verified = await platform.api.app.inject({
      method: 'POST',
      url: '/api/customer/verify',
      payload: { email, phoneLast4: phone.slice(-4) },
      remoteAddress: `10.61.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
    });
    expect(verified.statusCode, verified.body).toBe(200);
    const renter = sessionCookie(verified.headers['set-cookie']);
    const units = z.array(PortalUnit).parse((await platform.api.app.inject({ method: 'GET', url: '/api/customer/units', headers: { cookie: renter } })).json());
    expect(units.map((u) => u.gateCode && { active: u.gateCode.active, awaitingSignature: u.gateCode.awaitingSignature })).toEqual([
      { active: false, awaitingSignature: true },
    ]);
    // Every reaction has acted on the move-in and the outbox has nothing pending: still no welcome.
    expect(await platform.reactionsCaughtUp()).toBe(true);
    wakeOutbox();
    expect(welcomesTo(email)).toHaveLength(0);

    const shown = LeaseToSign.parse((await inject('GET', `/api/leases/${lease.id}/signature`)).json());
    const signed = await inject('POST', `/api/leases/${lease.id}/signature`, { signerName: 'Gail Gate', mark: MARK, documentSha256: shown.documentSha256 });
    expect(signed.statusCode, signed.body).toBe(201);
    await expect.poll(async () => (await gateCodes(customerId)).map((c) => [c.status, c.suspendedReason])).toEqual([['active', null]]);
    const [code] = await gateCodes(customerId);
    await expect.poll(() => welcomesTo(email).length, { timeout: 20_000 }).toBe(1);
    expect(textOf(welcomesTo(email)[0]!.raw)).toContain(`Your gate code is ${code!.code}, and you can come in 24/7.`);
  });

  it('opens the gate at move-in where the facility does not ask for a signature first, and the welcome says its gate hours', async () => {
    const { customerId, email } = await deskMoveIn(false, { opensAt: '06:00', closesAt: '22:00' });
    await expect.poll(async () => (await gateCodes(customerId)).map((c) => [c.status, c.suspendedReason])).toEqual([['active', null]]);
    await expect.poll(() => welcomesTo(email).length, { timeout: 20_000 }).toBe(1);
    expect(textOf(welcomesTo(email)[0]!.raw)).toContain('and you can come in 6:00 AM – 10:00 PM every day.');
  });
});

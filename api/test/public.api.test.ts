import { randomUUID } from 'node:crypto';
import { streams } from '@storage/contracts/events';
import { AvailableUnit, UNIT_TAKEN_MESSAGE } from '@storage/contracts/public';
import { type CommandContext, loadAggregate } from '@storage/domain/commands/handle';
import { addCustomer } from '@storage/domain/customers/commands';
import { addFacility } from '@storage/domain/facilities/commands';
import { reservationAggregate } from '@storage/domain/reservations/reservation';
import { addUnit } from '@storage/domain/units/commands';
import { unitAggregate } from '@storage/domain/units/unit';
import type { Position } from '@storage/eventstore/port';
import { confirmationToken, reserveOnline } from '@storage/testing/online-reservations';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { mailText, startSmtpServer, type TestSmtpServer } from '@storage/testing/smtp';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

const tag = () => Math.random().toString(36).slice(2, 8);
let address = 0;
/** Each call from its own address, so the per-address limit does not get in the way of the test. */
const nextAddress = () => `10.0.${Math.floor(++address / 250)}.${(address % 250) + 1}`;

describe('public API', () => {
  let platform: TestPlatform;
  let smtp: TestSmtpServer;
  const context = (): CommandContext => ({ store: platform.api.store, actor: { type: 'system' }, correlationId: randomUUID(), now: new Date() });
  const projected = async (result: { position: Position | null }) => {
    if (result.position) await platform.api.afterAppend(result.position, 10_000);
  };
  const post = (url: string, payload: unknown, remoteAddress = nextAddress()) =>
    platform.api.app.inject({ method: 'POST', url, payload: payload as object, remoteAddress });
  const get = (url: string) => platform.api.app.inject({ method: 'GET', url });

  let facilityId: string;
  async function newUnit(fields: { size?: '5x5' | '10x10'; status?: 'available' | 'maintenance'; description?: string | null } = {}) {
    const unitId = randomUUID();
    await projected(
      await addUnit(
        context(),
        {
          facilityId,
          unitNumber: `P-${tag()}`,
          building: 'B',
          size: fields.size ?? '10x10',
          monthlyRate: '129.99',
          status: fields.status ?? 'available',
          description: fields.description ?? null,
        },
        unitId,
      ),
    );
    return unitId;
  }

  const customerData = (overrides: Record<string, unknown> = {}) => ({
    firstName: 'Rita',
    lastName: 'Renter',
    email: `rita-${tag()}-${tag()}@example.com`,
    // Each visitor's own phone: one renter (by email or phone) holds at most 2 units online.
    phone: `555-010-${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`,
    address: '12 Elm Street, Springfield',
    emergencyContact: 'Sam Renter',
    emergencyPhone: '555-010-9900',
    moveInDate: new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10),
    specialRequests: 'Ground floor please',
    ...overrides,
  });

  async function unitOf(unitId: string) {
    const { state } = await loadAggregate(platform.api.store, streams.unit(unitId), unitAggregate);
    if (state.status !== 'current') throw new Error('no unit');
    return state;
  }

  /** Asks for the unit and confirms it from the mailed link, as a visitor does. */
  const reserve = (payload: { unitId: string; customerData: ReturnType<typeof customerData> }, remoteAddress = nextAddress()) =>
    reserveOnline(platform.api.app, smtp, payload, remoteAddress);
  const confirm = (token: string) => post('/api/public/reservations/confirm', { token });

  beforeAll(async () => {
    smtp = await startSmtpServer();
    platform = await startTestPlatform({
      config: { smtpUrl: `smtp://127.0.0.1:${smtp.port}`, mailFrom: 'office@public.test', publicUrl: 'https://storage.test' },
    });
    facilityId = randomUUID();
    await projected(await addFacility(context(), { name: `Public Test ${tag()}`, address: '1 Way', phone: null, managerName: null }, facilityId));
  });
  afterAll(async () => {
    await platform?.close();
    await smtp?.close();
  });

  it('lists only available units, with their facility, without a session', async () => {
    const available = await newUnit({ size: '5x5', description: 'Near the gate' });
    const underMaintenance = await newUnit({ status: 'maintenance' });
    const response = await get(`/api/public/units/available?facilityId=${facilityId}`);
    expect(response.statusCode).toBe(200);
    const units = AvailableUnit.array().parse(response.json());
    const ids = units.map((u) => u.id);
    expect(ids).toContain(available);
    expect(ids).not.toContain(underMaintenance);
    const unit = units.find((u) => u.id === available)!;
    expect(unit).toMatchObject({
      building: 'B',
      monthlyRate: '129.99',
      size: '5x5',
      description: 'Near the gate',
      facility: { id: facilityId, accessHours: '24/7' },
    });

    const bySize = AvailableUnit.array().parse((await get(`/api/public/units/available?facilityId=${facilityId}&size=10x10`)).json());
    expect(bySize.map((u) => u.id)).not.toContain(available);
  });

  it('answers 400 naming the field for bad input on every public call, and writes nothing', async () => {
    // Nothing still on its way from what came before (a lease's gate code is the access reaction's, after the command answered).
    expect(await platform.reactionsCaughtUp()).toBe(true);
    const headBefore = await platform.api.store.newestPosition();
    for (const [url, field] of [
      ['/api/public/units/available?facilityId=nope', 'facilityId'],
      ['/api/public/units/available?size=3x3', 'size'],
      ['/api/public/units/available?colour=red', 'colour'],
    ] as const) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().message, url).toContain(field);
    }
    const waitlist = { firstName: 'Wes', lastName: 'Waiter', email: 'wes@example.com', phone: '555-0100' };
    for (const [body, field] of [
      [{ ...waitlist, firstName: '' }, 'firstName'],
      [{ ...waitlist, lastName: undefined }, 'lastName'],
      [{ ...waitlist, email: 'not-an-email' }, 'email'],
      [{ ...waitlist, phone: undefined }, 'phone'],
      [{ ...waitlist, size: '3x3' }, 'size'],
      [{ ...waitlist, facilityId: 'x' }, 'facilityId'],
    ] as const) {
      const response = await post('/api/public/waitlist', body);
      expect(response.statusCode, field).toBe(400);
      expect(response.json().message, field).toContain(field);
    }
    const unitId = randomUUID();
    for (const [body, field] of [
      [{ unitId: 'x', customerData: customerData() }, 'unitId'],
      [{ unitId }, 'customerData'],
      [{ unitId, customerData: customerData({ firstName: ' ' }) }, 'customerData.firstName'],
      [{ unitId, customerData: customerData({ email: 'bad' }) }, 'customerData.email'],
      [{ unitId, customerData: customerData({ phone: undefined }) }, 'customerData.phone'],
      [{ unitId, customerData: customerData({ address: 'x'.repeat(501) }) }, 'customerData.address'],
      [{ unitId, customerData: customerData({ moveInDate: '2025-13-40' }) }, 'customerData.moveInDate'],
      [{ unitId, customerData: customerData({ moveInDate: '2020-01-01' }) }, 'customerData.moveInDate'],
      [{ unitId, customerData: customerData({ specialRequests: 'x'.repeat(1001) }) }, 'customerData.specialRequests'],
    ] as const) {
      const response = await post('/api/public/reservations', body);
      expect(response.statusCode, field).toBe(400);
      expect(response.json().message, field).toContain(field);
    }
    expect(await platform.api.store.newestPosition()).toEqual(headBefore);
  });

  it('answers 404 for a unit that does not exist', async () => {
    const response = await post('/api/public/reservations', { unitId: randomUUID(), customerData: customerData() });
    expect(response.statusCode).toBe(404);
  });

  it('puts a renter on the waiting list, which staff see', async () => {
    const email = `wait-${tag()}@example.com`;
    const response = await post('/api/public/waitlist', { firstName: 'Wes', lastName: 'Waiter', email, phone: '555-0100', size: '10x10', facilityId });
    expect(response.statusCode).toBe(201);
    const cookie = await platform.signIn('clerk');
    const list = await platform.api.app.inject({ method: 'GET', url: '/api/waitlist', headers: { cookie } });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toContainEqual(expect.objectContaining({ email, size: '10x10', facilityId, firstName: 'Wes' }));
  });

  it('holds nothing and adds no customer for a request until the visitor confirms it from the link mailed to the email they typed', async () => {
    const unitId = await newUnit();
    const data = customerData();
    const asked = await post('/api/public/reservations', { unitId, customerData: data });
    expect(asked.statusCode, asked.body).toBe(201);
    expect(asked.json()).toEqual({
      unitId,
      moveInDate: data.moveInDate,
      confirmBy: expect.any(String),
      message: 'Check your email: confirm your reservation from the link we sent you to hold the unit.',
    });
    expect(Date.parse(asked.json().confirmBy) - Date.now()).toBeGreaterThan(23 * 3_600_000);
    // Still on the market, and no record of the visitor.
    expect((await unitOf(unitId)).fields.status).toBe('available');
    await caughtUp();
    expect(await customersWithEmail(data.email)).toEqual([]);
    const available = AvailableUnit.array().parse((await get(`/api/public/units/available?facilityId=${facilityId}`)).json());
    expect(available.map((u) => u.id)).toContain(unitId);
    const mail = smtp.received.filter((m) => m.to.includes(data.email));
    expect(mail).toHaveLength(1);
    expect(mailText(mail[0]!.raw)).toContain('https://storage.test/reservations/confirm?token=');
    // Only a hash of the link's token is kept.
    const token = confirmationToken(smtp, data.email);
    expect(JSON.stringify(await platform.api.pool.any(sql.unsafe`SELECT * FROM online_reservation_requests WHERE email = ${data.email}`))).not.toContain(token);

    const confirmed = await confirm(token);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(Object.keys(confirmed.json()).sort()).toEqual(['moveInDate', 'reservationId', 'unitId']);
    const unit = await unitOf(unitId);
    expect(unit.fields.status).toBe('reserved');
    expect(unit.reservationId).toBe(confirmed.json().reservationId);
    await caughtUp();
    expect(await customersWithEmail(data.email)).toHaveLength(1);
    // The link again: the same reservation, nothing more.
    const again = await confirm(token);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(confirmed.json());
  });

  it('refuses a link no request has (404), and one whose day has passed (410), naming the token', async () => {
    const unknown = await confirm('not-a-token');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ field: 'token', message: 'This link does not confirm any reservation. Please check the link in your email.' });
    const data = customerData();
    expect((await post('/api/public/reservations', { unitId: await newUnit(), customerData: data })).statusCode).toBe(201);
    await platform.api.pool.query(sql.unsafe`UPDATE online_reservation_requests SET expires_at = now() - interval '1 second' WHERE email = ${data.email}`);
    const expired = await confirm(confirmationToken(smtp, data.email));
    expect(expired.statusCode).toBe(410);
    expect(expired.json()).toMatchObject({ field: 'token', message: 'This link has expired. Please reserve the unit again.' });
  });

  it('mails one email at most 3 links an hour, and lets one renter hold at most 2 units online', async () => {
    const email = `capped-${tag()}@example.com`;
    const phone = '555-030-4242';
    const units = await Promise.all(Array.from({ length: 4 }, () => newUnit()));
    const asked = [];
    for (const unitId of units) asked.push(await post('/api/public/reservations', { unitId, customerData: customerData({ email, phone }) }));
    expect(asked.map((r) => r.statusCode)).toEqual([201, 201, 201, 429]);
    expect(asked[3]!.json().message).toMatch(/^Too many reservation requests for this email\. Try again in \d+ minutes? or call us directly\.$/);
    expect(smtp.received.filter((m) => m.to.includes(email))).toHaveLength(3);
    // Two held at once; a third, by the same email or by the same phone under another email, waits for staff.
    const tokens = smtp.received.filter((m) => m.to.includes(email)).map((m) => /token=([A-Za-z0-9_-]+)/.exec(mailText(m.raw))![1]!);
    expect((await confirm(tokens[0]!)).statusCode).toBe(200);
    expect((await confirm(tokens[1]!)).statusCode).toBe(200);
    const third = await confirm(tokens[2]!);
    expect(third.statusCode).toBe(409);
    expect(third.json().message).toBe('You already hold 2 units reserved online. Please call us to reserve more.');
    const samePhone = await reserve({ unitId: await newUnit(), customerData: customerData({ phone: '(555) 030-4242' }) });
    expect(samePhone.statusCode).toBe(409);
  });

  it('gives a unit to exactly one of fifty simultaneous confirmations; the rest hear it was taken', async () => {
    const unitId = await newUnit();
    const visitors = Array.from({ length: 50 }, (_, i) => customerData({ phone: `555-020-${String(i).padStart(4, '0')}` }));
    for (const data of visitors) expect((await post('/api/public/reservations', { unitId, customerData: data })).statusCode).toBe(201);
    const responses = await Promise.all(visitors.map((data) => confirm(confirmationToken(smtp, data.email))));
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    for (const loser of responses.filter((r) => r.statusCode === 409)) expect(loser.json().message).toBe(UNIT_TAKEN_MESSAGE);
    const winner = responses.find((r) => r.statusCode === 200)!.json() as { reservationId: string };
    const unit = await unitOf(unitId);
    expect(unit.fields.status).toBe('reserved');
    expect(unit.reservationId).toBe(winner.reservationId);
    const available = AvailableUnit.array().parse((await get(`/api/public/units/available?facilityId=${facilityId}`)).json());
    expect(available.map((u) => u.id)).not.toContain(unitId);
    // A request for a unit already held is refused at once.
    const late = await post('/api/public/reservations', { unitId, customerData: customerData() });
    expect(late.statusCode).toBe(409);
  });

  it('answers a replayed request (same Idempotency-Key) with the first answer, mailing once', async () => {
    const unitId = await newUnit();
    const request = { method: 'POST' as const, url: '/api/public/reservations', remoteAddress: nextAddress(), headers: { 'idempotency-key': randomUUID() } };
    const payload = { unitId, customerData: customerData() };
    const first = await platform.api.app.inject({ ...request, payload });
    const replay = await platform.api.app.inject({ ...request, payload });
    expect(first.statusCode).toBe(201);
    expect(replay.statusCode).toBe(201);
    expect(replay.json()).toEqual(first.json());
    expect(smtp.received.filter((m) => m.to.includes(payload.customerData.email))).toHaveLength(1);
  });

  async function reservationOf(reservationId: string) {
    const { state } = await loadAggregate(platform.api.store, streams.reservation(reservationId), reservationAggregate);
    if (state.status !== 'submitted') throw new Error(`reservation is ${state.status}`);
    return state;
  }
  const caughtUp = async () => {
    const head = await platform.api.store.newestPosition();
    if (head) await platform.api.afterAppend(head, 10_000);
  };
  const customersWithEmail = async (email: string) =>
    platform.api.pool.anyFirst(sql.type(z.object({ id: z.string() }))`SELECT id::text FROM customers WHERE lower(email) = lower(${email})`);

  it('attaches two simultaneous confirmations with one new email to one new customer', async () => {
    const email = `many-${tag()}@example.com`;
    const units = await Promise.all(Array.from({ length: 2 }, () => newUnit()));
    const tokens: string[] = [];
    for (const [i, unitId] of units.entries()) {
      expect((await post('/api/public/reservations', { unitId, customerData: customerData({ email: i % 2 ? email.toUpperCase() : email }) })).statusCode).toBe(
        201,
      );
      tokens.push(confirmationToken(smtp, email));
    }
    const responses = await Promise.all(tokens.map((token) => confirm(token)));
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200]);
    const reservations = await Promise.all(responses.map((r) => reservationOf((r.json() as { reservationId: string }).reservationId)));
    const customerIds = new Set(reservations.map((r) => r.details.customerId));
    expect(customerIds.size).toBe(1);
    expect([...customerIds][0]).not.toBeNull();
    await caughtUp();
    expect(await customersWithEmail(email)).toEqual([...customerIds]);
  });

  it("never answers an anonymous visitor with a customer's id, nor attaches them to an existing customer's account", async () => {
    const email = `known-${tag()}@example.com`;
    const existing = await addCustomer(context(), {
      firstName: 'Kim',
      lastName: 'Known',
      email,
      phone: null,
      address: null,
      emergencyContact: null,
      emergencyPhone: null,
      status: 'active',
      facilityId,
    });
    await projected(existing);
    const response = await reserve({
      unitId: await newUnit(),
      customerData: customerData({ email: email.toUpperCase(), firstName: 'Mallory' }),
    });
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.json()).sort()).toEqual(['moveInDate', 'reservationId', 'unitId']);
    expect(response.body).not.toContain(existing.state.status === 'current' ? existing.state.customerId : 'none');
    const reservation = await reservationOf(response.json().reservationId);
    // Kept as typed, for staff to match; not attached to Kim's account.
    expect(reservation.details.customerId).toBeNull();
    expect(reservation.details.contact).toMatchObject({ firstName: 'Mallory', email });
    await caughtUp();
    expect(await customersWithEmail(email)).toHaveLength(1);
  });

  it('limits public submissions per address', async () => {
    const from = nextAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await post('/api/public/waitlist', {}, from)).statusCode);
    expect(statuses.slice(0, 20).every((s) => s === 400)).toBe(true);
    expect(statuses[20]).toBe(429);
  });
});

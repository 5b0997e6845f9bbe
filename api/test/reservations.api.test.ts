import { randomUUID } from 'node:crypto';
import { streams } from '@storage/contracts/events';
import { Reservation } from '@storage/contracts/reservations';
import { type CommandContext, loadAggregate } from '@storage/domain/commands/handle';
import { addCustomer, archiveCustomer } from '@storage/domain/customers/commands';
import { leaseAggregate } from '@storage/domain/leases/lease';
import { completeScheduledMoveOut } from '@storage/domain/leases/scheduled-move-outs';
import { reservationAggregate } from '@storage/domain/reservations/reservation';
import { addUnit } from '@storage/domain/units/commands';
import { unitAggregate } from '@storage/domain/units/unit';
import type { Position } from '@storage/eventstore/port';
import { expireReservations } from '@storage/projector/jobs/reservation-expiry';
import { reserveOnline } from '@storage/testing/online-reservations';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { startSmtpServer, type TestSmtpServer } from '@storage/testing/smtp';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

const tag = () => Math.random().toString(36).slice(2, 8);

describe('reservations API (staff)', () => {
  let platform: TestPlatform;
  /** Online reservations are confirmed from the link mailed to the email typed. */
  let smtp: TestSmtpServer;
  let cookie: string;
  const context = (): CommandContext => ({ store: platform.api.store, actor: { type: 'system' }, correlationId: randomUUID(), now: new Date() });
  const projected = async (result: { position: Position | null }) => {
    if (result.position) await platform.api.afterAppend(result.position, 10_000);
  };
  const inject = (method: 'GET' | 'POST', url: string, payload?: unknown, as = cookie) =>
    platform.api.app.inject({ method, url, payload: payload as object, headers: as ? { cookie: as } : {} });

  async function reserved(email: string = `cora-${tag()}-${tag()}@example.com`) {
    const unitId = randomUUID();
    await projected(
      await addUnit(
        context(),
        { facilityId: null, unitNumber: `R-${tag()}`, building: 'C', size: '10x15', monthlyRate: '150.00', status: 'available', description: null },
        unitId,
      ),
    );
    const response = await reserveOnline(
      platform.api.app,
      smtp,
      {
        unitId,
        customerData: {
          firstName: 'Cora',
          lastName: 'Convert',
          email,
          phone: '555-0101',
          address: '3 Oak Road',
          emergencyContact: '',
          emergencyPhone: '',
          moveInDate: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
          specialRequests: '',
        },
      },
      `10.1.0.${Math.floor(Math.random() * 250) + 1}`,
    );
    expect(response.statusCode, response.body).toBe(200);
    const submitted = response.json() as { reservationId: string; moveInDate: string };
    const { state } = await loadAggregate(platform.api.store, streams.reservation(submitted.reservationId), reservationAggregate);
    if (state.status !== 'submitted') throw new Error('not submitted');
    return { unitId, customerId: state.details.customerId, email: email ?? '', ...submitted };
  }

  async function unitState(unitId: string) {
    const { state } = await loadAggregate(platform.api.store, streams.unit(unitId), unitAggregate);
    if (state.status !== 'current') throw new Error('no unit');
    return state;
  }

  async function openReservations() {
    const response = await inject('GET', '/api/reservations');
    expect(response.statusCode).toBe(200);
    return Reservation.array().parse(response.json());
  }

  beforeAll(async () => {
    smtp = await startSmtpServer();
    platform = await startTestPlatform({ config: { smtpUrl: `smtp://127.0.0.1:${smtp.port}` } });
    cookie = await platform.signIn();
  });
  afterAll(async () => {
    await platform?.close();
    await smtp?.close();
  });

  it('answers 401 when signed out, 403 to an auditor changing a reservation, 400 for bad input', async () => {
    const id = randomUUID();
    expect((await inject('GET', '/api/reservations', undefined, '')).statusCode).toBe(401);
    expect((await inject('POST', `/api/reservations/${id}/cancel`, {}, '')).statusCode).toBe(401);
    const auditor = await platform.signIn('auditor');
    expect((await inject('POST', `/api/reservations/${id}/cancel`, {}, auditor)).statusCode).toBe(403);
    const badId = await inject('POST', '/api/reservations/nope/convert', {});
    expect(badId.statusCode).toBe(400);
    expect(badId.json().message).toContain('id');
    const badDate = await inject('POST', `/api/reservations/${id}/convert`, { startDate: 'soon' });
    expect(badDate.statusCode).toBe(400);
    expect(badDate.json().message).toContain('startDate');
    expect((await inject('POST', `/api/reservations/${id}/convert`, {})).statusCode).toBe(404);
  });

  it('lists an open reservation, and converts it into a lease for the renter', async () => {
    const reservation = await reserved();
    expect((await openReservations()).find((r) => r.id === reservation.reservationId)).toMatchObject({
      status: 'submitted',
      unitId: reservation.unitId,
      customerId: reservation.customerId,
      customerName: 'Cora Convert',
      moveInDate: reservation.moveInDate,
      monthlyRate: '150.00',
      matchedCustomer: null,
    });
    expect(reservation.customerId).not.toBeNull();
    const converted = await inject('POST', `/api/reservations/${reservation.reservationId}/convert`, { depositAmount: '75.00' });
    expect(converted.statusCode).toBe(200);
    const { leaseId } = converted.json() as { leaseId: string };
    const unit = await unitState(reservation.unitId);
    expect(unit.fields.status).toBe('occupied');
    expect(unit.leaseId).toBe(leaseId);
    const lease = await inject('GET', `/api/leases/${leaseId}/document`);
    expect(lease.statusCode).toBe(200);
    expect((await openReservations()).map((r) => r.id)).not.toContain(reservation.reservationId);
    // A repeated convert changes nothing; cancelling a converted reservation is refused.
    expect((await inject('POST', `/api/reservations/${reservation.reservationId}/convert`, {})).statusCode).toBe(200);
    expect((await inject('POST', `/api/reservations/${reservation.reservationId}/cancel`, {})).statusCode).toBe(409);
  });

  it('cancels a reservation and frees its unit', async () => {
    const reservation = await reserved();
    const cancelled = await inject('POST', `/api/reservations/${reservation.reservationId}/cancel`, { reason: 'Renter called' });
    expect(cancelled.statusCode).toBe(204);
    expect((await unitState(reservation.unitId)).fields.status).toBe('available');
    expect((await openReservations()).map((r) => r.id)).not.toContain(reservation.reservationId);
    expect((await inject('POST', `/api/reservations/${reservation.reservationId}/convert`, {})).statusCode).toBe(409);
  });

  async function reservationState(reservationId: string) {
    return (await loadAggregate(platform.api.store, streams.reservation(reservationId), reservationAggregate)).state;
  }

  it('lets staff match a pending contact to the existing customer, or add a new one, when moving the renter in', async () => {
    const email = `kim-${tag()}@example.com`;
    const kim = await addCustomer(context(), {
      firstName: 'Kim',
      lastName: 'Known',
      email,
      phone: null,
      address: null,
      emergencyContact: null,
      emergencyPhone: null,
      status: 'active',
      facilityId: null,
    });
    await projected(kim);
    if (kim.state.status !== 'current') throw new Error('no customer');
    const kimId = kim.state.customerId;
    const pending = await reserved(email);
    expect(pending.customerId).toBeNull();
    expect((await openReservations()).find((r) => r.id === pending.reservationId)).toMatchObject({
      customerId: null,
      customerName: 'Cora Convert',
      customerEmail: email,
      matchedCustomer: { id: kimId, name: 'Kim Known' },
    });
    // Staff must choose; a new customer cannot take Kim's email.
    const unchosen = await inject('POST', `/api/reservations/${pending.reservationId}/convert`, {});
    expect(unchosen.statusCode).toBe(400);
    expect(unchosen.json().message).toContain('customerId');
    const both = await inject('POST', `/api/reservations/${pending.reservationId}/convert`, { customerId: kimId, createCustomer: true });
    expect(both.statusCode).toBe(400);
    expect((await inject('POST', `/api/reservations/${pending.reservationId}/convert`, { createCustomer: true })).statusCode).toBe(409);
    expect((await reservationState(pending.reservationId)).status).toBe('submitted');
    const linked = await inject('POST', `/api/reservations/${pending.reservationId}/convert`, { customerId: kimId });
    expect(linked.statusCode).toBe(200);
    const lease = await loadAggregate(platform.api.store, streams.lease(linked.json().leaseId), leaseAggregate);
    expect(lease.state.status === 'active' && lease.state.terms.customerId).toBe(kimId);

    // Kim moves out, pays what she owes and leaves; the next renter typing that email is added as a new customer at move-in.
    const another = await reserved(email);
    expect(another.customerId).toBeNull();
    if (lease.state.status !== 'active') throw new Error('no lease');
    // Her lease starts tomorrow: a move-out on that day is scheduled, and that day's process does it.
    const movedOut = await inject('POST', `/api/leases/${linked.json().leaseId}/end`, { endDate: lease.state.terms.startDate });
    expect(movedOut.statusCode, movedOut.body).toBe(200);
    await projected(await completeScheduledMoveOut(context(), linked.json().leaseId, lease.state.terms.startDate));
    const owed = (await inject('GET', `/api/customers/${kimId}/account`)).json().openBalance as string;
    if (owed !== '0.00') expect((await inject('POST', `/api/customers/${kimId}/payments`, { amount: owed, method: 'cash' })).statusCode).toBe(201);
    await projected(await archiveCustomer(context(), kimId));
    const added = await inject('POST', `/api/reservations/${another.reservationId}/convert`, { createCustomer: true });
    expect(added.statusCode).toBe(200);
    const newLease = await loadAggregate(platform.api.store, streams.lease(added.json().leaseId), leaseAggregate);
    if (newLease.state.status !== 'active') throw new Error('no lease');
    expect(newLease.state.terms.customerId).not.toBe(kimId);
    const customer = await inject('GET', `/api/customers/${newLease.state.terms.customerId}`);
    expect(customer.json()).toMatchObject({ firstName: 'Cora', lastName: 'Convert', email });
  });

  it('lets exactly one of a racing move-in and cancel win, ten times out of ten, as staff are told', async () => {
    const outcomes: string[] = [];
    for (let i = 0; i < 10; i++) {
      const reservation = await reserved();
      const [convert, cancel] = await Promise.all([
        inject('POST', `/api/reservations/${reservation.reservationId}/convert`, {}),
        inject('POST', `/api/reservations/${reservation.reservationId}/cancel`, { reason: 'Changed plans' }),
      ]);
      const state = await reservationState(reservation.reservationId);
      const unit = await unitState(reservation.unitId);
      const lease = (await loadAggregate(platform.api.store, streams.lease(reservation.reservationId), leaseAggregate)).state;
      if (convert.statusCode === 200) {
        outcomes.push('converted');
        expect(cancel.statusCode).toBe(409);
        expect(state.status).toBe('converted');
        expect(unit.fields.status).toBe('occupied');
        expect(unit.leaseId).toBe(convert.json().leaseId);
        expect(lease.status).toBe('active');
      } else {
        outcomes.push('cancelled');
        expect(convert.statusCode).toBe(409);
        expect(cancel.statusCode).toBe(204);
        expect(state.status).toBe('cancelled');
        expect(unit.fields.status).toBe('available');
        expect(lease.status).toBe('none');
      }
    }
    expect(outcomes).toHaveLength(10);
  });

  it('expires reservations not converted within the hold and frees their units', async () => {
    const stale = await reserved();
    const converted = await reserved();
    expect((await inject('POST', `/api/reservations/${converted.reservationId}/convert`, {})).statusCode).toBe(200);
    const deps = { pool: platform.api.pool, store: platform.api.store };

    const tooEarly = await expireReservations(deps, new Date(), 1);
    expect(tooEarly.expired).toBe(0);

    const run = await expireReservations(deps, new Date(Date.now() + 1000), 0);
    expect(run.expired).toBeGreaterThanOrEqual(1);
    if (run.position) await platform.api.afterAppend(run.position, 10_000);
    expect((await unitState(stale.unitId)).fields.status).toBe('available');
    expect((await unitState(converted.unitId)).fields.status).toBe('occupied');
    const status = await platform.api.pool.oneFirst(
      sql.type(z.object({ status: z.string() }))`SELECT status FROM reservations WHERE id = ${stale.reservationId}`,
    );
    expect(status).toBe('expired');
    expect((await expireReservations(deps, new Date(Date.now() + 1000), 0)).expired).toBe(0);
  });
});

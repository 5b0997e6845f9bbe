import { randomUUID } from 'node:crypto';
import { streams } from '@storage/contracts/events';
import type { SubmitReservationCommand } from '@storage/contracts/public';
import { type CommandContext, loadAggregate, type WorkflowStep } from '@storage/domain/commands/handle';
import { addCustomer, archiveCustomer } from '@storage/domain/customers/commands';
import { startLease } from '@storage/domain/leases/commands';
import { leaseAggregate } from '@storage/domain/leases/lease';
import { cancelReservation, convertReservation, expireReservation, submitReservation } from '@storage/domain/reservations/commands';
import { reservationAggregate } from '@storage/domain/reservations/reservation';
import { addUnit } from '@storage/domain/units/commands';
import { unitAggregate } from '@storage/domain/units/unit';
import type { Position } from '@storage/eventstore/port';
import { recoverWorkflows } from '@storage/projector/jobs/workflow-recovery';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

// A crash at every step of each workflow across aggregates: the request stops right after the
// step is written (its context's afterStep hook never returns, so nothing after it runs, no
// compensation included), the recovery process runs, and the streams and the read model must
// have converged: the unit leased by a started lease or free again; the reservation converted
// with its lease, or ended with its unit free (or open again, holding its unit).

const tag = () => Math.random().toString(36).slice(2, 8);

describe('workflows across aggregates, through a crash at every step', () => {
  let platform: TestPlatform;
  const context = (): CommandContext => ({ store: platform.api.store, actor: { type: 'system' }, correlationId: randomUUID(), now: new Date() });
  const projected = async (result: { position: Position | null }) => {
    if (result.position) await platform.api.afterAppend(result.position, 10_000);
  };
  const caughtUp = async () => {
    // The recovery reads the read model: it must show everything first (a loaded machine may take a while).
    expect(await platform.readModelCaughtUp(60_000)).toBe(true);
  };
  /** The recovery process, now (a grace of 0; a second later, so what was just written is past it). */
  const recover = async (graceMs = 0) => {
    await caughtUp();
    const run = await recoverWorkflows({ pool: platform.api.pool, store: platform.api.store }, new Date(Date.now() + 1000), graceMs);
    await caughtUp();
    return run;
  };
  /**
   * The recovery run that finishes or undoes the stopped workflow. The history's head
   * the read model is waited to is the one every reader sees: a transaction open for a moment
   * anywhere on the cluster (a projector batch, the queue's) can hide the newest events from it,
   * so a run may find nothing yet; the next one then does. Never more than one run acts.
   */
  const recoverAgain = async () => {
    for (let attempt = 1; ; attempt++) {
      const run = await recover();
      if (run.recovered > 0 || attempt === 20) return run;
      await new Promise((r) => setTimeout(r, 250));
    }
  };

  /** Runs `work` until it has written `step`, where it stops as a crash would; fails if it finishes or fails first. */
  async function crashAfter(step: WorkflowStep, work: (ctx: CommandContext) => Promise<unknown>) {
    let reached: () => void = () => {};
    const stopped = new Promise<'stopped'>((resolve) => (reached = () => resolve('stopped')));
    const ctx: CommandContext = {
      ...context(),
      afterStep: (written) => {
        if (written !== step) return;
        reached();
        return new Promise<never>(() => {});
      },
    };
    const ended = work(ctx).then(
      () => 'finished',
      (error: unknown) => `failed: ${String(error)}`,
    );
    expect(await Promise.race([stopped, ended])).toBe('stopped');
  }

  async function newUnit() {
    const unitId = randomUUID();
    await projected(
      await addUnit(
        context(),
        { facilityId: null, unitNumber: `W-${tag()}`, building: 'W', size: '10x10', monthlyRate: '110.00', status: 'available', description: null },
        unitId,
      ),
    );
    return unitId;
  }
  async function newCustomer(email = `wf-${tag()}-${tag()}@example.com`) {
    const added = await addCustomer(context(), {
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
    await projected(added);
    if (added.state.status !== 'current') throw new Error('no customer');
    return added.state.customerId;
  }
  const reservationRequest = (unitId: string, email = `wf-${tag()}-${tag()}@example.com`): SubmitReservationCommand => ({
    unitId,
    customerData: {
      firstName: 'Wanda',
      lastName: 'Workflow',
      email,
      phone: '555-0199',
      address: null,
      emergencyContact: null,
      emergencyPhone: null,
      moveInDate: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
      specialRequests: null,
    },
  });
  async function reservation(email?: string) {
    const unitId = await newUnit();
    const reservationId = randomUUID();
    await projected(await submitReservation(context(), reservationRequest(unitId, email), reservationId));
    return { unitId, reservationId };
  }

  async function unitOf(unitId: string) {
    const { state } = await loadAggregate(platform.api.store, streams.unit(unitId), unitAggregate);
    if (state.status !== 'current') throw new Error('no unit');
    return state;
  }
  const reservationOf = async (id: string) => (await loadAggregate(platform.api.store, streams.reservation(id), reservationAggregate)).state;
  const leaseOf = async (id: string) => (await loadAggregate(platform.api.store, streams.lease(id), leaseAggregate)).state;
  const shownUnitStatus = (unitId: string) =>
    platform.api.pool.oneFirst(sql.type(z.object({ status: z.string() }))`SELECT status FROM units WHERE id = ${unitId}`);
  const shownReservation = (id: string) =>
    platform.api.pool.maybeOne(
      sql.type(z.object({ status: z.string(), lease_id: z.string().nullable() }))`SELECT status, lease_id::text FROM reservations WHERE id = ${id}`,
    );
  const shownLeaseActive = (id: string) =>
    platform.api.pool.maybeOneFirst(sql.type(z.object({ is_active: z.boolean() }))`SELECT is_active FROM leases WHERE id = ${id}`);

  /** Converged on a move-in: converted into its lease, which is active and holds the unit, on the streams and in the read model. */
  async function expectMovedIn(reservationId: string, unitId: string) {
    const state = await reservationOf(reservationId);
    expect(state.status).toBe('converted');
    const leaseId = state.status === 'converted' ? state.leaseId : '';
    expect((await leaseOf(leaseId)).status).toBe('active');
    const unit = await unitOf(unitId);
    expect([unit.fields.status, unit.leaseId]).toEqual(['occupied', leaseId]);
    expect(await shownReservation(reservationId)).toEqual({ status: 'converted', lease_id: leaseId });
    expect(await shownLeaseActive(leaseId)).toBe(true);
    expect(await shownUnitStatus(unitId)).toBe('occupied');
  }

  beforeAll(async () => {
    platform = await startTestPlatform();
  });
  afterAll(async () => {
    await platform?.close();
  });

  describe('an online reservation (unit held → customer resolved → reservation submitted)', () => {
    for (const step of ['reservation:unit-held', 'reservation:customer-resolved'] as const) {
      it(`lets the unit go when the request stopped after ${step}, and refuses the submission when it comes late`, async () => {
        const unitId = await newUnit();
        const reservationId = randomUUID();
        const request = reservationRequest(unitId);
        await crashAfter(step, (ctx) => submitReservation(ctx, request, reservationId));
        expect((await unitOf(unitId)).fields.status).toBe('reserved');

        const run = await recoverAgain();
        expect(run.actions['submission-abandoned']).toBe(1);
        expect((await unitOf(unitId)).fields.status).toBe('available');
        expect((await reservationOf(reservationId)).status).toBe('abandoned');
        expect(await shownUnitStatus(unitId)).toBe('available');
        expect(await shownReservation(reservationId)).toBeNull();
        // The stopped request, come back late, is refused and leaves the unit free.
        await expect(submitReservation(context(), request, reservationId)).rejects.toThrow(/took too long/);
        expect((await unitOf(unitId)).fields.status).toBe('available');
        expect((await recover()).recovered).toBe(0);
      });
    }
  });

  describe('a move-in (conversion started → unit occupied → lease started → reservation converted)', () => {
    for (const step of ['conversion:started', 'lease:unit-occupied', 'lease:started'] as const) {
      it(`finishes the move-in when the request stopped after ${step}`, async () => {
        const { unitId, reservationId } = await reservation();
        await crashAfter(step, (ctx) => convertReservation(ctx, reservationId, { depositAmount: '50.00' }));
        // Meanwhile the reservation belongs to the move-in: a cancel is refused.
        await expect(cancelReservation(context(), reservationId, null)).rejects.toThrow(/being moved in/);

        const run = await recoverAgain();
        expect(run.actions['conversion-finished']).toBe(1);
        await expectMovedIn(reservationId, unitId);
        const lease = await leaseOf(reservationId);
        expect(lease.status === 'active' && lease.terms.depositAmount).toBe('50.00');
        expect((await recover()).recovered).toBe(0);
      });
    }

    it('keeps the reservation open, holding its unit, when the request stopped after adding the new customer', async () => {
      const email = `pending-${tag()}@example.com`;
      const kim = await newCustomer(email);
      const { unitId, reservationId } = await reservation(email);
      await projected(await archiveCustomer(context(), kim));
      await crashAfter('conversion:customer-added', (ctx) => convertReservation(ctx, reservationId, { depositAmount: null, createCustomer: true }));

      expect((await recover()).recovered).toBe(0);
      expect((await reservationOf(reservationId)).status).toBe('submitted');
      expect((await unitOf(unitId)).reservationId).toBe(reservationId);
      // Repeated, the move-in uses the customer the stopped one added.
      await projected(await convertReservation(context(), reservationId, { depositAmount: null, createCustomer: true }));
      await caughtUp();
      await expectMovedIn(reservationId, unitId);
      const customers = await platform.api.pool.anyFirst(
        sql.type(z.object({ id: z.string() }))`SELECT id::text FROM customers WHERE email = ${email} AND NOT archived`,
      );
      expect(customers).toHaveLength(1);
    });

    it('reopens the reservation with its unit when the stopped move-in can no longer finish', async () => {
      const unitId = await newUnit();
      const reservationId = randomUUID();
      const email = `gone-${tag()}@example.com`;
      await projected(await submitReservation(context(), reservationRequest(unitId, email), reservationId));
      const submitted = await reservationOf(reservationId);
      const ownCustomer = submitted.status === 'submitted' ? submitted.details.customerId : null;
      expect(ownCustomer).not.toBeNull();
      await crashAfter('conversion:started', (ctx) => convertReservation(ctx, reservationId, { depositAmount: null }));
      // The renter's account is archived before the lease could start.
      await projected(await archiveCustomer(context(), ownCustomer!));

      const run = await recoverAgain();
      expect(run.actions['conversion-abandoned']).toBe(1);
      expect((await reservationOf(reservationId)).status).toBe('submitted');
      const unit = await unitOf(unitId);
      expect([unit.fields.status, unit.reservationId]).toEqual(['reserved', reservationId]);
      expect((await leaseOf(reservationId)).status).toBe('none');
      expect(await shownReservation(reservationId)).toEqual({ status: 'submitted', lease_id: null });
      expect(await shownUnitStatus(unitId)).toBe('reserved');
      // Open again: staff may cancel it now, and the unit is free.
      await projected(await cancelReservation(context(), reservationId, 'Account closed'));
      expect((await unitOf(unitId)).fields.status).toBe('available');
    });

    it('never undoes a move-in still within its grace period', async () => {
      const { unitId, reservationId } = await reservation();
      await crashAfter('lease:unit-occupied', (ctx) => convertReservation(ctx, reservationId, { depositAmount: null }));
      expect((await recover(60_000)).recovered).toBe(0);
      expect((await reservationOf(reservationId)).status).toBe('converting');
      // Staff repeating the move-in finish it themselves.
      await projected(await convertReservation(context(), reservationId, { depositAmount: null }));
      await caughtUp();
      await expectMovedIn(reservationId, unitId);
    });
  });

  describe('a lease started by staff (unit occupied → lease started)', () => {
    it('gives the unit up when the request stopped after occupying it, and refuses the lease when it comes late', async () => {
      const unitId = await newUnit();
      const customerId = await newCustomer();
      const leaseId = randomUUID();
      const terms = { customerId, unitId, startDate: '2026-01-01', monthlyRate: '110.00', depositAmount: null };
      await crashAfter('lease:unit-occupied', (ctx) => startLease(ctx, terms, leaseId));
      expect((await unitOf(unitId)).fields.status).toBe('occupied');

      const run = await recoverAgain();
      expect(run.actions['lease-start-abandoned']).toBe(1);
      expect((await leaseOf(leaseId)).status).toBe('abandoned');
      expect((await unitOf(unitId)).fields.status).toBe('available');
      expect(await shownUnitStatus(unitId)).toBe('available');
      await expect(startLease(context(), terms, leaseId)).rejects.toThrow(/took too long/);
      expect((await unitOf(unitId)).fields.status).toBe('available');
      // A new lease takes the unit as usual.
      await projected(await startLease(context(), terms));
      expect((await unitOf(unitId)).fields.status).toBe('occupied');
      expect((await recover()).recovered).toBe(0);
    });
  });

  describe('a cancel or an expiry (reservation ended → unit released)', () => {
    it('frees the unit when a cancel stopped after the reservation was cancelled', async () => {
      const { unitId, reservationId } = await reservation();
      await crashAfter('reservation:ended', (ctx) => cancelReservation(ctx, reservationId, null));
      expect((await unitOf(unitId)).fields.status).toBe('reserved');
      expect((await recoverAgain()).actions['unit-released']).toBe(1);
      expect((await unitOf(unitId)).fields.status).toBe('available');
      expect(await shownUnitStatus(unitId)).toBe('available');
      expect((await shownReservation(reservationId))?.status).toBe('cancelled');
    });

    it('frees the unit when an expiry stopped after the reservation expired', async () => {
      const { unitId, reservationId } = await reservation();
      await crashAfter('reservation:ended', (ctx) => expireReservation(ctx, reservationId));
      expect((await recoverAgain()).actions['unit-released']).toBe(1);
      expect((await unitOf(unitId)).fields.status).toBe('available');
      expect((await shownReservation(reservationId))?.status).toBe('expired');
    });
  });
});

import { randomUUID } from 'node:crypto';
import { type DomainEvent, streams } from '@storage/contracts/events';
import { Reservation } from '@storage/contracts/reservations';
import { type CommandContext, envelope } from '@storage/domain/commands/handle';
import { addUnit } from '@storage/domain/units/commands';
import { reserveOnline } from '@storage/testing/online-reservations';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { startSmtpServer, type TestSmtpServer } from '@storage/testing/smtp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Staff see where a renter's online payment for their reservation stands before moving them in at
// the desk: paying once a checkout starts on the reservation's stream, refunded once it is given back.

const tag = () => Math.random().toString(36).slice(2, 8);

describe('reservations list: the online checkout', () => {
  let platform: TestPlatform;
  let smtp: TestSmtpServer;
  let cookie: string;
  const context = (): CommandContext => ({ store: platform.api.store, actor: { type: 'system' }, correlationId: randomUUID(), now: new Date() });

  async function reserved() {
    const unitId = randomUUID();
    const added = await addUnit(
      context(),
      { facilityId: null, unitNumber: `P-${tag()}`, building: 'P', size: '10x10', monthlyRate: '120.00', status: 'available', description: null },
      unitId,
    );
    if (added.position) await platform.api.afterAppend(added.position, 10_000);
    const email = `paula-${tag()}-${tag()}@example.com`;
    const customerData = {
      firstName: 'Paula',
      lastName: 'Payer',
      email,
      phone: '555-0102',
      moveInDate: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
    };
    const response = await reserveOnline(platform.api.app, smtp, { unitId, customerData }, `10.2.0.${Math.floor(Math.random() * 250) + 1}`);
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { reservationId: string }).reservationId;
  }

  /** Appends to the reservation's stream as the checkout does, and waits until the read model has it. */
  async function append(reservationId: string, event: DomainEvent) {
    const stream = streams.reservation(reservationId);
    const existing = await platform.api.store.readStream(stream);
    const { position } = await platform.api.store.append(stream, [envelope(context(), event)], { expectedRevision: existing.at(-1)!.revision });
    await platform.api.afterAppend(position, 10_000);
  }

  async function listed(reservationId: string) {
    const response = await platform.api.app.inject({ method: 'GET', url: '/api/reservations?pageSize=100&sort=submittedAt&order=desc', headers: { cookie } });
    expect(response.statusCode).toBe(200);
    return Reservation.array()
      .parse(response.json())
      .find((r) => r.id === reservationId);
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

  it('shows none, then paying once a checkout starts, then refunded once the payment is given back', async () => {
    const reservationId = await reserved();
    const other = await reserved();
    expect(await listed(reservationId)).toMatchObject({ status: 'submitted', onlineCheckout: null, onlineCheckoutAt: null });

    const paymentIntentId = `pi_${tag()}`;
    await append(reservationId, {
      type: 'reservation_checkout_started',
      data: { reservationId, paymentIntentId, amount: '93.43', startDate: '2026-12-01', protectionPlanId: null, promotionId: null },
    });
    const paying = await listed(reservationId);
    expect(paying).toMatchObject({ status: 'submitted', onlineCheckout: 'paying' });
    expect(paying?.onlineCheckoutAt).not.toBeNull();
    // Only that reservation: another renter's stays as it was.
    expect(await listed(other)).toMatchObject({ onlineCheckout: null, onlineCheckoutAt: null });

    await append(reservationId, {
      type: 'reservation_checkout_refunded',
      data: { reservationId, paymentIntentId, refundId: `re_${tag()}`, amount: '93.43', reason: 'The reservation was cancelled' },
    });
    const refunded = await listed(reservationId);
    expect(refunded).toMatchObject({ status: 'submitted', onlineCheckout: 'refunded' });
    expect(Date.parse(refunded!.onlineCheckoutAt!)).toBeGreaterThanOrEqual(Date.parse(paying!.onlineCheckoutAt!));
  });
});

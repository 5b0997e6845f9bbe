import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { streams } from '@storage/contracts/events';
import { type CommandContext, envelope } from '@storage/domain/commands/handle';
import { addFacility } from '@storage/domain/facilities/commands';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GatewaySimulator, prepareSimulation } from '../src/gateway-simulator.ts';

// The simulated gateway (`ops gateway:simulate`) against a started product over real HTTP: it
// gets a key, learns the facility's codes, reports its locks, sends attempts, and follows a lockout.

describe('gateway simulator', { timeout: 60_000 }, () => {
  let platform: TestPlatform;
  let cookie: string;
  let url: string;
  const facilityId = randomUUID();
  const context = (): CommandContext => ({ store: platform.api.store, actor: { type: 'system' }, correlationId: randomUUID(), now: new Date() });
  const inject = (method: 'GET' | 'POST', path: string, payload?: unknown) =>
    platform.api.app.inject({ method, url: path, payload: payload as object, headers: { cookie } });
  const caughtUp = () => platform.readModelCaughtUp(30_000);

  beforeAll(async () => {
    platform = await startTestPlatform({ billing: false });
    cookie = await platform.signIn('owner');
    await platform.api.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(platform.api.app.server.address() as AddressInfo).port}`;
    await addFacility(context(), { name: 'Simulated Storage', address: '1 Sim Rd', phone: null, managerName: null }, facilityId);
    await caughtUp();
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('learns codes and desired states, reports them, and sends attempts the renter sees', async () => {
    const unit = (await inject('POST', '/api/units', { unitNumber: 'SIM-1', building: 'A', monthlyRate: '90.00', facilityId })).json();
    const lock = (await inject('POST', '/api/locks', { lockId: `SIM-LOCK-${randomUUID().slice(0, 6)}`, unitId: unit.id })).json();
    const customer = (
      await inject('POST', '/api/customers', { firstName: 'Sim', lastName: 'Renter', email: `sim-${randomUUID().slice(0, 8)}@example.com` })
    ).json();
    const lease = await inject('POST', '/api/leases', {
      customerId: customer.id,
      unitId: unit.id,
      monthlyRate: '90.00',
      depositAmount: null,
      startDate: '2026-01-01',
    });
    expect(lease.statusCode, lease.body).toBe(201);
    await expect.poll(async () => (await inject('GET', `/api/customers/${customer.id}/gate-codes`)).json().length, { timeout: 15_000 }).toBe(1);

    const prepared = await prepareSimulation(platform.api.pool, platform.api.store, facilityId, undefined);
    expect(prepared).toMatchObject({ facilityName: 'Simulated Storage', issuedKey: true, codesAssigned: 0 });
    expect(prepared.locks.map((l) => l.id)).toEqual([lock.id]);
    // The new key is in the read model when it returns: the first loop is not refused with 401.

    const lines: string[] = [];
    // Always the first choice: an attempt with an active code.
    const simulator = new GatewaySimulator({ url, key: prepared.key, locks: prepared.locks, attemptsPerLoop: 2, random: () => 0, log: (l) => lines.push(l) });
    const first = await simulator.loop();
    const [code] = (await inject('GET', `/api/customers/${customer.id}/gate-codes`)).json();
    expect(simulator.codes.get(lease.json().id)).toEqual({ code: code.code, active: true });
    expect(first).toMatchObject({ reported: 1 });
    expect(first.learned).toBeGreaterThan(0);
    expect(first.attempts.map((a) => [a.via, a.code, a.granted])).toEqual([
      ['gate_code', code.code, true],
      ['gate_code', code.code, true],
    ]);
    expect(lines.at(-1)).toMatch(/^loop: \d+ changes learned \(ack \d+\), 1 lock states reported, 2 attempts sent$/);
    await caughtUp();
    const attempts = await platform.api.pool.anyFirst(sql.type(z.object({ customer_id: z.string().nullable() }))`
      SELECT customer_id::text FROM access_attempts WHERE facility_id = ${facilityId}`);
    expect(attempts).toEqual([customer.id, customer.id]);

    // A lockout: the next loop learns it, overlocks the lock and reports it.
    const stream = streams.delinquency(customer.id);
    await platform.api.store.append(
      stream,
      [
        envelope(context(), {
          type: 'delinquency_step_taken',
          data: { customerId: customer.id, kind: 'lockout', day: 15, invoiceId: randomUUID(), date: '2026-02-16', pastDue: '90.00' },
        }),
      ],
      { expectedRevision: 'no_stream' },
    );
    await platform.api.afterAppend((await platform.api.store.newestPosition())!, 10_000);
    await expect.poll(async () => (await inject('GET', `/api/locks/${lock.id}`)).json().desiredState, { timeout: 15_000 }).toBe('overlocked');
    await simulator.loop();
    expect(simulator.lockStates.get(lock.id)).toBe('overlocked');
    expect(simulator.codes.get(lease.json().id)?.active).toBe(false);
    await caughtUp();
    expect((await inject('GET', `/api/locks/${lock.id}`)).json()).toMatchObject({
      desiredState: 'overlocked',
      reportedState: 'overlocked',
      differsSince: null,
    });
  });
});

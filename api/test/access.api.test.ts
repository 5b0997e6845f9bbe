import { randomUUID } from 'node:crypto';
import { GateCode, MAX_ACCESS_ATTEMPTS, MAX_ACCESS_ATTEMPTS_BODY_BYTES } from '@storage/contracts/access';
import { type DomainEvent, streams } from '@storage/contracts/events';
import { LockHeartbeatAnswer } from '@storage/contracts/locks';
import { PortalAccessLog, PortalUnit } from '@storage/contracts/portal';
import { type CommandContext, envelope } from '@storage/domain/commands/handle';
import { addFacility } from '@storage/domain/facilities/commands';
import { accessReaction } from '@storage/projector/reactions/access';
import { toProjectedEvent } from '@storage/projector/runner';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readModelCaughtUp } from './read-model.ts';

const tag = () => Math.random().toString(36).slice(2, 8).toUpperCase();

describe('access follows the ledger', () => {
  let platform: TestPlatform;
  let cookie: string;
  let gatewayKey: string;
  let otherKey: string;
  const facilityId = randomUUID();
  const otherFacilityId = randomUUID();

  const context = (): CommandContext => ({ store: platform.api.store, actor: { type: 'system' }, correlationId: randomUUID(), now: new Date() });
  const inject = (method: 'GET' | 'POST', url: string, payload?: unknown, headers: Record<string, string> = { cookie }) =>
    platform.api.app.inject({ method, url, payload: payload as object, headers });
  const asGateway = (url: string, payload: unknown, key = gatewayKey) => inject('POST', url, payload, { authorization: `Bearer ${key}` });

  /**
   * Waits until the projector's access reaction has passed every event written so far (and the
   * read model shows what it wrote): the reaction runs in the projector, as in production.
   */
  async function settled() {
    await readModelCaughtUp(platform);
    const Position = z.object({ hi: z.string(), lo: z.string() });
    const newest = await platform.api.pool.one(sql.type(Position)`
      SELECT transaction_id::text AS hi, global_position::text AS lo FROM event_store.events ORDER BY transaction_id DESC, global_position DESC LIMIT 1`);
    await expect
      .poll(
        async () =>
          platform.api.pool.oneFirst(sql.type(z.object({ passed: z.boolean() }))`
            SELECT coalesce((position_hi, position_lo) >= (${newest.hi}::numeric, ${newest.lo}::numeric), false) AS passed
            FROM reaction_checkpoints WHERE name = ${accessReaction.name}`),
        { timeout: 20_000, interval: 50 },
      )
      .toBe(true);
    await readModelCaughtUp(platform);
  }

  /** Shows the access reaction the stream's events again, as a retry after a crash would. */
  async function reactAgain(stream: string) {
    for (const recorded of await platform.api.store.readStream(stream)) {
      const event = toProjectedEvent(recorded);
      if (event && accessReaction.types.includes(event.type))
        await accessReaction.react(event, { store: platform.api.store, pool: platform.api.pool, now: new Date() });
    }
    await readModelCaughtUp(platform);
  }

  async function appendDelinquency(customerId: string, event: DomainEvent) {
    const stream = streams.delinquency(customerId);
    const existing = await platform.api.store.readStream(stream);
    const { position } = await platform.api.store.append(stream, [envelope(context(), event)], { expectedRevision: existing.at(-1)?.revision ?? 'no_stream' });
    await platform.api.afterAppend(position, 10_000);
    await settled();
  }

  async function newUnitWithLock(site = facilityId) {
    const unit = await inject('POST', '/api/units', { unitNumber: `G-${tag()}`, building: 'A', monthlyRate: '100.00', facilityId: site });
    expect(unit.statusCode, unit.body).toBe(201);
    const lock = await inject('POST', '/api/locks', { lockId: `GK-${tag()}`, unitId: unit.json().id });
    expect(lock.statusCode, lock.body).toBe(201);
    return {
      unitId: unit.json().id as string,
      unitNumber: unit.json().unitNumber as string,
      lockId: lock.json().id as string,
      serial: lock.json().lockId as string,
    };
  }

  async function moveIn(site = facilityId) {
    const unit = await newUnitWithLock(site);
    const phone = `555-01${Math.floor(Math.random() * 10)}-${String(Math.floor(Math.random() * 10000)).padStart(4, '0')}`;
    const customer = await inject('POST', '/api/customers', { firstName: 'Gina', lastName: 'Gate', email: `gina-${tag()}@example.com`, phone });
    expect(customer.statusCode, customer.body).toBe(201);
    const lease = await inject('POST', '/api/leases', {
      customerId: customer.json().id,
      unitId: unit.unitId,
      monthlyRate: '100.00',
      depositAmount: null,
      startDate: '2026-01-01',
    });
    expect(lease.statusCode, lease.body).toBe(201);
    const leaseId = lease.json().id as string;
    await settled();
    return { ...unit, customerId: customer.json().id as string, email: customer.json().email as string, phone, leaseId };
  }

  const gateCodes = async (customerId: string) => {
    await readModelCaughtUp(platform);
    const response = await inject('GET', `/api/customers/${customerId}/gate-codes`);
    expect(response.statusCode, response.body).toBe(200);
    // The owner's view: every code is shown.
    return z.array(GateCode.extend({ code: z.string() }).strict()).parse(response.json());
  };
  const lockRow = (lockId: string) =>
    platform.api.pool.one(sql.type(z.object({ desired_state: z.string(), reported_state: z.string().nullable(), differs_since: z.string().nullable() }))`
      SELECT desired_state, reported_state, differs_since FROM locks WHERE id = ${lockId}`);
  const heartbeat = async (lockId: string, extra: Record<string, unknown> = {}, key = gatewayKey) => {
    const response = await asGateway(`/api/locks/${lockId}/heartbeat`, { batteryLevel: 90, ...extra }, key);
    return { status: response.statusCode, body: response.statusCode === 200 ? LockHeartbeatAnswer.strict().parse(response.json()) : response.json() };
  };

  beforeAll(async () => {
    platform = await startTestPlatform({ billing: false });
    cookie = await platform.signIn('owner');
    await addFacility(context(), { name: `Access ${tag()}`, address: '1 Gate Rd', phone: null, managerName: null }, facilityId);
    await addFacility(context(), { name: `Access Other ${tag()}`, address: '2 Gate Rd', phone: null, managerName: null }, otherFacilityId);
    await readModelCaughtUp(platform);
    gatewayKey = (await inject('POST', `/api/facilities/${facilityId}/gateway-key`)).json().key;
    otherKey = (await inject('POST', `/api/facilities/${otherFacilityId}/gateway-key`)).json().key;
    await readModelCaughtUp(platform);
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('gives each lease a 7-digit gate code at move-in, once, unique in the facility, redacted in the history', async () => {
    const renter = await moveIn();
    const codes = await gateCodes(renter.customerId);
    expect(codes).toHaveLength(1);
    expect(codes[0]).toMatchObject({ leaseId: renter.leaseId, unitId: renter.unitId, unitNumber: renter.unitNumber, status: 'active', suspendedReason: null });
    expect(codes[0]!.code).toMatch(/^\d{7}$/);
    // Shown again, the move-in assigns nothing new.
    await reactAgain(streams.lease(renter.leaseId));
    expect(await platform.api.store.readStream(streams.gateCode(renter.leaseId))).toHaveLength(1);
    expect(await gateCodes(renter.customerId)).toEqual(codes);
    // The code is claimed in its facility: no other lease can hold it.
    const claim = await platform.api.store.readStream(streams.uniqueKey('gate-code', `${facilityId}:${codes[0]!.code}`));
    expect(claim.map((e) => e.type)).toEqual(['unique_key_claimed']);
    // The claim's stream is named after the code: the audit log shows it without the code.
    const claims = await inject('GET', `/api/audit/events?type=unique_key_claimed&pageSize=200`);
    expect(claims.statusCode, claims.body).toBe(200);
    expect(claims.json()).toEqual(expect.arrayContaining([expect.objectContaining({ streamName: `unique-gate-code-${facilityId}:[redacted]` })]));
    expect(claims.body).not.toContain(codes[0]!.code);
    const audit = await inject('GET', `/api/audit/events?stream=${streams.gateCode(renter.leaseId)}`);
    expect(audit.statusCode, audit.body).toBe(200);
    expect(audit.json()).toMatchObject([{ type: 'gate_code_assigned', data: { leaseId: renter.leaseId, code: '[redacted]' } }]);
    expect(audit.body).not.toContain(codes[0]!.code);
  });

  it('shows auditors that a code exists and its status, never the code; the desk roles still see it', async () => {
    const renter = await moveIn();
    const [owned] = await gateCodes(renter.customerId);
    const code = owned!.code;
    const url = `/api/customers/${renter.customerId}/gate-codes`;
    for (const role of ['owner', 'manager', 'clerk'] as const) {
      const response = await inject('GET', url, undefined, { cookie: await platform.signIn(role) });
      expect(response.statusCode, role).toBe(200);
      expect(response.json(), role).toMatchObject([{ leaseId: renter.leaseId, code }]);
    }
    const auditor = await platform.signIn('auditor');
    const audited = await inject('GET', url, undefined, { cookie: auditor });
    expect(audited.statusCode, audited.body).toBe(200);
    const shown = z.array(GateCode.strict()).parse(audited.json());
    expect(shown).toEqual([{ ...owned, code: null }]);
    expect(audited.body).not.toContain(code);

    // The event log holds no code for any role, and its exact-stream filter does not tell an
    // auditor whether a code is taken: the claim named after the real code answers as a free one.
    const asAuditor = (path: string) => inject('GET', path, undefined, { cookie: auditor });
    const claimOf = (guess: string) => `/api/audit/events?stream=${encodeURIComponent(streams.uniqueKey('gate-code', `${facilityId}:${guess}`))}`;
    const taken = await asAuditor(claimOf(code));
    const free = await asAuditor(claimOf(code === '0000001' ? '0000002' : '0000001'));
    expect(taken.statusCode, taken.body).toBe(200);
    expect([taken.json(), taken.headers['x-total-count']]).toEqual([[], '0']);
    expect([free.json(), free.headers['x-total-count']]).toEqual([[], '0']);
    for (const reader of [cookie, auditor]) {
      for (const path of [
        `/api/audit/events?stream=${streams.gateCode(renter.leaseId)}`,
        `/api/audit/events?type=gate_code_assigned&pageSize=200`,
        `/api/audit/events?type=unique_key_claimed&pageSize=200`,
        `/api/audit/events.csv?stream=${streams.gateCode(renter.leaseId)}`,
      ]) {
        const response = await inject('GET', path, undefined, { cookie: reader });
        expect(response.statusCode, path).toBe(200);
        expect(response.body, path).not.toContain(code);
      }
      const stream = await inject('GET', `/api/audit/events?stream=${streams.gateCode(renter.leaseId)}`, undefined, { cookie: reader });
      expect(stream.json()).toMatchObject([{ type: 'gate_code_assigned', data: { code: '[redacted]' } }]);
    }
  });

  it('draws again when the code drawn is taken in the facility', async () => {
    const { assignMoveInGateCode } = await import('@storage/domain/access/gate-codes');
    const first = await moveIn();
    const [taken] = await gateCodes(first.customerId);
    const leaseId = randomUUID();
    const draws = [taken!.code, taken!.code, '0000042'];
    const result = await assignMoveInGateCode(context(), { leaseId, customerId: first.customerId, facilityId }, () => draws.shift()!);
    expect(result.state).toMatchObject({ status: 'assigned', code: '0000042' });
  });

  it('lets staff rotate a code: the old one is free, the new one shown; a clerk may, an auditor may not', async () => {
    const renter = await moveIn();
    const [before] = await gateCodes(renter.customerId);
    const clerk = await platform.signIn('clerk');
    const rotated = await inject('POST', `/api/leases/${renter.leaseId}/gate-code/rotate`, undefined, { cookie: clerk });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const shown = GateCode.strict().parse(rotated.json());
    expect(shown.code).not.toBe(before!.code);
    expect(shown.code).toMatch(/^\d{7}$/);
    expect((await gateCodes(renter.customerId))[0]!.code).toBe(shown.code);
    const oldClaim = await platform.api.store.readStream(streams.uniqueKey('gate-code', `${facilityId}:${before!.code}`));
    expect(oldClaim.map((e) => e.type)).toEqual(['unique_key_claimed', 'unique_key_released']);
    const auditor = await platform.signIn('auditor');
    expect((await inject('POST', `/api/leases/${renter.leaseId}/gate-code/rotate`, undefined, { cookie: auditor })).statusCode).toBe(403);
    expect((await inject('POST', `/api/leases/${randomUUID()}/gate-code/rotate`)).statusCode).toBe(404);
    expect((await inject('POST', '/api/leases/not-an-id/gate-code/rotate')).statusCode).toBe(400);
  });

  it('locks a renter out on the lockout step and lets them back in when the delinquency clears', async () => {
    const renter = await moveIn();
    const invoiceId = randomUUID();
    await appendDelinquency(renter.customerId, {
      type: 'delinquency_step_taken',
      data: { customerId: renter.customerId, kind: 'late_notice', day: 5, invoiceId, date: '2026-02-06', pastDue: '100.00' },
    });
    expect((await lockRow(renter.lockId)).desired_state).toBe('normal');
    await appendDelinquency(renter.customerId, {
      type: 'delinquency_step_taken',
      data: { customerId: renter.customerId, kind: 'lockout', day: 15, invoiceId, date: '2026-02-16', pastDue: '100.00' },
    });
    // The reaction has acted and the read model shows it, with no nightly job run (how fast is
    // bench:access's to measure: a timed assertion here failed on a loaded machine).
    expect(await gateCodes(renter.customerId)).toMatchObject([{ status: 'suspended', suspendedReason: 'lockout' }]);
    const locked = await lockRow(renter.lockId);
    expect(locked.desired_state).toBe('overlocked');
    expect(locked.differs_since).not.toBeNull();
    // Seen again (a retry), nothing more is written.
    const written = (await platform.api.store.readStream(streams.lock(renter.lockId))).length;
    await reactAgain(streams.delinquency(renter.customerId));
    expect(await platform.api.store.readStream(streams.lock(renter.lockId))).toHaveLength(written);

    await appendDelinquency(renter.customerId, {
      type: 'delinquency_cleared',
      data: { customerId: renter.customerId, date: '2026-02-17', pastDue: '0.00', reason: 'Payment recorded' },
    });
    expect(await gateCodes(renter.customerId)).toMatchObject([{ status: 'active', suspendedReason: null }]);
    expect((await lockRow(renter.lockId)).desired_state).toBe('normal');
  });

  it('sends the gateway the changes after its acknowledgement, and records the state it reports', async () => {
    const renter = await moveIn();
    const start = await heartbeat(renter.lockId, { ack: 0 });
    expect(start.status).toBe(200);
    const head = start.body.sequence as number;
    expect(head).toBeGreaterThan(0);
    // An old gateway (no ack, no reported) is answered as before, with nothing it does not know.
    const old = await heartbeat(renter.lockId);
    expect(old.body.changes).toBeUndefined();

    await appendDelinquency(renter.customerId, {
      type: 'delinquency_step_taken',
      data: { customerId: renter.customerId, kind: 'lockout', day: 15, invoiceId: randomUUID(), date: '2026-02-16', pastDue: '100.00' },
    });
    const after = await heartbeat(renter.lockId, { ack: head });
    expect(after.body.desired).toBe('overlocked');
    const changes = after.body.changes as Array<{ sequence: number; kind: string }>;
    expect(changes.every((c) => c.sequence > head)).toBe(true);
    expect(changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'lock', lockId: renter.lockId, desired: 'overlocked' }),
        expect.objectContaining({ kind: 'gate_code', leaseId: renter.leaseId, active: false }),
      ]),
    );
    const acked = changes.at(-1)!.sequence;
    expect((await heartbeat(renter.lockId, { ack: acked })).body.changes).toEqual([]);

    expect((await lockRow(renter.lockId)).differs_since).not.toBeNull();
    await heartbeat(renter.lockId, { ack: acked, reported: 'overlocked' });
    await readModelCaughtUp(platform);
    expect(await lockRow(renter.lockId)).toMatchObject({ desired_state: 'overlocked', reported_state: 'overlocked', differs_since: null });
    // Reported again: no new event on the lock's stream; the heartbeat itself goes on its heartbeat stream.
    const written = (await platform.api.store.readStream(streams.lock(renter.lockId))).length;
    const heard = (await platform.api.store.readStream(streams.lockHeartbeats(renter.lockId))).length;
    await heartbeat(renter.lockId, { ack: acked, reported: 'overlocked' });
    expect((await platform.api.store.readStream(streams.lock(renter.lockId))).filter((e) => e.type === 'lock_state_reported')).toHaveLength(1);
    expect((await platform.api.store.readStream(streams.lock(renter.lockId))).length).toBe(written);
    expect((await platform.api.store.readStream(streams.lockHeartbeats(renter.lockId))).length).toBe(heard + 1);

    const listed = await inject('GET', `/api/locks/${renter.lockId}`);
    expect(listed.json()).toMatchObject({ desiredState: 'overlocked', reportedState: 'overlocked', differsSince: null });
  });

  it('refuses bad heartbeats and attempts with 400 naming the field, and another facility’s key with 403', async () => {
    const renter = await moveIn();
    expect((await heartbeat(renter.lockId, { ack: -1 })).body).toMatchObject({ field: 'ack' });
    expect((await heartbeat(renter.lockId, { reported: 'open' })).body).toMatchObject({ field: 'reported' });
    expect((await heartbeat(renter.lockId, { ack: 0 }, otherKey)).status).toBe(403);
    const at = new Date().toISOString();
    for (const [body, field] of [
      [{ attempts: [] }, 'attempts'],
      [{ attempts: [{ at, via: 'gate_code', granted: true, reason: 'ok' }] }, 'attempts.0.code'],
      [{ attempts: [{ at, via: 'gate_code', code: '12ab', granted: true, reason: 'ok' }] }, 'attempts.0.code'],
      [{ attempts: [{ at, via: 'lock', granted: true, reason: 'ok' }] }, 'attempts.0.lockId'],
      [{ attempts: [{ at: 'yesterday', via: 'gate_code', code: '1234567', granted: true, reason: 'ok' }] }, 'attempts.0.at'],
      [{ attempts: [{ at, via: 'gate_code', code: '1234567', granted: 'yes', reason: 'ok' }] }, 'attempts.0.granted'],
    ] as const) {
      const response = await asGateway('/api/gateway/access-attempts', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().field, JSON.stringify(body)).toBe(field);
    }
    const foreign = await asGateway(
      '/api/gateway/access-attempts',
      { attempts: [{ at, via: 'lock', lockId: renter.lockId, granted: true, reason: 'ok' }] },
      otherKey,
    );
    expect(foreign.statusCode).toBe(403);
    expect((await inject('POST', '/api/gateway/access-attempts', { attempts: [] }, {})).statusCode).toBe(401);
  });

  it("records the gateway's attempts once, and shows each renter only their own in the portal", async () => {
    const a = await moveIn();
    const b = await moveIn();
    const [codeA] = await gateCodes(a.customerId);
    const id = randomUUID();
    const attempts = [
      { id, at: new Date().toISOString(), via: 'gate_code', code: codeA!.code, granted: true, reason: 'Code accepted' },
      { at: new Date().toISOString(), via: 'lock', lockId: a.lockId, granted: false, reason: 'Overlocked' },
      { at: new Date().toISOString(), via: 'gate_code', code: '0000000', granted: false, reason: 'Unknown code' },
      { at: new Date().toISOString(), via: 'lock', lockId: b.lockId, granted: true, reason: 'Unlocked' },
    ];
    const sent = await asGateway('/api/gateway/access-attempts', { attempts });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toEqual({ recorded: 4 });
    // Sent again: the attempt with an id is recorded once.
    expect((await asGateway('/api/gateway/access-attempts', { attempts: [attempts[0]] })).json()).toEqual({ recorded: 0 });
    await readModelCaughtUp(platform);
    const stored = await platform.api.pool.any(sql.type(z.object({ customer_id: z.string().nullable(), payload: z.string() }))`
      SELECT customer_id::text, row_to_json(a)::text AS payload FROM access_attempts a WHERE facility_id = ${facilityId}`);
    expect(stored.filter((r) => r.customer_id === a.customerId)).toHaveLength(2);
    expect(stored.filter((r) => r.customer_id === null)).toHaveLength(1);
    expect(stored.some((r) => r.payload.includes(codeA!.code))).toBe(false);
    const events = await platform.api.pool.anyFirst(sql.type(z.object({ data: z.string() }))`
      SELECT data::text FROM event_store.events WHERE type = 'access_attempted'`);
    expect(events.some((d) => d.includes(codeA!.code))).toBe(false);

    const portal = await platform.api.app.inject({ method: 'POST', url: '/api/customer/verify', payload: { email: a.email, phoneLast4: a.phone.slice(-4) } });
    expect(portal.statusCode, portal.body).toBe(200);
    const renter = [portal.headers['set-cookie']]
      .flat()
      .find((c) => c?.startsWith('storage_session='))!
      .split(';')[0]!;
    const logs = z.array(PortalAccessLog.strict()).parse((await inject('GET', '/api/customer/access-logs', undefined, { cookie: renter })).json());
    expect(logs.map((l) => [l.method, l.granted, l.reason]).sort()).toEqual([
      ['Gate code', true, 'Code accepted'],
      ['Lock', false, 'Overlocked'],
    ]);
    expect(logs.find((l) => l.method === 'Lock')).toMatchObject({ lockId: a.serial, unitNumber: a.unitNumber });
    const units = z.array(PortalUnit.strict()).parse((await inject('GET', '/api/customer/units', undefined, { cookie: renter })).json());
    expect(units).toMatchObject([{ leaseId: a.leaseId, gateCode: { code: codeA!.code, active: true } }]);
  });

  it('takes the largest batch a gateway sends, 500 attempts with every field at its longest, and answers 413 just over the route’s limit', async () => {
    const renter = await moveIn();
    const [owned] = await gateCodes(renter.customerId);
    const hourAgo = Date.now() - 3_600_000;
    // A facility clock's local time to the microsecond, with its offset (32 characters).
    const localTime = (ms: number, micros: number) => `${new Date(ms + 330 * 60_000).toISOString().slice(0, 23)}${String(micros).padStart(3, '0')}+05:30`;
    const reason = 'Denied at the front gate keypad: the code was entered while the lease is suspended for a lockout; staff were notified. '
      .repeat(2)
      .slice(0, 200);
    const attempts = Array.from({ length: MAX_ACCESS_ATTEMPTS }, (_, i) => ({
      id: randomUUID(),
      at: localTime(hourAgo + i * 1_000, i % 1000),
      via: 'gate_code',
      code: owned!.code,
      lockId: renter.lockId,
      granted: false,
      reason,
    }));
    expect(reason).toHaveLength(200);
    const body = JSON.stringify({ attempts });
    // Three times the documented typical batch (about 85 KB), and well over the API's 64 KiB.
    expect(body.length).toBeGreaterThan(190_000);
    expect(body.length).toBeLessThan(MAX_ACCESS_ATTEMPTS_BODY_BYTES);
    const post = (payload: string) =>
      platform.api.app.inject({
        method: 'POST',
        url: '/api/gateway/access-attempts',
        payload,
        headers: { authorization: `Bearer ${gatewayKey}`, 'content-type': 'application/json' },
      });
    const sent = await post(body);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toEqual({ recorded: MAX_ACCESS_ATTEMPTS });
    // Padded to the limit exactly (blanks are valid JSON), it is still read: the repeats are recorded once.
    const atLimit = body.padEnd(MAX_ACCESS_ATTEMPTS_BODY_BYTES, ' ');
    const again = await post(atLimit);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual({ recorded: 0 });
    const over = await post(`${atLimit} `);
    expect(over.statusCode).toBe(413);
    expect(over.json()).toEqual({ message: 'The request body is too large' });
    const reference = (await inject('GET', '/api/openapi.json')).json();
    expect(reference.paths['/api/gateway/access-attempts'].post.responses['413'].description).toBe('The request body is larger than 256 KiB.');
    // Every other body keeps the API's 64 KiB.
    const heartbeat = await asGateway(`/api/locks/${renter.lockId}/heartbeat`, { batteryLevel: 90, firmwareVersion: 'x'.repeat(70_000) });
    expect(heartbeat.statusCode).toBe(413);
  });

  it('suspends the code at move-out for good: clearing a delinquency does not reinstate it, rotation is refused', async () => {
    const renter = await moveIn();
    const ended = await inject('POST', `/api/leases/${renter.leaseId}/end`, { endDate: '2026-03-01' });
    expect(ended.statusCode, ended.body).toBe(200);
    await settled();
    expect(await gateCodes(renter.customerId)).toMatchObject([{ status: 'suspended', suspendedReason: 'move_out' }]);
    await appendDelinquency(renter.customerId, {
      type: 'delinquency_cleared',
      data: { customerId: renter.customerId, date: '2026-03-02', pastDue: '0.00', reason: 'Written off' },
    });
    expect(await gateCodes(renter.customerId)).toMatchObject([{ status: 'suspended', suspendedReason: 'move_out' }]);
    expect((await inject('POST', `/api/leases/${renter.leaseId}/gate-code/rotate`)).statusCode).toBe(409);
  });

  it('restores access within seconds of the payment that settles the renter (payment → cleared → codes and locks)', async () => {
    const renter = await moveIn();
    await appendDelinquency(renter.customerId, {
      type: 'delinquency_step_taken',
      data: { customerId: renter.customerId, kind: 'lockout', day: 15, invoiceId: randomUUID(), date: '2026-01-16', pastDue: '100.00' },
    });
    expect((await lockRow(renter.lockId)).desired_state).toBe('overlocked');
    const owed = await platform.api.pool.oneFirst(sql.type(z.object({ owed: z.string() }))`
      SELECT coalesce(sum(amount - amount_paid), 0)::numeric(20, 2)::text AS owed FROM invoices WHERE customer_id = ${renter.customerId} AND status IN ('sent', 'overdue')`);
    expect(Number(owed)).toBeGreaterThan(0);
    const paid = await inject('POST', `/api/customers/${renter.customerId}/payments`, { amount: owed, method: 'cash' });
    expect(paid.statusCode, paid.body).toBe(201);
    await expect.poll(async () => (await lockRow(renter.lockId)).desired_state, { timeout: 10_000, interval: 50 }).toBe('normal');
    expect(await gateCodes(renter.customerId)).toMatchObject([{ status: 'active', suspendedReason: null }]);
    const cleared = await platform.api.store.readStream(streams.delinquency(renter.customerId));
    expect(cleared.map((e) => e.type)).toEqual(['delinquency_step_taken', 'delinquency_cleared']);
  });
});

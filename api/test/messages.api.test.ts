import { randomUUID } from 'node:crypto';
import { currentSchemaVersion, type DomainEvent, streams } from '@storage/contracts/events';
import { OutboxMessage, OutboxMessageDetail } from '@storage/contracts/messages';
import { addDays } from '@storage/domain/billing/calendar';
import { runBillingDay } from '@storage/domain/billing/run';
import { toDomainEvent } from '@storage/domain/commands/handle';
import { wakeOutbox } from '@storage/projector/outbox/signal';
import { readModelProjections } from '@storage/projector/projections';
import { messagesReaction } from '@storage/projector/reactions/messages';
import { rebuildReadModel } from '@storage/projector/rebuild';
import { reserveOnline } from '@storage/testing/online-reservations';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { startSmtpServer, type TestSmtpServer, mailText as textOf } from '@storage/testing/smtp';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

// Messages to renters against a REAL SMTP server the test starts: an event becomes exactly one
// message with the right words; a refusal is retried and later delivered; a rebuild sends nothing
// again; an opted-out renter's message is kept as suppressed; owners word and preview templates.

describe('messages to renters', () => {
  let smtp: TestSmtpServer;
  let platform: TestPlatform;
  const cookies: Record<string, string> = {};
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, role: string, payload?: unknown) =>
    platform.api.app.inject({ method, url, payload: payload as object, headers: { cookie: cookies[role]! } });

  beforeAll(async () => {
    smtp = await startSmtpServer();
    platform = await startTestPlatform({
      billing: false,
      config: { smtpUrl: `smtp://127.0.0.1:${smtp.port}`, mailFrom: 'Riverside Storage <office@riverside.test>', publicUrl: 'https://storage.test' },
    });
    for (const role of ['owner', 'manager', 'clerk', 'auditor'] as const) cookies[role] = await platform.signIn(role);
  });
  afterAll(async () => {
    await platform?.close();
    await smtp?.close();
  });

  async function customer(firstName = 'Mara') {
    const tag = randomUUID().slice(0, 8);
    const email = `${firstName.toLowerCase()}-${tag}@renter.test`;
    const created = await call('POST', '/api/customers', 'owner', { firstName, lastName: `Mail${tag}`, email });
    expect(created.statusCode).toBe(201);
    return { id: created.json().id as string, email, lastName: `Mail${tag}` };
  }

  async function sentInvoice(customerId: string, amount = '120.00') {
    const created = await call('POST', '/api/invoices', 'owner', {
      invoiceNumber: `INV-${randomUUID().slice(0, 6)}`,
      customerId,
      amount,
      dueDate: '2026-12-01',
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as string;
    expect((await call('POST', `/api/invoices/${id}/send`, 'owner')).statusCode).toBe(200);
    return { id, invoiceNumber: created.json().invoiceNumber as string };
  }

  async function append(stream: string, event: DomainEvent) {
    const id = randomUUID();
    await platform.api.store.append(
      stream,
      [
        {
          id,
          type: event.type,
          data: event.data as Record<string, unknown>,
          metadata: {
            actor: { type: 'system' },
            correlationId: randomUUID(),
            causationId: null,
            schemaVersion: currentSchemaVersion[event.type],
            occurredAt: new Date().toISOString(),
          },
        },
      ],
      { expectedRevision: 'any' },
    );
    return id;
  }

  const messagesOf = async (customerId: string) =>
    z.array(OutboxMessage).parse((await call('GET', `/api/messages?customerId=${customerId}`, 'auditor')).json());
  const receivedBy = (email: string) => smtp.received.filter((m) => m.to.includes(email));
  const pendingFor = (customerId: string) =>
    platform.api.pool.oneFirst(
      sql.type(z.object({ n: z.number() }))`SELECT count(*)::int AS n FROM outbox_messages WHERE customer_id = ${customerId} AND status = 'pending'`,
    );
  /**
   * Waits until nothing more can reach the renter: every reaction has acted on every event written
   * so far (each message the log asks for is in the outbox), and the outbox has sent or set aside
   * every one of theirs. A wait of fixed length proves neither on a loaded machine.
   */
  async function outboxSettled(customerId: string) {
    expect(await platform.reactionsCaughtUp()).toBe(true);
    wakeOutbox();
    await expect.poll(() => pendingFor(customerId)).toBe(0);
  }

  it('sends an issued invoice to the renter once, with its number, amount and due date', async () => {
    const renter = await customer('Mara');
    const invoice = await sentInvoice(renter.id, '120.00');
    await expect.poll(() => receivedBy(renter.email).length).toBe(1);
    const [mail] = receivedBy(renter.email);
    expect(mail!.from).toBe('office@riverside.test');
    expect(mail!.raw).toContain(`Subject: Invoice ${invoice.invoiceNumber}: $120.00 due Dec 1, 2026`);
    const text = textOf(mail!.raw);
    expect(text).toContain('Hello Mara,');
    expect(text).toContain(`Your invoice ${invoice.invoiceNumber} for $120.00 is due on Dec 1, 2026.`);
    expect(text).toContain('https://storage.test/customer-portal');

    await expect.poll(async () => (await messagesOf(renter.id)).map((m) => [m.templateKey, m.status, m.attempts])).toEqual([['invoice_issued', 'sent', 1]]);
    const [row] = await messagesOf(renter.id);
    const detail = OutboxMessageDetail.parse((await call('GET', `/api/messages/${row!.id}`, 'clerk')).json());
    expect(detail.body).toContain(invoice.invoiceNumber);
    expect(detail.to).toBe(renter.email);
    // Nothing more, however long we wait for a repeat.
    await outboxSettled(renter.id);
    expect(receivedBy(renter.email)).toHaveLength(1);
  });

  it('welcomes a renter with their gate code, which is filled in as it is sent and never kept in the outbox', async () => {
    const renter = await customer('Gus');
    const leaseId = randomUUID();
    await append(streams.gateCode(leaseId), {
      type: 'gate_code_assigned',
      data: { leaseId, customerId: renter.id, facilityId: null, code: '482913', reason: 'move_in' },
    });
    await expect.poll(() => receivedBy(renter.email).length).toBe(1);
    expect(textOf(receivedBy(renter.email)[0]!.raw)).toContain('Your gate code is 482913, and you can come in 24/7.');
    const [row] = await messagesOf(renter.id);
    expect(row).toMatchObject({ templateKey: 'move_in_welcome', status: 'sent' });
    const detail = OutboxMessageDetail.parse((await call('GET', `/api/messages/${row!.id}`, 'owner')).json());
    expect(detail.body).toContain('Your gate code is [gate code], and');
    expect(detail.body).not.toContain('482913');
    // A rotation is not a welcome.
    await append(streams.gateCode(leaseId), {
      type: 'gate_code_assigned',
      data: { leaseId, customerId: renter.id, facilityId: null, code: '550011', reason: 'rotated' },
    });
    // The messages reaction has acted on the rotation: a welcome it wrote would be listed now.
    expect(await platform.reactionsCaughtUp()).toBe(true);
    expect(await messagesOf(renter.id)).toHaveLength(1);
  });

  it('tells a renter the facility enrolled them in its default protection plan, and nothing of a plan they or staff chose', async () => {
    const renter = await customer('Pia');
    const leaseId = randomUUID();
    const plan = { planId: randomUUID(), name: 'Standard', coverageAmount: '5000.00', monthlyPremium: '18.00' };
    const changed = (reason: 'chosen_at_move_in' | 'enrolled_by_default'): DomainEvent => ({
      type: 'lease_protection_changed',
      data: { leaseId, customerId: renter.id, protection: plan, effectiveDate: '2027-01-01', reason },
    });
    await append(streams.lease(leaseId), changed('chosen_at_move_in'));
    expect(await platform.reactionsCaughtUp()).toBe(true);
    expect(await messagesOf(renter.id)).toHaveLength(0);
    await append(streams.lease(leaseId), changed('enrolled_by_default'));
    await expect.poll(() => receivedBy(renter.email).length).toBe(1);
    const mail = receivedBy(renter.email)[0]!;
    expect(mail.raw).toContain('is now covered by Standard');
    expect(textOf(mail.raw)).toContain('covered by our Standard plan: up to $5,000.00, for $18.00 a month on your rent invoices from Jan 1, 2027.');
    expect((await messagesOf(renter.id)).map((m) => m.templateKey)).toEqual(['protection_enrolled']);
  });

  it('welcomes a renter who moved in with the unit and the code the move-in gave them', async () => {
    const renter = await customer('Milo');
    const unitNumber = `W-${randomUUID().slice(0, 5)}`;
    const unit = await call('POST', '/api/units', 'owner', { unitNumber, building: 'A', monthlyRate: '100.00' });
    expect(unit.statusCode).toBe(201);
    const lease = await call('POST', '/api/leases', 'owner', {
      customerId: renter.id,
      unitId: unit.json().id,
      monthlyRate: '100.00',
      depositAmount: null,
      startDate: new Date().toISOString().slice(0, 10),
    });
    expect(lease.statusCode, lease.body).toBe(201);
    await expect.poll(() => receivedBy(renter.email).some((m) => m.raw.includes('Subject: Welcome to'))).toBe(true);
    const welcome = textOf(receivedBy(renter.email).find((m) => m.raw.includes('Subject: Welcome to'))!.raw);
    const assigned = (await platform.api.store.readStream(streams.gateCode(lease.json().id))).map(toDomainEvent).find((e) => e.type === 'gate_code_assigned');
    expect(assigned?.type === 'gate_code_assigned' && assigned.data.code).toMatch(/^\d+$/);
    const code = assigned?.type === 'gate_code_assigned' ? assigned.data.code : '';
    expect(welcome).toContain(`Your unit ${unitNumber} is ready.`);
    expect(welcome).toContain(`Your gate code is ${code}, and you can come in 24/7.`);
  });

  it('retries a message the server refused, and delivers it later', async () => {
    const renter = await customer('Remy');
    smtp.state.refusing = true;
    try {
      await append(streams.delinquency(renter.id), {
        type: 'delinquency_step_taken',
        data: { customerId: renter.id, kind: 'late_notice', day: 5, invoiceId: randomUUID(), date: '2026-12-06', pastDue: '80.50' },
      });
      await expect
        .poll(async () => (await messagesOf(renter.id)).map((m) => [m.status, m.attempts, m.lastError !== null]), { timeout: 15_000 })
        .toEqual([['pending', 1, true]]);
      const [refused] = await messagesOf(renter.id);
      expect(refused!.lastError).toMatch(/Mailbox unavailable/);
      // The next attempt waits a minute (the first step of the backoff).
      const waitMs = Date.parse(refused!.nextAttemptAt!) - Date.now();
      expect(waitMs).toBeGreaterThan(40_000);
      expect(waitMs).toBeLessThan(70_000);
      expect(receivedBy(renter.email)).toHaveLength(0);
    } finally {
      smtp.state.refusing = false;
    }
    // The minute has passed.
    await platform.api.pool.query(sql.unsafe`UPDATE outbox_messages SET next_attempt_at = now() WHERE customer_id = ${renter.id}`);
    wakeOutbox();
    await expect.poll(() => receivedBy(renter.email).length).toBe(1);
    expect(textOf(receivedBy(renter.email)[0]!.raw)).toContain('past due by $80.50');
    await expect
      .poll(async () => (await messagesOf(renter.id)).map((m) => [m.templateKey, m.status, m.attempts, m.lastError]))
      .toEqual([['late_notice', 'sent', 2, null]]);
    const attempts = await platform.api.pool.anyFirst(sql.type(z.object({ ok: z.boolean() }))`
      SELECT a.ok FROM outbox_attempts a JOIN outbox_messages m ON m.id = a.message_id WHERE m.customer_id = ${renter.id} ORDER BY a.attempt`);
    expect(attempts).toEqual([false, true]);
  });

  it('fails a message after its last attempt, and lets a manager try it once more', async () => {
    const renter = await customer('Fay');
    smtp.state.refusing = true;
    let id: string;
    try {
      await append(streams.delinquency(renter.id), {
        type: 'delinquency_step_taken',
        data: { customerId: renter.id, kind: 'pre_lien_notice', day: 30, invoiceId: randomUUID(), date: '2026-12-31', pastDue: '10.00' },
      });
      await expect.poll(async () => (await messagesOf(renter.id)).map((m) => [m.status, m.lastError !== null])).toEqual([['pending', true]]);
      id = (await messagesOf(renter.id))[0]!.id;
      expect((await call('POST', `/api/messages/${id}/retry`, 'manager')).statusCode).toBe(409);
      // Seven attempts later (the backoff's hours have passed), the eighth is the last.
      await platform.api.pool.query(sql.unsafe`UPDATE outbox_messages SET attempts = 7, next_attempt_at = now() WHERE id = ${id}`);
      wakeOutbox();
      await expect.poll(async () => (await messagesOf(renter.id)).map((m) => [m.status, m.attempts, m.nextAttemptAt])).toEqual([['failed', 8, null]]);
    } finally {
      smtp.state.refusing = false;
    }
    // The worker claims every due message at each pass: once it has delivered one written after
    // the failure, a pass that would have taken the failed one again, were it still due, has run.
    const later = await customer('Lark');
    await append(streams.delinquency(later.id), {
      type: 'delinquency_step_taken',
      data: { customerId: later.id, kind: 'late_notice', day: 5, invoiceId: randomUUID(), date: '2026-12-06', pastDue: '10.00' },
    });
    await expect.poll(() => receivedBy(later.email).length, { timeout: 15_000 }).toBe(1);
    expect((await messagesOf(renter.id))[0]!.attempts).toBe(8);
    expect((await call('POST', `/api/messages/${id}/retry`, 'clerk')).statusCode).toBe(403);
    expect((await call('POST', `/api/messages/${randomUUID()}/retry`, 'manager')).statusCode).toBe(404);
    const retried = await call('POST', `/api/messages/${id}/retry`, 'manager');
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toMatchObject({ status: 'pending', attempts: 8 });
    await expect.poll(() => receivedBy(renter.email).length, { timeout: 15_000 }).toBe(1);
    await expect.poll(async () => (await messagesOf(renter.id)).map((m) => [m.status, m.attempts])).toEqual([['sent', 9]]);
  });

  it('sends nothing again after a rebuild of the read model, or when the event is shown again', async () => {
    const renter = await customer('Rhea');
    const invoice = await sentInvoice(renter.id);
    await expect.poll(() => receivedBy(renter.email).length).toBe(1);
    const before = await platform.api.pool.oneFirst(sql.type(z.object({ n: z.number() }))`SELECT count(*)::int8 AS n FROM outbox_messages`);

    await rebuildReadModel(platform.api.pool, platform.api.store, readModelProjections);
    // The event shown to the reaction again (a crash before its checkpoint moved).
    const recorded = (await platform.api.store.readStream(streams.invoice(invoice.id))).find((e) => e.type === 'invoice_sent')!;
    await messagesReaction.react({ ...recorded, ...toDomainEvent(recorded) } as never, { store: platform.api.store, pool: platform.api.pool, now: new Date() });
    wakeOutbox();

    // The projector back past the rebuilt read model, every reaction past the log's head, and the
    // outbox through the renter's messages: a message written again would have been sent by now.
    await outboxSettled(renter.id);
    expect(await platform.api.pool.oneFirst(sql.type(z.object({ n: z.number() }))`SELECT count(*)::int8 AS n FROM outbox_messages`)).toBe(before);
    expect(receivedBy(renter.email)).toHaveLength(1);
  });

  it("keeps an opted-out renter's message as suppressed, but always sends the legal notices", async () => {
    const renter = await customer('Otto');
    expect((await call('PUT', `/api/customers/${renter.id}/message-preferences`, 'clerk', { optOuts: ['invoice_issued'] })).json().optOuts).toEqual([
      'invoice_issued',
    ]);
    const required = await call('PUT', `/api/customers/${renter.id}/message-preferences`, 'clerk', { optOuts: ['late_notice'] });
    expect(required.statusCode).toBe(400);
    expect(required.json().message).toMatch(/^optOuts/);
    expect((await call('PUT', `/api/customers/${renter.id}/message-preferences`, 'auditor', { optOuts: [] })).statusCode).toBe(403);
    expect((await call('PUT', `/api/customers/${randomUUID()}/message-preferences`, 'clerk', { optOuts: [] })).statusCode).toBe(404);

    await sentInvoice(renter.id);
    await append(streams.delinquency(renter.id), {
      type: 'delinquency_step_taken',
      data: { customerId: renter.id, kind: 'lockout', day: 15, invoiceId: randomUUID(), date: '2026-12-16', pastDue: '120.00' },
    });
    await expect
      .poll(async () => (await messagesOf(renter.id)).map((m) => [m.templateKey, m.status]).sort())
      .toEqual([
        ['invoice_issued', 'suppressed'],
        ['lockout_notice', 'sent'],
      ]);
    expect(receivedBy(renter.email).map((m) => /Subject: (.*)/.exec(m.raw)?.[1])).toEqual(['Your access is suspended: $120.00 past due']);
  });

  it('tells the renter their access is restored only when a lockout is undone', async () => {
    const renter = await customer('Ada');
    const stream = streams.delinquency(renter.id);
    await append(stream, { type: 'delinquency_cleared', data: { customerId: renter.id, date: '2026-12-02', pastDue: '0.00', reason: 'payment' } });
    await append(stream, {
      type: 'delinquency_step_taken',
      data: { customerId: renter.id, kind: 'lockout', day: 15, invoiceId: randomUUID(), date: '2026-12-16', pastDue: '50.00' },
    });
    await append(stream, { type: 'delinquency_cleared', data: { customerId: renter.id, date: '2026-12-17', pastDue: '0.00', reason: 'payment' } });
    await expect.poll(async () => (await messagesOf(renter.id)).map((m) => m.templateKey).sort()).toEqual(['access_restored', 'lockout_notice']);
  });

  it('lets an owner word a template, refusing unknown placeholders, preview it with real data and reset it', async () => {
    const renter = await customer('Pia');
    await sentInvoice(renter.id, '64.25');
    const templates = (await call('GET', '/api/message-templates', 'auditor')).json() as Array<{ key: string; isDefault: boolean; optional: boolean }>;
    expect(templates).toHaveLength(11);
    expect(templates.find((t) => t.key === 'late_notice')).toMatchObject({ isDefault: true, optional: false });

    const unknown = await call('PUT', '/api/message-templates/invoice_issued', 'owner', { subject: 'Bill {invoiceNo}', body: 'Hi {firstName}' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ message: 'subject: unknown placeholder {invoiceNo}', field: 'subject' });
    expect((await call('PUT', '/api/message-templates/invoice_issued', 'manager', { subject: 'Bill', body: 'Hi' })).statusCode).toBe(403);
    expect((await call('PUT', '/api/message-templates/no_such_message', 'owner', { subject: 'Bill', body: 'Hi' })).statusCode).toBe(400);
    expect((await call('PUT', '/api/message-templates/invoice_issued', 'owner', { subject: '  ', body: 'Hi' })).json().field).toBe('subject');

    const saved = await call('PUT', '/api/message-templates/invoice_issued', 'owner', {
      subject: 'Your bill {invoiceNumber}',
      body: 'Dear {firstName} {lastName}, please pay {amount} by {dueDate}.',
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ isDefault: false, subject: 'Your bill {invoiceNumber}' });

    const preview = await call('POST', '/api/message-templates/invoice_issued/preview', 'clerk', { customerId: renter.id });
    expect(preview.statusCode).toBe(200);
    expect(preview.json().to).toBe(renter.email);
    expect(preview.json().body).toMatch(/^Dear Pia Mail\w+, please pay \$64\.25 by Dec 1, 2026\.$/);
    const draft = await call('POST', '/api/message-templates/late_notice/preview', 'owner', {
      customerId: renter.id,
      subject: 'Hey {firstName}',
      body: '{nope}',
    });
    expect(draft.json()).toMatchObject({ field: 'body', message: 'body: unknown placeholder {nope}' });
    expect((await call('POST', '/api/message-templates/late_notice/preview', 'owner', { customerId: randomUUID() })).statusCode).toBe(404);
    expect((await call('POST', '/api/message-templates/late_notice/preview', 'owner', { customerId: 'x' })).json().field).toBe('customerId');

    // The next message uses the owner's wording.
    const next = await sentInvoice(renter.id, '10.00');
    await expect.poll(() => receivedBy(renter.email).some((m) => m.raw.includes(`Subject: Your bill ${next.invoiceNumber}`))).toBe(true);

    const reset = await call('DELETE', '/api/message-templates/invoice_issued', 'owner');
    expect(reset.json()).toMatchObject({ isDefault: true, subject: 'Invoice {invoiceNumber}: {amount} due {dueDate}' });
  });

  it('sends one receipt for a desk payment over several invoices, and an invoice created as sent once', async () => {
    const renter = await customer('Cass');
    const created = await call('POST', '/api/invoices', 'owner', {
      invoiceNumber: `INV-${randomUUID().slice(0, 6)}`,
      customerId: renter.id,
      amount: '30.00',
      dueDate: '2026-12-01',
      status: 'sent',
    });
    expect(created.statusCode).toBe(201);
    await sentInvoice(renter.id, '20.00');
    const paid = await call('POST', `/api/customers/${renter.id}/payments`, 'clerk', { amount: '50.00', method: 'cash' });
    expect(paid.statusCode, paid.body).toBeLessThan(300);
    await expect
      .poll(async () => (await messagesOf(renter.id)).map((m) => m.templateKey).sort())
      .toEqual(['invoice_issued', 'invoice_issued', 'payment_receipt']);
    await expect.poll(() => receivedBy(renter.email).length).toBe(3);
    const receipt = receivedBy(renter.email).find((m) => m.raw.includes('Subject: Payment received: $50.00'));
    expect(receipt).toBeDefined();
  });

  it('rings the bell for a lockout and a pre-lien notice, following the overdue-payment alerts', async () => {
    const renter = await customer('Bea');
    for (const kind of ['lockout', 'pre_lien_notice'] as const) {
      await append(streams.delinquency(renter.id), {
        type: 'delinquency_step_taken',
        data: { customerId: renter.id, kind, day: kind === 'lockout' ? 15 : 30, invoiceId: randomUUID(), date: '2026-12-16', pastDue: '99.00' },
      });
    }
    await expect
      .poll(async () =>
        ((await call('GET', '/api/notifications', 'owner')).json() as Array<{ type: string; message: string }>)
          .filter((n) => n.message.startsWith(`Bea ${renter.lastName}`) && n.type !== 'customer_added')
          .map((n) => n.type)
          .sort(),
      )
      .toEqual(['pre_lien_notice', 'renter_locked_out']);

    // With the overdue-payment alerts off, a lockout rings nothing (the renter is still told).
    const alerts = { overduePaymentAlerts: false, lowBatteryAlerts: true, newCustomerAlerts: true };
    expect((await call('PUT', '/api/settings/notifications', 'owner', alerts)).statusCode).toBe(200);
    try {
      const quiet = await customer('Bea');
      await append(streams.delinquency(quiet.id), {
        type: 'delinquency_step_taken',
        data: { customerId: quiet.id, kind: 'lockout', day: 15, invoiceId: randomUUID(), date: '2026-12-16', pastDue: '99.00' },
      });
      await expect.poll(async () => (await messagesOf(quiet.id)).map((m) => m.templateKey)).toEqual(['lockout_notice']);
      expect(await platform.readModelCaughtUp()).toBe(true);
      const rung = (await call('GET', '/api/notifications', 'owner')).json() as Array<{ type: string; message: string }>;
      expect(rung.filter((n) => n.message.startsWith(`Bea ${quiet.lastName}`) && n.type !== 'customer_added')).toEqual([]);
    } finally {
      await call('PUT', '/api/settings/notifications', 'owner', { ...alerts, overduePaymentAlerts: true });
    }
  });

  it('lets a renter in the portal turn off optional emails, never a legal notice', async () => {
    const tag = randomUUID().slice(0, 8);
    const email = `portal-${tag}@renter.test`;
    const created = await call('POST', '/api/customers', 'owner', { firstName: 'Pat', lastName: `Portal${tag}`, email, phone: '(503) 555-0142' });
    expect(created.statusCode).toBe(201);
    const verified = await platform.api.app.inject({ method: 'POST', url: '/api/customer/verify', payload: { email, phoneLast4: '0142' } });
    expect(verified.statusCode).toBe(200);
    const cookie = String(verified.headers['set-cookie']).split(';')[0]!;
    const portal = (method: 'GET' | 'PUT', payload?: object) =>
      platform.api.app.inject({ method, url: '/api/customer/message-preferences', payload, headers: { cookie } });
    expect((await portal('GET')).json()).toMatchObject({ optOuts: [], alwaysSent: expect.arrayContaining(['late_notice', 'pre_lien_notice']) });
    expect((await portal('PUT', { optOuts: ['payment_receipt', 'invoice_issued'] })).json().optOuts).toEqual(['invoice_issued', 'payment_receipt']);
    const legal = await portal('PUT', { optOuts: ['pre_lien_notice'] });
    expect(legal.statusCode).toBe(400);
    expect(legal.json().message).toMatch(/^optOuts/);
    expect((await portal('PUT', { optOuts: 'all' })).json().field).toBe('optOuts');
    expect((await call('GET', `/api/customers/${created.json().id}/message-preferences`, 'auditor')).json().optOuts).toEqual([
      'invoice_issued',
      'payment_receipt',
    ]);
    // The history says who chose what, in words.
    const history = (await call('GET', `/api/history/customer/${created.json().id}`, 'owner')).json() as {
      events: Array<{ description: string; actor: string }>;
    };
    expect(history.events.map((e) => [e.description, e.actor])).toContainEqual([
      'Emails turned off: Invoice issued, Payment receipt',
      `Renter Pat Portal${tag}`,
    ]);
  });

  it('confirms an online reservation to the address typed on the form, with the unit and the move-in date', async () => {
    const unitNumber = `M-${randomUUID().slice(0, 5)}`;
    const unit = await call('POST', '/api/units', 'owner', { unitNumber, building: 'A', monthlyRate: '99.00' });
    expect(unit.statusCode).toBe(201);
    const email = `reserve-${randomUUID().slice(0, 6)}@renter.test`;
    const reserved = await reserveOnline(platform.api.app, smtp, {
      unitId: unit.json().id,
      customerData: { firstName: 'Rosa', lastName: 'Reserve', email, phone: '503-555-0199', moveInDate: '2026-12-15' },
    });
    expect(reserved.statusCode, reserved.body).toBe(200);
    // The link to confirm came first; the confirmation once the visitor confirmed from it.
    await expect.poll(() => receivedBy(email).length).toBe(2);
    expect(receivedBy(email)[0]!.raw).toContain('Subject: Confirm your storage unit reservation');
    expect(receivedBy(email)[1]!.raw).toContain(`Subject: Your reservation of unit ${unitNumber} is confirmed`);
    expect(textOf(receivedBy(email)[1]!.raw)).toContain('Hello Rosa,');
    expect(textOf(receivedBy(email)[1]!.raw)).toContain('until your move-in on Dec 15, 2026');
  });

  it('tells of a failed autopay only after the last attempt or when the card needs the renter (with a link to pay), and of a rent change', async () => {
    const renter = await customer('Ari');
    const invoice = await sentInvoice(renter.id, '88.00');
    await expect.poll(() => receivedBy(renter.email).length).toBe(1);
    const failed = (attempt: number, nextAttemptOn: string | null, requiresAction: boolean): DomainEvent => ({
      type: 'autopay_charge_failed',
      data: {
        attemptId: randomUUID(),
        customerId: renter.id,
        invoiceId: invoice.id,
        attempt,
        amount: '88.00',
        reason: 'card_declined',
        requiresAction,
        nextAttemptOn,
      },
    });
    await append(streams.autopayCharges(invoice.id), failed(1, '2026-12-03', false));
    await append(streams.autopayCharges(invoice.id), failed(2, '2026-12-05', true));
    await append(streams.autopayCharges(invoice.id), failed(3, null, false));
    const leaseId = randomUUID();
    await append(streams.lease(leaseId), {
      type: 'lease_rent_change_scheduled',
      data: {
        leaseId,
        customerId: renter.id,
        changeId: randomUUID(),
        currentRate: '100.00',
        newRate: '110.00',
        noticeDate: '2026-11-24',
        effectiveDate: '2027-01-01',
        reason: null,
      },
    });
    await expect.poll(() => receivedBy(renter.email).length).toBe(4);
    const texts = receivedBy(renter.email).map((m) => textOf(m.raw));
    const autopay = texts.filter((t) => t.includes('We could not charge your saved card $88.00'));
    expect(autopay).toHaveLength(2);
    expect(autopay.some((t) => t.includes(`https://storage.test/checkout/${invoice.id}`) && t.includes('your card asks you to confirm the payment'))).toBe(
      true,
    );
    expect(autopay.some((t) => t.includes('https://storage.test/customer-portal') && t.includes('(card_declined)'))).toBe(true);
    expect(texts.some((t) => t.includes('changes from $100.00 to $110.00 on Jan 1, 2027'))).toBe(true);
    // The rent change came last: every failure before it was looked at, and the first (retried) told nothing.
    expect((await messagesOf(renter.id)).map((m) => m.templateKey).sort()).toEqual([
      'autopay_failed',
      'autopay_failed',
      'invoice_issued',
      'rent_change_notice',
    ]);
  });

  it("lists a facility's messages under that facility only, signed with its name, and searches them", async () => {
    const facilities = await Promise.all(
      ['Harbor', 'Summit'].map(async (name) => {
        const created = await call('POST', '/api/facilities', 'owner', { name: `${name} Storage`, address: '1 Main St' });
        expect(created.statusCode).toBe(201);
        return created.json().id as string;
      }),
    );
    const tag = randomUUID().slice(0, 8);
    const email = `scoped-${tag}@renter.test`;
    const created = await call('POST', '/api/customers', 'owner', { firstName: 'Sol', lastName: `Scope${tag}`, email, facilityId: facilities[0] });
    expect(created.statusCode).toBe(201);
    await sentInvoice(created.json().id);
    await expect.poll(() => receivedBy(email).length).toBe(1);
    expect(textOf(receivedBy(email)[0]!.raw)).toContain('Harbor Storage');
    const listed = async (query: string) =>
      z
        .array(OutboxMessage)
        .parse((await call('GET', `/api/messages?${query}`, 'clerk')).json())
        .map((m) => m.to);
    expect(await listed(`facilityId=${facilities[0]}`)).toEqual([email]);
    expect(await listed(`facilityId=${facilities[1]}`)).toEqual([]);
    expect(await listed(`search=scope${tag}`)).toEqual([email]);
    // The outbox marks a message sent once the mail server has taken it: a moment after it arrived there.
    await expect.poll(() => listed(`search=${encodeURIComponent(email.toUpperCase())}&status=sent`)).toEqual([email]);
    expect(await listed(`search=${tag}&status=failed`)).toEqual([]);
  });

  it('tells a renter who falls behind each step once, and that their access is back once they pay', async () => {
    const renter = await customer('Dell');
    const today = new Date().toISOString().slice(0, 10);
    const created = await call('POST', '/api/invoices', 'owner', {
      invoiceNumber: `INV-${randomUUID().slice(0, 6)}`,
      customerId: renter.id,
      amount: '145.00',
      dueDate: today,
    });
    expect((await call('POST', `/api/invoices/${created.json().id}/send`, 'owner')).statusCode).toBe(200);
    // The billing day on day 5 (twice: the second decides nothing) takes the late notice, and on
    // day 15 (catching up the days between) the lockout.
    for (const date of [addDays(today, 5), addDays(today, 5), addDays(today, 15)]) {
      const day = await runBillingDay({ pool: platform.api.pool, store: platform.api.store }, new Date(), { date });
      if (day.position) await platform.api.afterAppend(day.position, 10_000);
    }
    await expect.poll(() => receivedBy(renter.email).length).toBe(3);
    const paid = await call('POST', `/api/customers/${renter.id}/payments`, 'clerk', { amount: '145.00', method: 'cash' });
    expect(paid.statusCode).toBe(201);
    await expect.poll(() => receivedBy(renter.email).length).toBe(5);
    // Every step, the clearing and the restored access acted on, and each of their messages sent.
    await outboxSettled(renter.id);
    const subjects = receivedBy(renter.email).map((m) => /Subject: (.*)/.exec(m.raw)?.[1]);
    expect(subjects).toHaveLength(5);
    expect(subjects).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Invoice INV-\w+: \$145\.00 due/),
        'Late notice: $145.00 past due',
        'Your access is suspended: $145.00 past due',
        'Payment received: $145.00',
        'Your access is restored',
      ]),
    );
  });

  it('answers 4xx for a bad list query, an unknown message, and a portal session for its own choices only', async () => {
    expect((await call('GET', '/api/messages?status=lost', 'owner')).json().field).toBe('status');
    expect((await call('GET', '/api/messages?pageSize=500', 'owner')).statusCode).toBe(400);
    expect((await call('GET', `/api/messages/${randomUUID()}`, 'owner')).statusCode).toBe(404);
    expect((await call('GET', '/api/messages/not-an-id', 'owner')).statusCode).toBe(400);
    expect((await call('GET', '/api/customer/message-preferences', 'owner')).statusCode).toBe(401);
    const renter = await customer('Lien');
    const pdf = await call('GET', `/api/customers/${renter.id}/pre-lien-letter.pdf`, 'auditor');
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await call('GET', `/api/customers/${randomUUID()}/pre-lien-letter.pdf`, 'owner')).statusCode).toBe(404);
  });
});

import { randomUUID } from 'node:crypto';
import { streams } from '@storage/contracts/events';
import { InvoiceDetail, InvoiceListItem } from '@storage/contracts/invoices';
import { Ledger } from '@storage/contracts/ledger';
import { AgingReport } from '@storage/contracts/reports';
import { afterPaymentRecorded, recordPayment } from '@storage/domain/invoices/commands';
import { verifyReadModel } from '@storage/projector/verify';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

const DAY = 86_400_000;
const isoDaysFromNow = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);
const tag = () => randomUUID().slice(0, 8);

describe('invoices API', () => {
  let platform: TestPlatform;
  let cookie: string;
  let manager: string;
  const inject = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, as = cookie) =>
    platform.api.app.inject({ method, url, payload: payload as object, headers: { cookie: as } });

  const facilityA = randomUUID();
  const facilityB = randomUUID();

  /**
   * Commands wait (bounded, ~2 s) for the read model before they answer; on a machine busy with
   * other test runs it can take longer, so the tests wait for the stream's last event themselves.
   */
  async function projected(stream: string) {
    const last = (await platform.api.store.readStream(stream)).at(-1);
    if (last) expect(await platform.api.afterAppend(last.position, 15_000)).toBe(true);
  }

  async function customer(overrides: Record<string, unknown> = {}) {
    const t = tag();
    const response = await inject('POST', '/api/customers', {
      firstName: 'Ivy',
      lastName: `Biller${t}`,
      email: `ivy-${t}@example.com`,
      status: 'active',
      facilityId: facilityA,
      ...overrides,
    });
    expect(response.statusCode).toBe(201);
    await projected(`customer-${response.json().id}`);
    return response.json() as { id: string; firstName: string; lastName: string; email: string; facilityId: string | null };
  }

  const invoiceBody = (customerId: string, overrides: Record<string, unknown> = {}) => ({
    invoiceNumber: `INV-${Date.now()}-${tag()}`,
    customerId,
    amount: '120.00',
    dueDate: isoDaysFromNow(30),
    status: 'draft',
    description: 'Monthly rent',
    ...overrides,
  });

  async function invoice(customerId: string, overrides: Record<string, unknown> = {}): Promise<InvoiceListItem> {
    const response = await inject('POST', '/api/invoices', invoiceBody(customerId, overrides));
    expect(response.statusCode, response.body).toBe(201);
    await projected(`invoice-${response.json().id}`);
    return response.json();
  }

  const total = async (url: string) => Number((await inject('GET', url)).headers['x-total-count']);

  beforeAll(async () => {
    platform = await startTestPlatform();
    cookie = await platform.signIn('clerk');
    manager = await platform.signIn('manager');
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('answers 401 to every invoices call when signed out', async () => {
    const id = randomUUID();
    for (const [method, url] of [
      ['GET', '/api/invoices'],
      ['GET', `/api/invoices/${id}`],
      ['POST', '/api/invoices'],
      ['POST', `/api/invoices/${id}/send`],
    ] as const) {
      const response = await platform.api.app.inject({ method, url, payload: method === 'POST' ? invoiceBody(id) : undefined });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
      expect(response.json()).toEqual({ message: 'Unauthorized' });
    }
  });

  it('creates an invoice (a draft by default) with its customer nested, and the list shows it', async () => {
    const ivy = await customer();
    const body = invoiceBody(ivy.id, { amount: '99.5', status: undefined, description: '' });
    const created = await inject('POST', '/api/invoices', body);
    expect(created.statusCode).toBe(201);
    const invoice = InvoiceListItem.parse(created.json());
    await projected(`invoice-${invoice.id}`);
    expect(invoice).toMatchObject({
      invoiceNumber: body.invoiceNumber,
      customerId: ivy.id,
      leaseId: null,
      amount: '99.50',
      dueDate: body.dueDate,
      paidDate: null,
      status: 'draft',
      description: null,
      customer: { id: ivy.id, facilityId: facilityA, email: ivy.email, firstName: 'Ivy', lastName: ivy.lastName },
    });

    const list = await inject('GET', `/api/invoices?search=${encodeURIComponent(body.invoiceNumber)}`);
    expect(list.statusCode).toBe(200);
    expect(list.headers['x-total-count']).toBe('1');
    expect(z.array(InvoiceListItem).parse(list.json())).toEqual([invoice]);

    const events = await platform.api.store.readStream(`invoice-${invoice.id}`);
    expect(events.map((e) => e.type)).toEqual(['invoice_generated']);
    expect(events[0]!.metadata.actor.type).toBe('staff');
  });

  it('lets the form pick any status at creation', async () => {
    const ivy = await customer();
    expect((await invoice(ivy.id, { status: 'sent' })).status).toBe('sent');
  });

  it('searches by invoice number or customer name or email, case-insensitively, on the server', async () => {
    const t = tag();
    const zelda = await customer({ firstName: 'Zelda', lastName: `Quill${t}`, email: `zq-${t}@example.com` });
    const other = await customer();
    const byZelda = await invoice(zelda.id, { invoiceNumber: `INV-SRCH-${t}` });
    await invoice(other.id, { invoiceNumber: `INV-OTHER-${t}` });

    const ids = async (search: string) => (await inject('GET', `/api/invoices?search=${encodeURIComponent(search)}`)).json().map((i: { id: string }) => i.id);
    expect(await ids(`inv-srch-${t}`)).toEqual([byZelda.id]);
    expect(await ids(`QUILL${t}`)).toEqual([byZelda.id]);
    expect(await ids(`zelda quill${t}`)).toEqual([byZelda.id]);
    expect(await ids(`zq-${t}@example`)).toEqual([byZelda.id]);
    expect(await ids(t)).toHaveLength(2);
    expect(await ids('%')).toEqual([]);
  });

  it('finds a number typed with its punctuation through the index as one word part, not every row sharing a word of it', async () => {
    const t = tag();
    const someone = await customer();
    const numbered = async (n: string) => (await invoice(someone.id, { invoiceNumber: `PX${t}-${n}` })).id;
    const [oneOne, oneTen] = [await numbered('1-1'), await numbered('1-10')];
    await numbered('11-2');
    await numbered('2-1');
    const ids = async (search: string) => (await inject('GET', `/api/invoices?search=${encodeURIComponent(search)}`)).json().map((i: { id: string }) => i.id);
    expect((await ids(`px${t}-1-1`)).sort()).toEqual([oneOne, oneTen].sort());
    expect(await ids(`px${t}-1-10`)).toEqual([oneTen]);

    // The trigram index, read through search_key(), hands over only texts holding "1-1": pg_trgm
    // alone reads "-" as a word break and would hand over every text with a word "1" (all four).
    const plan = await platform.api.pool.transaction(async (tx) => {
      await tx.query(sql.unsafe`SET LOCAL enable_seqscan = off`);
      return tx.any(sql.unsafe`EXPLAIN (ANALYZE, FORMAT JSON) SELECT id FROM invoices WHERE search_key(search_text) LIKE search_key(${`%px${t}-1-1%`})`);
    });
    const text = JSON.stringify(plan);
    expect(text).toContain('invoices_search_idx');
    expect(text).not.toMatch(/"Rows Removed by Index Recheck": [1-9]/);
  });

  it("scopes the list by the customer's facility, filters by status and paginates on the server", async () => {
    const t = tag();
    const inA = await customer({ lastName: `Scope${t}`, facilityId: facilityA });
    const inB = await customer({ lastName: `Scope${t}`, facilityId: facilityB });
    const a1 = await invoice(inA.id);
    const a2 = await invoice(inA.id, { status: 'sent' });
    const b1 = await invoice(inB.id);

    const scoped = await inject('GET', `/api/invoices?search=scope${t}&facilityId=${facilityB}`);
    expect(scoped.json().map((i: InvoiceListItem) => i.id)).toEqual([b1.id]);
    expect(scoped.json()[0].customer.facilityId).toBe(facilityB);
    expect(await total(`/api/invoices?search=scope${t}&facilityId=${facilityA}`)).toBe(2);
    expect(await total(`/api/invoices?search=scope${t}`)).toBe(3);

    const sent = await inject('GET', `/api/invoices?search=scope${t}&status=sent`);
    expect(sent.json().map((i: InvoiceListItem) => i.id)).toEqual([a2.id]);

    const page1 = await inject('GET', `/api/invoices?search=scope${t}&pageSize=2&page=1`);
    const page2 = await inject('GET', `/api/invoices?search=scope${t}&pageSize=2&page=2`);
    expect(page1.headers['x-total-count']).toBe('3');
    expect(page2.headers['x-total-count']).toBe('3');
    // Newest first.
    expect([...page1.json(), ...page2.json()].map((i: InvoiceListItem) => i.id)).toEqual([b1.id, a2.id, a1.id]);
    const past = await inject('GET', `/api/invoices?search=scope${t}&pageSize=2&page=9`);
    expect(past.json()).toEqual([]);
    expect(past.headers['x-total-count']).toBe('3');
  });

  it('follows the customer: a new name, email or facility is what the invoice list searches and scopes by', async () => {
    const t = tag();
    const ivy = await customer({ facilityId: facilityA });
    const billed = await invoice(ivy.id);
    const renamed = await platform.api.app.inject({
      method: 'PATCH',
      url: `/api/customers/${ivy.id}`,
      payload: { lastName: `Renamed${t}`, email: `renamed-${t}@example.com` },
      headers: { cookie },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    // An edit no longer moves a customer between facilities; one written before that still did.
    const metadata = {
      actor: { type: 'system' as const },
      correlationId: randomUUID(),
      causationId: null,
      schemaVersion: 1,
      occurredAt: new Date().toISOString(),
    };
    await platform.api.store.append(
      streams.customer(ivy.id),
      [{ id: randomUUID(), type: 'customer_updated', data: { customerId: ivy.id, changes: { facilityId: facilityB } }, metadata }],
      { expectedRevision: 'any' },
    );
    await projected(`customer-${ivy.id}`);
    const found = await inject('GET', `/api/invoices?search=renamed${t}&facilityId=${facilityB}`);
    expect(found.json()).toMatchObject([{ id: billed.id, customer: { lastName: `Renamed${t}`, email: `renamed-${t}@example.com`, facilityId: facilityB } }]);
    expect(await total(`/api/invoices?search=renamed-${t}@example.com`)).toBe(1);
    expect(await total(`/api/invoices?search=${ivy.lastName}`)).toBe(0);
    expect(await total(`/api/invoices?search=renamed${t}&facilityId=${facilityA}`)).toBe(0);
  });

  // The customer's name and the status's rank are kept on the invoice row for these orders
  // (migration 039): a rename and every change of status must reach it.
  it("sorts by customer by the customer's name now: a rename moves their invoices", async () => {
    const t = tag();
    const ann = await customer({ firstName: 'Ann', lastName: `Alpha${t}` });
    const bea = await customer({ firstName: 'Bea', lastName: `Beta${t}` });
    const anns = await invoice(ann.id);
    const beas = await invoice(bea.id);
    const byCustomer = async () =>
      ((await inject('GET', `/api/invoices?search=${t}&sort=customer`)).json() as InvoiceListItem[]).map((i) => [i.id, i.customer.lastName]);
    expect(await byCustomer()).toEqual([
      [anns.id, `Alpha${t}`],
      [beas.id, `Beta${t}`],
    ]);
    const renamed = await inject('PATCH', `/api/customers/${ann.id}`, { lastName: `Gamma${t}` });
    expect(renamed.statusCode, renamed.body).toBe(200);
    await projected(`customer-${ann.id}`);
    expect(await byCustomer()).toEqual([
      [beas.id, `Beta${t}`],
      [anns.id, `Gamma${t}`],
    ]);
    // Descending, and from a cursor: the same keys.
    const first = await inject('GET', `/api/invoices?search=${t}&sort=customer&order=desc&pageSize=1`);
    expect(first.json().map((i: InvoiceListItem) => i.id)).toEqual([anns.id]);
    const next = await inject('GET', `/api/invoices?search=${t}&sort=customer&order=desc&pageSize=1&page=2&cursor=${first.headers['x-next-cursor']}`);
    expect(next.json().map((i: InvoiceListItem) => i.id)).toEqual([beas.id]);
  });

  it('sorts by status by the status each invoice has now (sent, paid in full)', async () => {
    const ivy = await customer();
    const sentLater = await invoice(ivy.id, { dueDate: isoDaysFromNow(10) });
    const stillDraft = await invoice(ivy.id, { dueDate: isoDaysFromNow(20) });
    const paidLater = await invoice(ivy.id, { dueDate: isoDaysFromNow(5), amount: '80.00' });
    for (const id of [sentLater.id, paidLater.id]) {
      expect((await inject('POST', `/api/invoices/${id}/send`)).statusCode).toBe(200);
      await projected(`invoice-${id}`);
    }
    const ctx = { store: platform.api.store, actor: { type: 'customer' as const, id: ivy.id }, correlationId: randomUUID(), now: new Date() };
    const payment = await recordPayment(ctx, paidLater.id, { amount: '80.00', method: 'bank_transfer', stripePaymentIntentId: null });
    await afterPaymentRecorded(ctx, ivy.id);
    expect(await platform.api.afterAppend(payment.position!, 15_000)).toBe(true);
    const byStatus = await inject('GET', `/api/invoices?customerId=${ivy.id}&sort=status`);
    // draft, sent, paid: the order of the statuses, not of the due dates (paid is due first).
    expect(byStatus.json().map((i: InvoiceListItem) => [i.id, i.status])).toEqual([
      [stillDraft.id, 'draft'],
      [sentLater.id, 'sent'],
      [paidLater.id, 'paid'],
    ]);
  });

  it('refuses a taken invoice number with 409, and lets exactly one of ten simultaneous creates win', async () => {
    const ivy = await customer();
    const body = invoiceBody(ivy.id);
    expect((await inject('POST', '/api/invoices', body)).statusCode).toBe(201);
    const again = await inject('POST', '/api/invoices', { ...body, invoiceNumber: body.invoiceNumber.toLowerCase() });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: `An invoice numbered ${body.invoiceNumber.toLowerCase()} already exists`, field: 'invoiceNumber' });

    const raced = invoiceBody(ivy.id);
    const responses = await Promise.all(Array.from({ length: 10 }, () => inject('POST', '/api/invoices', raced)));
    const codes = responses.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(9);
    await projected(`invoice-${responses.find((r) => r.statusCode === 201)!.json().id}`);
    expect(await total(`/api/invoices?search=${raced.invoiceNumber}`)).toBe(1);
  });

  it.each([
    ['a missing invoice number', { invoiceNumber: undefined }, 'invoiceNumber'],
    ['a blank invoice number', { invoiceNumber: '  ' }, 'invoiceNumber'],
    ['a customer id that is not a uuid', { customerId: 'abc' }, 'customerId'],
    ['a customer that does not exist', { customerId: randomUUID() }, 'customerId'],
    ['an amount that is not money', { amount: '12.345' }, 'amount'],
    ['a negative amount', { amount: '-5.00' }, 'amount'],
    ['an amount of zero', { amount: '0' }, 'amount'],
    ['a due date that is not a date', { dueDate: '31/12/2025' }, 'dueDate'],
    ['an unknown status', { status: 'void' }, 'status'],
    ['an oversize description', { description: 'x'.repeat(501) }, 'description'],
    ['an unknown field', { paidDate: '2025-01-01' }, 'paidDate'],
    ['paid without how it was paid', { status: 'paid' }, 'payment'],
    ['paid by a method the desk does not take', { status: 'paid', payment: { method: 'card' } }, 'payment.method'],
    ['paid with an oversize check number', { status: 'paid', payment: { method: 'check', reference: '9'.repeat(101) } }, 'payment.reference'],
    ['a payment on an invoice not created paid', { status: 'sent', payment: { method: 'cash' } }, 'payment'],
    ['cancelled without a reason', { status: 'cancelled' }, 'reason'],
    ['written off with a blank reason', { status: 'written_off', reason: '   ' }, 'reason'],
    ['a reason on an invoice neither cancelled nor written off', { status: 'overdue', reason: 'Late' }, 'reason'],
  ])('refuses %s with 400 naming the field, and writes nothing', async (_what, overrides, field) => {
    const ivy = await customer();
    const before = await total('/api/invoices');
    const body = invoiceBody(ivy.id, overrides);
    // As a manager, who may create any status: the refusal is the request's, not the role's.
    const response = await inject('POST', '/api/invoices', body, manager);
    expect(response.statusCode).toBe(400);
    expect(response.json().field).toBe(field);
    expect(response.json().message).toContain(field);
    expect(await total('/api/invoices')).toBe(before);
    // Nothing on the renter's account, and the number is still free.
    expect(await platform.api.store.readStream(streams.account(ivy.id))).toEqual([]);
    if (body.customerId === ivy.id && typeof body.invoiceNumber === 'string' && body.invoiceNumber.trim() !== '') {
      expect((await inject('POST', '/api/invoices', invoiceBody(ivy.id, { invoiceNumber: body.invoiceNumber }))).statusCode).toBe(201);
    }
  });

  it('refuses bad list queries and ids with 400, never a 500', async () => {
    for (const [url, field] of [
      ['/api/invoices?pageSize=abc', 'pageSize'],
      ['/api/invoices?page=0', 'page'],
      ['/api/invoices?status=late', 'status'],
      ['/api/invoices?facilityId=x', 'facilityId'],
      ['/api/invoices?sort=balance', 'sort'],
      ['/api/invoices?order=up', 'order'],
      ['/api/invoices?search=x&unknown=1', 'unknown'],
      ['/api/invoices/not-a-uuid', 'id'],
    ] as const) {
      const response = await inject('GET', url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().field, url).toBe(field);
    }
    expect((await inject('GET', `/api/invoices/${randomUUID()}`)).statusCode).toBe(404);
    expect((await inject('POST', `/api/invoices/${randomUUID()}/send`)).statusCode).toBe(404);
  });

  it('sends a draft (invoice_sent) and refuses to send any other status with 409 and the reason', async () => {
    const ivy = await customer();
    const draft = await invoice(ivy.id);
    const sent = await inject('POST', `/api/invoices/${draft.id}/send`);
    expect(sent.statusCode).toBe(200);
    await projected(`invoice-${draft.id}`);
    expect(InvoiceListItem.parse(sent.json())).toMatchObject({ id: draft.id, status: 'sent' });
    expect((await inject('GET', `/api/invoices?search=${draft.invoiceNumber}`)).json()[0].status).toBe('sent');
    expect((await platform.api.store.readStream(`invoice-${draft.id}`)).map((e) => e.type)).toEqual(['invoice_generated', 'invoice_sent']);

    const twice = await inject('POST', `/api/invoices/${draft.id}/send`);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('This invoice was already sent');
    const paid = await invoice(ivy.id, { status: 'paid', payment: { method: 'cash' } });
    const refused = await inject('POST', `/api/invoices/${paid.id}/send`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('Only a draft invoice can be sent; this one is paid');
  });

  it('shows the detail: amount, status, dates, customer, payments and the history in words with when and who', async () => {
    const ivy = await customer();
    const created = await invoice(ivy.id, { amount: '1234.50', dueDate: '2025-03-01' });
    await inject('POST', `/api/invoices/${created.id}/send`);
    const ctx = { store: platform.api.store, actor: { type: 'customer' as const, id: ivy.id }, correlationId: randomUUID(), now: new Date() };
    const payment = await recordPayment(ctx, created.id, { amount: '1234.50', method: 'bank_transfer', stripePaymentIntentId: null });
    await afterPaymentRecorded(ctx, ivy.id);
    expect(await platform.api.afterAppend(payment.position!, 15_000)).toBe(true);

    const response = await inject('GET', `/api/invoices/${created.id}`);
    expect(response.statusCode).toBe(200);
    const detail = InvoiceDetail.parse(response.json());
    expect(detail).toMatchObject({
      id: created.id,
      amount: '1234.50',
      status: 'paid',
      dueDate: '2025-03-01',
      paidDate: new Date().toISOString().slice(0, 10),
      customer: { id: ivy.id, email: ivy.email },
      payments: [{ amount: '1234.50', method: 'bank_transfer', status: 'completed', stripePaymentIntentId: null }],
    });
    expect(detail.history.map(({ description, actor }) => ({ description, actor: actor.name }))).toEqual([
      { description: `Invoice ${created.invoiceNumber} created as draft for $1,234.50, due Mar 1, 2025`, actor: 'Test clerk' },
      { description: 'Invoice sent to the customer', actor: 'Test clerk' },
      { description: 'Payment of $1,234.50 received by bank transfer', actor: `Ivy ${ivy.lastName}` },
    ]);
    expect(detail.history.every((entry) => Date.now() - Date.parse(entry.occurredAt) < 60_000)).toBe(true);
  });

  describe('a status chosen at creation is what happened, with its consequences', () => {
    const today = () => new Date().toISOString().slice(0, 10);

    /** A renter alone in a facility of their own, so the facility's aging is theirs. */
    async function renter() {
      const facilityId = randomUUID();
      return { ...(await customer({ facilityId })), facilityId };
    }

    async function created(customerId: string, overrides: Record<string, unknown>, as = manager) {
      const response = await inject('POST', '/api/invoices', invoiceBody(customerId, { amount: '120.00', ...overrides }), as);
      expect(response.statusCode, response.body).toBe(201);
      const id = InvoiceListItem.parse(response.json()).id;
      await projected(`invoice-${id}`);
      await projected(`customer-${customerId}`);
      const detail = InvoiceDetail.parse((await inject('GET', `/api/invoices/${id}`)).json());
      const events = await platform.api.store.readStream(streams.invoice(id));
      return { detail, events: events.map((e) => ({ type: e.type, data: e.data })) };
    }

    async function ledgerOf(customerId: string) {
      const response = await inject('GET', `/api/customers/${customerId}/ledger`);
      expect(response.statusCode, response.body).toBe(200);
      const ledger = Ledger.parse(response.json());
      return { entries: ledger.entries.map((e) => [e.kind, e.amount]), balance: ledger.balance, descriptions: ledger.entries.map((e) => e.description) };
    }

    /** The facility's aging: the renter's row (null when they owe nothing and are owed nothing) and its totals. */
    async function agingOf(facilityId: string) {
      const response = await inject('GET', `/api/reports/aging?facilityId=${facilityId}`);
      expect(response.statusCode, response.body).toBe(200);
      return AgingReport.parse(response.json());
    }

    async function readModelEqualsRebuild() {
      expect((await verifyReadModel(platform.api.pool, platform.api.store)).differences).toEqual([]);
    }

    it('created paid, records its payment (a check with its number): the ledger charges it and takes the payment, nothing is owed, aging agrees', async () => {
      const ivy = await renter();
      const { detail, events } = await created(ivy.id, { status: 'paid', payment: { method: 'check', reference: ' 1042 ' } });
      expect(detail).toMatchObject({
        status: 'paid',
        amount: '120.00',
        paidDate: today(),
        payments: [{ amount: '120.00', method: 'check', status: 'completed', stripePaymentIntentId: null, amountRefunded: '0.00' }],
      });
      expect(events.map((e) => e.type)).toEqual(['invoice_generated', 'payment_received']);
      expect(events[1]!.data).toMatchObject({ amount: '120.00', method: 'check', reference: '1042', paidDate: today(), customerId: ivy.id });

      const ledger = await ledgerOf(ivy.id);
      expect(ledger.entries).toEqual([
        ['charge', '120.00'],
        ['payment', '-120.00'],
      ]);
      expect(ledger.descriptions[1]).toContain('check 1042');
      expect(ledger.balance).toBe('0.00');
      const aging = await agingOf(ivy.facilityId);
      expect(aging.rows).toEqual([]);
      expect(aging.totals).toMatchObject({ balance: '0.00', unreconciled: '0.00' });
      await readModelEqualsRebuild();
    });

    it.each([
      ['cancelled', 'invoice_cancelled', { reason: 'Typed for the wrong renter' }, 'void'],
      ['written_off', 'invoice_written_off', { reason: 'Renter left, unreachable', amount: '120.00', customerId: expect.any(String) }, 'write_off'],
    ] as const)(
      'created %s, records it with the reason: the ledger charges and reverses it, nothing is owed, aging agrees',
      async (status, type, data, kind) => {
        const ivy = await renter();
        const { detail, events } = await created(ivy.id, { status, reason: data.reason });
        expect(detail).toMatchObject({ status, paidDate: null, payments: [] });
        expect(events.map((e) => e.type)).toEqual(['invoice_generated', type]);
        expect(events[1]!.data).toMatchObject(data);

        const ledger = await ledgerOf(ivy.id);
        expect(ledger.entries).toEqual([
          ['charge', '120.00'],
          [kind, '-120.00'],
        ]);
        expect(ledger.balance).toBe('0.00');
        expect((await agingOf(ivy.facilityId)).rows).toEqual([]);
        await readModelEqualsRebuild();
      },
    );

    it('created overdue, makes its renter overdue as the billing day would; the ledger charges it and aging shows it past due', async () => {
      const ivy = await renter();
      const { detail, events } = await created(ivy.id, { status: 'overdue', dueDate: isoDaysFromNow(-10) });
      expect(detail).toMatchObject({ status: 'overdue', payments: [] });
      expect(events.map((e) => e.type)).toEqual(['invoice_generated']);
      expect((await inject('GET', `/api/customers/${ivy.id}`)).json()).toMatchObject({ status: 'overdue' });
      const standing = (await platform.api.store.readStream(streams.customer(ivy.id))).filter((e) => e.type === 'customer_standing_changed');
      expect(standing.map((e) => e.data)).toEqual([{ customerId: ivy.id, status: 'overdue', reason: `Invoice ${detail.invoiceNumber} is overdue` }]);

      const ledger = await ledgerOf(ivy.id);
      expect(ledger.entries).toEqual([['charge', '120.00']]);
      expect(ledger.balance).toBe('120.00');
      const aging = await agingOf(ivy.facilityId);
      expect(aging.rows).toEqual([expect.objectContaining({ customerId: ivy.id, days1to30: '120.00', balance: '120.00', unreconciled: '0.00' })]);
      await readModelEqualsRebuild();
    });

    it('created sent or draft, is as before: a sent one is charged and owed, a draft owes nothing, the standing stays', async () => {
      const ivy = await renter();
      const sent = await created(ivy.id, { status: 'sent' }, cookie);
      const draft = await created(ivy.id, { status: 'draft', amount: '70.00' }, cookie);
      expect([sent.detail.status, draft.detail.status]).toEqual(['sent', 'draft']);
      expect([...sent.events, ...draft.events].map((e) => e.type)).toEqual(['invoice_generated', 'invoice_generated']);
      expect((await inject('GET', `/api/customers/${ivy.id}`)).json()).toMatchObject({ status: 'active' });

      const ledger = await ledgerOf(ivy.id);
      expect(ledger.entries).toEqual([['charge', '120.00']]);
      expect(ledger.balance).toBe('120.00');
      const aging = await agingOf(ivy.facilityId);
      expect(aging.rows).toEqual([expect.objectContaining({ customerId: ivy.id, current: '120.00', balance: '120.00', unreconciled: '0.00' })]);
      await readModelEqualsRebuild();
    });

    it('lets a clerk create an invoice paid, but not cancelled or written off (a void and a write-off are for owners and managers), writing nothing', async () => {
      const ivy = await customer();
      await created(ivy.id, { status: 'paid', payment: { method: 'cash' } }, cookie);
      const before = await total('/api/invoices');
      for (const status of ['cancelled', 'written_off']) {
        const refused = await inject('POST', '/api/invoices', invoiceBody(ivy.id, { status, reason: 'Not owed' }), cookie);
        expect(refused.statusCode, status).toBe(403);
        expect(refused.json()).toEqual({ message: 'Only owners and managers create an invoice cancelled or written off' });
      }
      expect(await total('/api/invoices')).toBe(before);
      expect((await platform.api.store.readStream(streams.account(ivy.id))).map((e) => e.type)).toEqual(['account_invoice_listed']);
    });
  });

  it('lets an auditor read invoices but not create or send them', async () => {
    const auditor = await platform.signIn('auditor');
    const ivy = await customer();
    const draft = await invoice(ivy.id);
    expect((await inject('GET', '/api/invoices', undefined, auditor)).statusCode).toBe(200);
    expect((await inject('GET', `/api/invoices/${draft.id}`, undefined, auditor)).statusCode).toBe(200);
    expect((await inject('POST', '/api/invoices', invoiceBody(ivy.id), auditor)).statusCode).toBe(403);
    expect((await inject('POST', `/api/invoices/${draft.id}/send`, undefined, auditor)).statusCode).toBe(403);
  });
});

// How fast the list answers at a large size (every filter, search, sort and page) is measured by
// `npm run bench:reads` (ops/bench/reads.ts), not timed here: this is what the answer says.
describe('invoices list totals', () => {
  let platform: TestPlatform;
  let cookie: string;

  beforeAll(async () => {
    platform = await startTestPlatform();
    cookie = await platform.signIn();
    // Straight into the read tables, ten invoices for each of 300 customers: the projector is not
    // what this is about.
    await platform.api.pool.query(sql.unsafe`
      INSERT INTO customers (id, first_name, last_name, email, status, facility_id, search_text, created_at, updated_at)
      SELECT gen_random_uuid(), 'First' || n, 'Last' || n, 'customer' || n || '@example.com', 'active', gen_random_uuid(),
             lower('First' || n || ' Last' || n || ' customer' || n || '@example.com'), now(), now()
      FROM generate_series(1, 300) AS n`);
    await platform.api.pool.query(sql.unsafe`
      INSERT INTO invoices (id, invoice_number, customer_id, amount, due_date, status, status_rank, facility_id, search_text,
                            customer_last_name, customer_first_name, created_at, updated_at)
      SELECT gen_random_uuid(), 'INV-' || lpad((c.k * 10 + i)::text, 7, '0'), c.id, 120.00, current_date, 'sent', 2, c.facility_id,
             lower('INV-' || lpad((c.k * 10 + i)::text, 7, '0') || ' ' || c.first_name || ' ' || c.last_name || ' ' || c.email),
             c.last_name, c.first_name, now(), now()
      FROM (SELECT *, row_number() OVER () AS k FROM customers) c CROSS JOIN generate_series(1, 10) AS i`);
    await platform.api.pool.query(sql.unsafe`ANALYZE customers`);
    await platform.api.pool.query(sql.unsafe`ANALYZE invoices`);
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('says a broad search\'s total as "1,000+" instead of counting all its matches; a narrow one exactly', async () => {
    // "last1": Last1, Last10-19 and Last100-199, ten invoices each (1,110).
    const broad = await platform.api.app.inject({ method: 'GET', url: '/api/invoices?search=last1', headers: { cookie } });
    expect(broad.headers['x-total-capped']).toBe('true');
    expect(broad.headers['x-total-estimated']).toBeUndefined();
    expect(broad.headers['x-total-count']).toBe('1000');
    expect(broad.json()).toHaveLength(50);
    // "last12": Last12 and Last120-129 (110).
    const narrow = await platform.api.app.inject({ method: 'GET', url: '/api/invoices?search=last12', headers: { cookie } });
    expect(narrow.headers['x-total-count']).toBe('110');
    expect(narrow.headers['x-total-estimated']).toBeUndefined();
    expect(narrow.headers['x-total-capped']).toBeUndefined();
  });
});

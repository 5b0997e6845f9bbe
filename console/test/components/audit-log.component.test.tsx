import { Customer } from '@storage/contracts/customers';
import { AuditEvent } from '@storage/contracts/history';
import { SearchResults } from '@storage/contracts/search';
import { NO_UNIT_FEATURES } from '@storage/contracts/unit-features';
import { Unit } from '@storage/contracts/units';
import { answer, answerPage } from '@storage/testing/component-api';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import AuditPage from '../../src/app/routes/audit.tsx';
import { FACILITIES, fill, renderConsole } from './render.tsx';

// The Audit Log: the Entity column in words, the picker that filters by a customer, a unit or an
// invoice (kept in the address and in the export), and an event's details, from which the log
// lists the events of its request. Auditors see all of it, and no action that changes anything.

const harbor = FACILITIES[1]!;
const jane = { id: '1b2c3d4e-5f60-4718-8293-a4b5c6d7e8f9', name: 'Jane Doe', email: 'jane@example.com' };
const unitId = '2c3d4e5f-6071-4829-93a4-b5c6d7e8f9a0';
const invoiceId = '3d4e5f60-7182-4930-a4b5-c6d7e8f9a0b1';
const requestId = '4e5f6071-8293-4a41-b5c6-d7e8f9a0b1c2';
const causeId = '5f607182-93a4-4b52-86d7-e8f9a0b1c2d3';

const event = (extra: Partial<AuditEvent> = {}): AuditEvent => ({
  id: crypto.randomUUID(),
  type: 'gate_code_suspended',
  description: 'Gate code suspended',
  occurredAt: '2026-03-05T15:04:05.678Z',
  recordedAt: '2026-03-05T15:04:06.001Z',
  actor: 'System',
  streamName: `gate-code-${crypto.randomUUID()}`,
  entity: 'Gate code · Unit A-101, Jane Doe',
  streamRevision: 3,
  position: '18446744073709551642',
  correlationId: requestId,
  causationId: causeId,
  data: { leaseId: '6071a293-a4b5-4c63-97e8-f9a0b1c2d3e4', reason: 'Lockout step' },
  ...extra,
});
const suspended = event();
const lateNotice = event({
  type: 'message_template_updated',
  description: 'Message template updated',
  actor: 'Owner Member',
  streamName: 'message-template-late_notice',
  entity: 'Message template · Late notice',
  correlationId: '6071a293-a4b5-4c63-97e8-f9a0b1c2d3e5',
  causationId: null,
  data: { key: 'late_notice' },
});
const staffEmail = event({
  type: 'unique_key_claimed',
  description: 'Unique key claimed',
  streamName: 'unique-staff-email-sam@example.com',
  entity: 'Staff email reservation · sam@example.com',
  causationId: null,
});

const search = () => new URLSearchParams(window.location.search);
/** What the Entity picker shows chosen. */
const pickerText = () => screen.getByRole('combobox', { name: 'Entity' }).closest('.ant-select')!.textContent;

describe('Audit Log', () => {
  it('names what each event is about in words, with its stream on hover', async () => {
    renderConsole(<AuditPage />, { path: '/audit', api: [answerPage('/api/audit/events', AuditEvent, [suspended, lateNotice, staffEmail])] });
    const entities = await waitFor(() => {
      const cells = screen.getAllByTestId('audit-row').map((row) => row.querySelector('.col-streamName > span')!);
      expect(cells).toHaveLength(3);
      return cells;
    });
    expect(entities.map((cell) => cell.textContent)).toEqual([
      'Gate code · Unit A-101, Jane Doe',
      'Message template · Late notice',
      'Staff email reservation · sam@example.com',
    ]);
    expect(entities.map((cell) => cell.getAttribute('title'))).toEqual([
      suspended.streamName,
      'message-template-late_notice',
      'unique-staff-email-sam@example.com',
    ]);
  });

  it('filters by a customer picked as you type, keeps it in the address for Back, and exports the same events', async () => {
    const events = answerPage('/api/audit/events', AuditEvent, [suspended]);
    const found = answer('get', '/api/search', SearchResults, {
      customers: [{ id: jane.id, name: jane.name, email: jane.email, phone: null, status: 'active' }],
      units: [{ id: unitId, unitNumber: 'JD-1', building: 'J', status: 'occupied' }],
      invoices: [{ id: invoiceId, invoiceNumber: 'INV-JANE', customerName: jane.name, amount: '120.00', status: 'sent' }],
    });
    const { user } = renderConsole(<AuditPage />, { path: `/audit?facility=${harbor.id}&type=gate_code_suspended`, api: [events, found] });
    await screen.findAllByTestId('audit-row');
    expect(screen.queryByPlaceholderText(/customer-<id>/)).toBeNull();

    await user.type(screen.getByRole('combobox', { name: 'Entity' }), 'jane');
    await waitFor(() => expect(found.sent.at(-1)?.search.get('q')).toBe('jane'));
    expect(found.sent.at(-1)!.search.get('facilityId')).toBe(harbor.id);
    // Every kind the search finds, each said as what it is.
    await screen.findByTitle('Unit JD-1 · Building J');
    screen.getByTitle('Invoice INV-JANE · Jane Doe');
    await user.click(screen.getByTitle('Customer · Jane Doe · jane@example.com'));

    await waitFor(() => expect(search().get('customerId')).toBe(jane.id));
    expect(search().get('type')).toBe('gate_code_suspended');
    await waitFor(() => expect(events.sent.at(-1)!.search.get('customerId')).toBe(jane.id));
    expect(events.sent.at(-1)!.search.get('type')).toBe('gate_code_suspended');
    // The name the search gave is the one shown: nothing asks for the customer again (an unanswered request fails the test).
    await waitFor(() => expect(pickerText()).toContain('Customer · Jane Doe · jane@example.com'));
    const exported = new URL(screen.getByRole('link', { name: /Export CSV/ }).getAttribute('href')!, window.location.origin);
    expect(Object.fromEntries(exported.searchParams)).toEqual({ type: 'gate_code_suspended', facilityId: harbor.id, customerId: jane.id });

    // Another kind replaces it: a unit, then nothing.
    await user.type(screen.getByRole('combobox', { name: 'Entity' }), 'jd');
    await user.click(await screen.findByTitle('Unit JD-1 · Building J'));
    await waitFor(() => expect(search().get('unitId')).toBe(unitId));
    expect(search().get('customerId')).toBeNull();

    window.history.back();
    await waitFor(() => expect(search().get('customerId')).toBe(jane.id));
    expect(search().get('unitId')).toBeNull();
    await waitFor(() => expect(pickerText()).toContain('Customer · Jane Doe · jane@example.com'));
  });

  it('names the unit the address picked when the screen opens on it (a reload, a shared link)', async () => {
    const events = answerPage('/api/audit/events', AuditEvent, [suspended]);
    const unit: Unit = {
      id: unitId,
      unitNumber: 'A-101',
      building: 'A',
      facilityId: harbor.id,
      size: '10x10',
      monthlyRate: '120.00',
      status: 'occupied',
      description: null,
      features: NO_UNIT_FEATURES,
      createdAt: '2025-01-02T10:00:00.000Z',
      updatedAt: '2025-01-02T10:00:00.000Z',
    };
    renderConsole(<AuditPage />, { path: `/audit?unitId=${unitId}`, api: [events, answer('get', `/api/units/${unitId}`, Unit, unit)] });
    await waitFor(() => expect(pickerText()).toContain('Unit A-101 · Building A'));
    expect(events.sent.at(-1)!.search.get('unitId')).toBe(unitId);
  });

  it("opens an event's details by a click or by Enter: its ids, places and data; and lists its request's events", async () => {
    const events = answerPage('/api/audit/events', AuditEvent, [suspended, lateNotice]);
    const { user } = renderConsole(<AuditPage />, {
      path: `/audit?type=gate_code_suspended&actor=system&customerId=${jane.id}&from=2026-03-01`,
      api: [events, answer('get', `/api/customers/${jane.id}`, Customer, customer())],
    });
    const rows = await screen.findAllByTestId('audit-row');
    await user.click(within(rows[0]!).getByText('Gate code suspended'));
    const drawer = within(await screen.findByRole('dialog'));
    const field = (label: string) => {
      const heading = [...document.querySelectorAll('.ant-drawer th')].find((th) => th.textContent === label);
      return heading!.closest('tr')!.textContent!.slice(label.length);
    };
    expect(field('Event')).toBe('Gate code suspended');
    expect(field('Type')).toBe('gate_code_suspended');
    expect(field('Occurred')).toContain('2026-03-05T15:04:05.678Z');
    expect(field('Recorded')).toContain('2026-03-05T15:04:06.001Z');
    expect(field('Actor')).toBe('System');
    expect(field('Entity')).toBe('Gate code · Unit A-101, Jane Doe');
    expect(field('Stream')).toBe(suspended.streamName);
    expect(field('Stream revision')).toBe('3');
    expect(field('Log position')).toBe('18446744073709551642');
    expect(field('Event ID')).toBe(suspended.id);
    expect(field('Correlation ID')).toBe(requestId);
    expect(field('Causation ID')).toBe(causeId);
    expect(JSON.parse(drawer.getByTestId('audit-event-data').textContent!)).toEqual(suspended.data);

    await user.click(drawer.getByRole('button', { name: "Show this request's events" }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The request's events wherever they are: the other filters are let go.
    expect(Object.fromEntries(search())).toEqual({ correlationId: requestId });
    await waitFor(() =>
      expect(Object.fromEntries(events.sent.at(-1)!.search)).toEqual({
        correlationId: requestId,
        sort: 'occurredAt',
        order: 'desc',
        page: '1',
        pageSize: '25',
      }),
    );
    expect((screen.getByRole('searchbox', { name: 'Correlation ID' }) as HTMLInputElement).value).toBe(requestId);

    const again = await screen.findAllByTestId('audit-row');
    again[1]!.focus();
    await user.keyboard('{Enter}');
    within(await screen.findByRole('dialog')).getByText('Message template · Late notice');
  });

  it('says what an event logged before its ids were kept does not record, and offers no request to show', async () => {
    const before = event({ correlationId: null, causationId: null, streamRevision: null });
    const { user } = renderConsole(<AuditPage />, { path: '/audit', api: [answerPage('/api/audit/events', AuditEvent, [before])] });
    await user.click(await screen.findByText('Gate code suspended'));
    const drawer = within(await screen.findByRole('dialog'));
    expect(drawer.getAllByText('Not recorded')).toHaveLength(3);
    expect(drawer.queryByRole('button', { name: "Show this request's events" })).toBeNull();
  });

  it('takes a correlation ID typed in, and refuses one that is not an id without asking the server', async () => {
    const events = answerPage('/api/audit/events', AuditEvent, [suspended]);
    const { user } = renderConsole(<AuditPage />, { path: '/audit', api: [events] });
    await screen.findAllByTestId('audit-row');
    const box = screen.getByRole('searchbox', { name: 'Correlation ID' });
    await fill(user, box, 'req-1');
    await user.keyboard('{Enter}');
    await screen.findByText(/A correlation ID is a UUID/);
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(search().get('correlationId')).toBeNull();

    await fill(user, screen.getByRole('searchbox', { name: 'Correlation ID' }), requestId);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(search().get('correlationId')).toBe(requestId));
    await waitFor(() => expect(events.sent.at(-1)!.search.get('correlationId')).toBe(requestId));
    expect(screen.queryByText(/A correlation ID is a UUID/)).toBeNull();
  });

  it('shows an auditor the filters and the whole of an event, and no action that changes anything', async () => {
    const { user } = renderConsole(<AuditPage />, { role: 'auditor', path: '/audit', api: [answerPage('/api/audit/events', AuditEvent, [suspended])] });
    screen.getByRole('combobox', { name: 'Entity' });
    screen.getByRole('searchbox', { name: 'Correlation ID' });
    await user.click(await screen.findByText('Gate code suspended'));
    const drawer = within(await screen.findByRole('dialog'));
    drawer.getByText(requestId);
    drawer.getByText(causeId);
    // Only reading: copy an id, list the request's events, close.
    const actions = new Set(drawer.getAllByRole('button').map((button) => button.getAttribute('aria-label') ?? button.textContent));
    expect([...actions].sort()).toEqual(['Close', 'Copy', "Show this request's events"]);
  });
});

function customer(): Customer {
  const [firstName, lastName] = jane.name.split(' ') as [string, string];
  return {
    id: jane.id,
    firstName,
    lastName,
    email: jane.email,
    phone: null,
    address: null,
    emergencyContact: null,
    emergencyPhone: null,
    status: 'active',
    facilityId: harbor.id,
    createdAt: '2025-01-02T10:00:00.000Z',
    updatedAt: '2025-01-02T10:00:00.000Z',
  } as Customer;
}

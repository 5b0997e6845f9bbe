import { AccessHours, accessHoursWords } from '@storage/contracts/access-hours';
import type { MessageTemplateKey } from '@storage/contracts/enums';
import { type DomainEvent, streams } from '@storage/contracts/events';
import type { MessageValues } from '@storage/contracts/messages';
import { formatDollars } from '@storage/contracts/money';
import type { EventStore } from '@storage/eventstore/port';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { pastDue, renterInvoices } from '../accounts/receivables.ts';
import { customerToday } from '../billing/settings.ts';
import { loadAggregate } from '../commands/handle.ts';
import { leaseAggregate } from '../leases/lease.ts';

// What a message says, from real data: which event makes which message, to whom, and the values
// of its placeholders, read from the read model (as of at least the event: reactions run after
// the projections) and from the streams.

export interface ComposeDeps {
  pool: DatabasePool;
  store: EventStore;
  /** Where the product is reached from outside (PUBLIC_URL), for the links in messages. */
  publicUrl: string;
  now: Date;
}

/**
 * What stands for a gate code in a stored message (and in previews and letters): the code is a
 * secret, so it is filled in only as the message is sent (see gateCodeLeaseId).
 */
export const GATE_CODE_MARK = '[gate code]';

/** One message an event makes: the renter, the template, where to send it and what to fill in. */
export interface ComposedMessage {
  templateKey: MessageTemplateKey;
  customerId: string | null;
  facilityId: string | null;
  to: string | null;
  values: MessageValues;
  /** The lease whose gate code replaces GATE_CODE_MARK when the message is sent. */
  gateCodeLeaseId?: string;
}

const day = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
/** 2026-12-01 → "Dec 1, 2026" (a calendar date, the same in every zone). */
export function dayText(date: string | null | undefined): string {
  if (!date || !/^\d{4}-\d{2}-\d{2}/.test(date)) return '';
  return day.format(new Date(`${date.slice(0, 10)}T00:00:00Z`));
}

const money = (amount: string | null | undefined) => (amount ? formatDollars(amount) : '');

const CustomerRow = z.object({
  id: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  facility_id: z.string().nullable(),
  facility_name: z.string().nullable(),
  facility_access_hours: AccessHours.nullable(),
  units: z.string().nullable(),
});
type CustomerRow = z.infer<typeof CustomerRow>;
/** Every renter message reads it: a named statement, planned once per connection. */
const customerOfStatement = sql.prepared('message_customer', CustomerRow);

async function customerOf(pool: DatabasePool, customerId: string): Promise<CustomerRow | null> {
  return pool.maybeOne(customerOfStatement`
    SELECT c.id::text, c.first_name, c.last_name, c.email, c.facility_id::text, f.name AS facility_name, f.access_hours AS facility_access_hours,
      (SELECT string_agg(u.unit_number, ', ' ORDER BY u.unit_number) FROM leases l JOIN units u ON u.id = l.unit_id
        WHERE l.customer_id = c.id AND l.is_active) AS units
    FROM customers c LEFT JOIN facilities f ON f.id = c.facility_id WHERE c.id = ${customerId}`);
}

async function businessName(pool: DatabasePool): Promise<string> {
  const name = await pool.maybeOneFirst(sql.type(z.object({ business_name: z.string().nullable() }))`
    SELECT business_name FROM settings WHERE scope = 'business'`);
  return name || 'Your storage facility';
}

const FacilityRow = z.object({ name: z.string(), access_hours: AccessHours.nullable() });

/** The facility's name (the business's for none) and its access hours in words. */
async function facilityFacts(pool: DatabasePool, facilityId: string | null): Promise<{ name: string; accessHours: string }> {
  const row = facilityId ? await pool.maybeOne(sql.type(FacilityRow)`SELECT name, access_hours FROM facilities WHERE id = ${facilityId}`) : null;
  return { name: row?.name ?? (await businessName(pool)), accessHours: accessHoursWords(row?.access_hours) };
}

async function facilityName(pool: DatabasePool, facilityId: string | null): Promise<string> {
  return (await facilityFacts(pool, facilityId)).name;
}

const InvoiceRow = z.object({
  id: z.string(),
  invoice_number: z.string(),
  customer_id: z.string(),
  amount: z.string(),
  amount_paid: z.string(),
  due_date: z.string(),
  facility_id: z.string().nullable(),
});

async function invoiceOf(pool: DatabasePool, invoiceId: string) {
  return pool.maybeOne(sql.type(InvoiceRow)`
    SELECT id::text, invoice_number, customer_id::text, amount::text, amount_paid::text, due_date::text, facility_id::text
    FROM invoices WHERE id = ${invoiceId}`);
}

async function unitNumberOfLease(pool: DatabasePool, leaseId: string): Promise<{ unitNumber: string; facilityId: string | null } | null> {
  const row = await pool.maybeOne(sql.type(z.object({ unit_number: z.string(), facility_id: z.string().nullable() }))`
    SELECT u.unit_number, u.facility_id::text FROM leases l JOIN units u ON u.id = l.unit_id WHERE l.id = ${leaseId}`);
  return row ? { unitNumber: row.unit_number, facilityId: row.facility_id } : null;
}

/** A message to a known customer: their address, name, facility and units filled in. */
async function toCustomer(
  deps: ComposeDeps,
  customerId: string,
  templateKey: MessageTemplateKey,
  values: MessageValues,
  facilityId?: string | null,
): Promise<ComposedMessage | null> {
  const customer = await customerOf(deps.pool, customerId);
  if (!customer) return null;
  const facility = facilityId ?? customer.facility_id;
  // The renter's own facility came with them; another (a lease's elsewhere) is read.
  const place =
    facility && facility !== customer.facility_id
      ? await facilityFacts(deps.pool, facility)
      : { name: customer.facility_name ?? (await businessName(deps.pool)), accessHours: accessHoursWords(customer.facility_access_hours) };
  return {
    templateKey,
    customerId,
    facilityId: facility,
    to: customer.email || null,
    values: {
      firstName: customer.first_name,
      lastName: customer.last_name,
      facilityName: place.name,
      unitNumber: customer.units ?? '',
      portalUrl: portalUrl(deps),
      date: dayText(await customerToday(deps.store, customerId, deps.now)),
      gateCode: GATE_CODE_MARK,
      accessHours: place.accessHours,
      ...values,
    },
  };
}

export const portalUrl = (deps: { publicUrl: string }) => `${deps.publicUrl.replace(/\/+$/, '')}/customer-portal`;
const payUrl = (deps: { publicUrl: string }, invoiceId: string) => `${deps.publicUrl.replace(/\/+$/, '')}/checkout/${invoiceId}`;

/** Whether a lockout was taken on the renter since their schedule last cleared, before the event `beforeId`. */
async function lockedOutBefore(store: EventStore, customerId: string, beforeId: string): Promise<boolean> {
  let locked = false;
  for (const e of await store.readStream(streams.delinquency(customerId))) {
    if (e.id === beforeId) break;
    if (e.type === 'delinquency_step_taken' && (e.data as { kind?: string }).kind === 'lockout') locked = true;
    if (e.type === 'delinquency_cleared') locked = false;
  }
  return locked;
}

const stepTemplates: Partial<Record<string, MessageTemplateKey>> = {
  late_notice: 'late_notice',
  lockout: 'lockout_notice',
  pre_lien_notice: 'pre_lien_notice',
};

/** The event types that make messages. */
export const messageEventTypes = [
  'reservation_submitted',
  'gate_code_assigned',
  'gate_code_activated',
  'invoice_generated',
  'invoice_sent',
  'payment_received',
  'desk_payment_received',
  'portal_payment_received',
  'autopay_charge_failed',
  'delinquency_step_taken',
  'delinquency_cleared',
  'lease_rent_change_scheduled',
  'lease_protection_changed',
] as const satisfies readonly DomainEvent['type'][];

/** The message an event makes, or null when it makes none. */
export async function composeFromEvent(event: DomainEvent & { id: string }, deps: ComposeDeps): Promise<ComposedMessage | null> {
  switch (event.type) {
    case 'reservation_submitted': {
      const d = event.data;
      const unit = await deps.pool.maybeOne(sql.type(z.object({ unit_number: z.string(), facility_id: z.string().nullable() }))`
        SELECT unit_number, facility_id::text FROM units WHERE id = ${d.unitId}`);
      const values: MessageValues = { unitNumber: unit?.unit_number ?? '', moveInDate: dayText(d.moveInDate) };
      if (d.customerId) {
        const message = await toCustomer(deps, d.customerId, 'reservation_confirmed', values, unit?.facility_id ?? null);
        // The address the renter typed on the form is where they expect the confirmation.
        return message && d.contact ? { ...message, to: d.contact.email, values: { ...message.values, firstName: d.contact.firstName } } : message;
      }
      if (!d.contact) return null;
      const facility = unit?.facility_id ?? null;
      return {
        templateKey: 'reservation_confirmed',
        customerId: null,
        facilityId: facility,
        to: d.contact.email,
        values: {
          firstName: d.contact.firstName,
          lastName: d.contact.lastName,
          facilityName: await facilityName(deps.pool, facility),
          portalUrl: portalUrl(deps),
          date: dayText(deps.now.toISOString()),
          ...values,
        },
      };
    }
    case 'gate_code_assigned':
    case 'gate_code_activated': {
      // The welcome gives the code when it opens the gate: at move-in, or once the lease is signed.
      if (event.type === 'gate_code_assigned' && (event.data.reason !== 'move_in' || event.data.awaitingSignature)) return null;
      const lease = await unitNumberOfLease(deps.pool, event.data.leaseId);
      const facilityId = (event.type === 'gate_code_assigned' ? event.data.facilityId : null) ?? lease?.facilityId ?? null;
      const message = await toCustomer(deps, event.data.customerId, 'move_in_welcome', { ...(lease && { unitNumber: lease.unitNumber }) }, facilityId);
      return message && { ...message, gateCodeLeaseId: event.data.leaseId };
    }
    case 'invoice_generated':
    case 'invoice_sent': {
      if (event.type === 'invoice_generated' && event.data.status !== 'sent') return null;
      const invoice = await invoiceOf(deps.pool, event.data.invoiceId);
      if (!invoice) return null;
      return toCustomer(
        deps,
        invoice.customer_id,
        'invoice_issued',
        { invoiceNumber: invoice.invoice_number, amount: money(invoice.amount), dueDate: dayText(invoice.due_date) },
        invoice.facility_id,
      );
    }
    case 'payment_received': {
      // A payment of a desk or portal receipt is told once, by the receipt's own event; a payment
      // from the account's credit moved no money.
      if (event.data.receiptId !== null || event.data.method === 'account_credit') return null;
      const invoice = await invoiceOf(deps.pool, event.data.invoiceId);
      return toCustomer(
        deps,
        event.data.customerId,
        'payment_receipt',
        { amount: money(event.data.amount), date: dayText(event.data.paidDate), invoiceNumber: invoice?.invoice_number ?? '' },
        invoice?.facility_id,
      );
    }
    case 'desk_payment_received':
    case 'portal_payment_received': {
      const numbers = await deps.pool.anyFirst(sql.type(z.object({ invoice_number: z.string() }))`
        SELECT invoice_number FROM invoices WHERE id = ANY(${sql.array(
          event.data.allocations.map((a) => a.invoiceId),
          'uuid',
        )}) ORDER BY invoice_number`);
      return toCustomer(deps, event.data.customerId, 'payment_receipt', { amount: money(event.data.amount), invoiceNumber: numbers.join(', ') });
    }
    case 'autopay_charge_failed': {
      const d = event.data;
      if (d.nextAttemptOn !== null && !d.requiresAction) return null;
      const invoice = await invoiceOf(deps.pool, d.invoiceId);
      return toCustomer(
        deps,
        d.customerId,
        'autopay_failed',
        {
          amount: money(d.amount),
          invoiceNumber: invoice?.invoice_number ?? '',
          dueDate: dayText(invoice?.due_date),
          reason: d.requiresAction ? 'your card asks you to confirm the payment' : d.reason,
          // A card that needs the renter: the link pays this invoice.
          ...(d.requiresAction && { portalUrl: payUrl(deps, d.invoiceId) }),
        },
        invoice?.facility_id,
      );
    }
    case 'delinquency_step_taken': {
      const key = stepTemplates[event.data.kind];
      if (!key) return null;
      const invoice = await invoiceOf(deps.pool, event.data.invoiceId);
      return toCustomer(
        deps,
        event.data.customerId,
        key,
        {
          pastDue: money(event.data.pastDue),
          invoiceNumber: invoice?.invoice_number ?? '',
          dueDate: dayText(invoice?.due_date),
          date: dayText(event.data.date),
        },
        invoice?.facility_id,
      );
    }
    case 'delinquency_cleared': {
      if (!(await lockedOutBefore(deps.store, event.data.customerId, event.id))) return null;
      return toCustomer(deps, event.data.customerId, 'access_restored', { pastDue: money(event.data.pastDue), date: dayText(event.data.date) });
    }
    case 'lease_rent_change_scheduled': {
      const d = event.data;
      const lease = await unitNumberOfLease(deps.pool, d.leaseId);
      return toCustomer(
        deps,
        d.customerId,
        'rent_change_notice',
        {
          currentRate: money(d.currentRate),
          newRate: money(d.newRate),
          amount: money(d.newRate),
          effectiveDate: dayText(d.effectiveDate),
          ...(lease && { unitNumber: lease.unitNumber }),
        },
        lease?.facilityId,
      );
    }
    case 'lease_protection_changed': {
      // Only the facility's own enrolment is told: a plan the renter or staff chose, they know of.
      const d = event.data;
      if (d.reason !== 'enrolled_by_default' || d.protection === null) return null;
      const lease = await unitNumberOfLease(deps.pool, d.leaseId);
      return toCustomer(
        deps,
        d.customerId,
        'protection_enrolled',
        {
          planName: d.protection.name,
          coverageAmount: money(d.protection.coverageAmount),
          monthlyPremium: money(d.protection.monthlyPremium),
          effectiveDate: dayText(d.effectiveDate),
          ...(lease && { unitNumber: lease.unitNumber }),
        },
        lease?.facilityId,
      );
    }
    default:
      return null;
  }
}

const NewestInvoiceRow = z.object({ id: z.string(), invoice_number: z.string(), amount: z.string(), due_date: z.string() });

/**
 * The message as a renter would get it today, from their real data (for an owner's preview):
 * their newest invoice, past-due balance (the delinquency schedule's, from their invoices' streams) and units (a gate code shows as GATE_CODE_MARK).
 */
export async function composeForCustomer(templateKey: MessageTemplateKey, customerId: string, deps: ComposeDeps): Promise<ComposedMessage | null> {
  const [invoice, invoices, today] = await Promise.all([
    deps.pool.maybeOne(sql.type(NewestInvoiceRow)`
      SELECT id::text, invoice_number, amount::text, due_date::text
      FROM invoices WHERE customer_id = ${customerId} AND status <> 'cancelled'
      ORDER BY due_date DESC, invoice_number DESC LIMIT 1`),
    renterInvoices(deps, customerId),
    customerToday(deps.store, customerId, deps.now),
  ]);
  const lease = await deps.pool.maybeOne(sql.type(z.object({ id: z.string(), monthly_rate: z.string() }))`
    SELECT id::text, monthly_rate::text FROM leases WHERE customer_id = ${customerId} AND is_active ORDER BY start_date DESC, id LIMIT 1`);
  // The plan the lease has now (its stream's newest choice), for a preview of the enrolment notice.
  const plan = lease ? (await loadAggregate(deps.store, streams.lease(lease.id), leaseAggregate)).state : null;
  const latestPlan = plan && (plan.status === 'active' || plan.status === 'ended') ? (plan.protection.at(-1)?.protection ?? null) : null;
  return toCustomer(deps, customerId, templateKey, {
    ...(invoice && {
      invoiceNumber: invoice.invoice_number,
      amount: money(invoice.amount),
      dueDate: dayText(invoice.due_date),
      pastDue: money(pastDue(invoices, today)),
    }),
    ...(lease && { currentRate: money(lease.monthly_rate), newRate: money(lease.monthly_rate) }),
    ...(latestPlan && { planName: latestPlan.name, coverageAmount: money(latestPlan.coverageAmount), monthlyPremium: money(latestPlan.monthlyPremium) }),
    moveInDate: dayText(deps.now.toISOString()),
    effectiveDate: dayText(deps.now.toISOString()),
  });
}

/** The lease's gate code as it stands now (the newest assigned), or null when it has none. */
export async function currentGateCode(store: EventStore, leaseId: string): Promise<string | null> {
  let code: string | null = null;
  for (const e of await store.readStream(streams.gateCode(leaseId))) {
    if (e.type === 'gate_code_assigned') code = String((e.data as { code?: unknown }).code ?? '') || null;
  }
  return code;
}

/** The stored body as sent: the mark replaced by the lease's gate code. */
export async function withGateCode(store: EventStore, text: string, leaseId: string | null): Promise<string> {
  if (leaseId === null || !text.includes(GATE_CODE_MARK)) return text;
  const code = await currentGateCode(store, leaseId);
  return code === null ? text : text.replaceAll(GATE_CODE_MARK, code);
}

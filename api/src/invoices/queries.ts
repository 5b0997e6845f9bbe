import { InvoiceLine, singleLine } from '@storage/contracts/billing';
import type { CustomerPayment } from '@storage/contracts/customers';
import { InvoiceStatus, PaymentMethod, PaymentStatus } from '@storage/contracts/enums';
import { type InvoiceListItem, invoiceSorting, type ListInvoicesQuery, type Payment } from '@storage/contracts/invoices';
import { sortOf } from '@storage/contracts/sorting';
import { type DatabasePool, sql } from 'slonik';
import { z } from 'zod';
import { allOf, type ListSql, listPage, orderBy, SEARCH_COUNTED_UP_TO, type SortColumns, searchMatches, textOrder } from '../http/list-page.ts';
import { staffDisplayName } from '../staff/queries.ts';

const InvoiceRow = z.object({
  id: z.string(),
  invoice_number: z.string(),
  customer_id: z.string(),
  lease_id: z.string().nullable(),
  amount: z.string(),
  due_date: z.string(),
  paid_date: z.string().nullable(),
  status: InvoiceStatus,
  description: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  customer_facility_id: z.string().nullable(),
  customer_email: z.string(),
  customer_first_name: z.string(),
  customer_last_name: z.string(),
});

const columns = sql.fragment`
  i.id::text, i.invoice_number, i.customer_id::text, i.lease_id::text, i.amount, i.due_date, i.paid_date, i.status,
  i.description, i.created_at, i.updated_at, c.facility_id::text AS customer_facility_id, c.email AS customer_email,
  c.first_name AS customer_first_name, c.last_name AS customer_last_name`;

function toInvoice(row: z.infer<typeof InvoiceRow>): InvoiceListItem {
  return {
    id: row.id,
    invoiceNumber: row.invoice_number,
    customerId: row.customer_id,
    leaseId: row.lease_id,
    amount: row.amount,
    dueDate: row.due_date,
    paidDate: row.paid_date,
    status: row.status,
    description: row.description,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    customer: {
      id: row.customer_id,
      facilityId: row.customer_facility_id,
      email: row.customer_email,
      firstName: row.customer_first_name,
      lastName: row.customer_last_name,
    },
  };
}

// The customer's name and the status's place in InvoiceStatus are kept on the invoice row (the
// invoices projection; migration 039), each order with an index on these very expressions, so a
// page is an index range rather than every invoice joined and sorted.
const sortColumns: SortColumns<keyof typeof invoiceSorting.columns> = {
  invoiceNumber: textOrder(sql.fragment`i.invoice_number`),
  customer: [textOrder(sql.fragment`i.customer_last_name`), textOrder(sql.fragment`i.customer_first_name`)],
  amount: sql.fragment`i.amount`,
  status: [sql.fragment`i.status_rank`, sql.fragment`i.due_date`],
  dueDate: sql.fragment`i.due_date`,
  createdAt: sql.fragment`i.created_at`,
};

/** The list's query in parts, for its pages (and the plain OFFSET peer of ops/bench/reads.ts). */
export function invoicesSql(query: z.output<typeof ListInvoicesQuery>): ListSql {
  const conditions = [];
  if (query.facilityId) conditions.push(sql.fragment`i.facility_id = ${query.facilityId}`);
  if (query.customerId) conditions.push(sql.fragment`i.customer_id = ${query.customerId}`);
  if (query.status) conditions.push(sql.fragment`i.status = ${query.status}`);
  if (query.search) conditions.push(searchMatches(sql.fragment`i.search_text`, query.search));
  return {
    // The id as the wire sends it (text): no cast per row, which a deep page would pay for every row it skips.
    select: sql.fragment`i.id`,
    from: sql.fragment`invoices i`,
    where: allOf(conditions),
    orderBy: orderBy(sortColumns, sortOf(invoiceSorting, query), sql.fragment`i.id`),
    ...(query.search && { countUpTo: SEARCH_COUNTED_UP_TO }),
  };
}

/**
 * Newest first unless asked otherwise. The page is chosen from the invoices alone (its customers
 * are joined to its rows only), so a deep page or the total never touch a customer row.
 */
export async function listInvoices(pool: DatabasePool, query: z.output<typeof ListInvoicesQuery>) {
  const page = await listPage(pool, z.object({ id: z.string() }), invoicesSql(query), query);
  const ids = page.rows.map((r) => r.id);
  const rows = await pool.any(sql.type(InvoiceRow)`
    SELECT ${columns} FROM invoices i JOIN customers c ON c.id = i.customer_id
    WHERE i.id = ANY(${sql.array(ids, 'uuid')})
    ORDER BY array_position(${sql.array(ids, 'uuid')}, i.id)`);
  return { invoices: rows.map(toInvoice), paging: page.info };
}

export async function getInvoice(pool: DatabasePool, id: string): Promise<InvoiceListItem | null> {
  const row = await pool.maybeOne(sql.type(InvoiceRow)`
    SELECT ${columns} FROM invoices i JOIN customers c ON c.id = i.customer_id WHERE i.id = ${id}`);
  return row ? toInvoice(row) : null;
}

const PaymentRow = z.object({
  id: z.string(),
  amount: z.string(),
  method: PaymentMethod,
  status: PaymentStatus,
  stripe_payment_intent_id: z.string().nullable(),
  transaction_id: z.string().nullable(),
  amount_refunded: z.string(),
  refund_of: z.string().nullable(),
  created_at: z.string(),
});

function toPayment(r: z.infer<typeof PaymentRow>): Payment {
  return {
    id: r.id,
    amount: r.amount,
    method: r.method,
    status: r.status,
    stripePaymentIntentId: r.stripe_payment_intent_id,
    transactionId: r.transaction_id,
    amountRefunded: r.amount_refunded,
    refundOf: r.refund_of,
    createdAt: r.created_at,
  };
}

export async function paymentsOf(pool: DatabasePool, invoiceId: string): Promise<Payment[]> {
  const rows = await pool.any(sql.type(PaymentRow)`
    SELECT id::text, amount, method, status, stripe_payment_intent_id, transaction_id, amount_refunded, refund_of::text, created_at
    FROM payments WHERE invoice_id = ${invoiceId} ORDER BY created_at, id`);
  return rows.map(toPayment);
}

const CustomerPaymentRow = PaymentRow.extend({ invoice_id: z.string(), invoice_number: z.string() });

/** Every payment of the customer's invoices, newest first. */
export async function paymentsOfCustomer(pool: DatabasePool, customerId: string): Promise<CustomerPayment[]> {
  const rows = await pool.any(sql.type(CustomerPaymentRow)`
    SELECT p.id::text, p.amount, p.method, p.status, p.stripe_payment_intent_id, p.transaction_id, p.amount_refunded, p.refund_of::text, p.created_at,
      i.id::text AS invoice_id, i.invoice_number
    FROM invoices i JOIN payments p ON p.invoice_id = i.id
    WHERE i.customer_id = ${customerId} ORDER BY p.created_at DESC, p.id DESC`);
  return rows.map((r) => ({ ...toPayment(r), invoiceId: r.invoice_id, invoiceNumber: r.invoice_number }));
}

const NameRow = z.object({ id: z.string(), name: z.string() });

/** Display names of staff members and customers by id, for saying who did something. */
export async function peopleNames(pool: DatabasePool, ids: { staff: string[]; customers: string[] }): Promise<Map<string, string>> {
  const [staff, customers] = await Promise.all([
    ids.staff.length === 0
      ? []
      : pool.any(sql.type(NameRow)`
          SELECT id::text, ${staffDisplayName()} AS name
          FROM staff WHERE id = ANY(${sql.array(ids.staff, 'uuid')})`),
    ids.customers.length === 0
      ? []
      : pool.any(sql.type(NameRow)`
          SELECT id::text, first_name || ' ' || last_name AS name FROM customers WHERE id = ANY(${sql.array(ids.customers, 'uuid')})`),
  ]);
  return new Map([...staff, ...customers].map((row) => [row.id, row.name]));
}

const LinesRow = z.object({ lease_id: z.string().nullable(), description: z.string().nullable(), amount: z.string(), lines: z.array(InvoiceLine) });

/** An invoice row's lines; a row the projection wrote without any (older than lines) shows its amount as one line. */
export function shownLines(row: z.infer<typeof LinesRow>): InvoiceLine[] {
  return row.lines.length > 0 ? row.lines : [singleLine({ leaseId: row.lease_id, description: row.description, amount: row.amount })];
}

/** The invoice's lines (shownLines). */
export async function linesOf(pool: DatabasePool, invoiceId: string): Promise<InvoiceLine[]> {
  const row = await pool.maybeOne(sql.type(LinesRow)`
    SELECT lease_id::text AS lease_id, description, amount, lines FROM invoices WHERE id = ${invoiceId}`);
  if (!row) return [];
  return shownLines(row);
}

import { z } from 'zod';
import { InvoiceLine } from './billing.ts';
import { DeskPaymentMethod, InvoiceStatus, PaymentMethod, PaymentStatus } from './enums.ts';
import { Id, IsoDate, IsoDateTime, OptionalText, RequiredText, SearchText } from './fields.ts';
import { PaymentAmount } from './money.ts';
import { pagingFields } from './paging.ts';
import { listSorting } from './sorting.ts';

/** How an invoice created as paid was paid: a desk method, and a check's number or a transfer's reference. */
export const PaidAtCreation = z.strictObject({
  method: DeskPaymentMethod,
  reference: OptionalText(100),
});
export type PaidAtCreation = z.output<typeof PaidAtCreation>;

/** The statuses an invoice is created with that record why: the void (cancelled) or the write-off. */
export const statusesWithReason: readonly InvoiceStatus[] = ['cancelled', 'written_off'];

/**
 * The status chosen is what happened, with its consequences: created paid, it records its payment
 * (`payment`, required then); cancelled or written off, the void or the write-off (`reason`,
 * required then). Neither is taken with another status, so nothing sent is silently dropped.
 */
export const CreateInvoiceRequest = z
  .strictObject({
    invoiceNumber: RequiredText(50),
    customerId: Id,
    leaseId: Id.nullish().transform((v) => v ?? null),
    amount: PaymentAmount,
    dueDate: IsoDate,
    status: InvoiceStatus.default('draft'),
    description: OptionalText(500),
    payment: PaidAtCreation.nullish().transform((v) => v ?? null),
    reason: OptionalText(200),
  })
  .superRefine((body, ctx) => {
    if (body.status === 'paid' && body.payment === null) ctx.addIssue({ code: 'custom', path: ['payment'], message: 'is required when the status is paid' });
    if (body.status !== 'paid' && body.payment !== null) ctx.addIssue({ code: 'custom', path: ['payment'], message: 'is only for an invoice created as paid' });
    const wantsReason = statusesWithReason.includes(body.status);
    if (wantsReason && body.reason === null) ctx.addIssue({ code: 'custom', path: ['reason'], message: `is required when the status is ${body.status}` });
    if (!wantsReason && body.reason !== null) {
      ctx.addIssue({ code: 'custom', path: ['reason'], message: 'is only for an invoice created cancelled or written off' });
    }
  });
export type CreateInvoiceRequest = z.input<typeof CreateInvoiceRequest>;
export type CreateInvoiceCommand = z.output<typeof CreateInvoiceRequest>;

/** Customer is the customer's last name, then first name; status in the order of the status list; newest first unless asked otherwise. */
export const invoiceSorting = listSorting(
  { invoiceNumber: 'asc', customer: 'asc', amount: 'desc', status: 'asc', dueDate: 'desc', createdAt: 'desc' },
  'createdAt',
);

export const ListInvoicesQuery = z.strictObject({
  /** Invoice number, or the customer's name or email. */
  search: SearchText,
  /** The customer's facility. */
  facilityId: Id.optional(),
  /** One customer's invoices (the customer page lists them). */
  customerId: Id.optional(),
  status: InvoiceStatus.optional(),
  ...invoiceSorting.fields,
  ...pagingFields,
});
export type ListInvoicesQuery = z.input<typeof ListInvoicesQuery>;

/** The invoice list item of spec §3: the invoice plus a nested customer. */
export const InvoiceListItem = z.object({
  id: Id,
  invoiceNumber: z.string(),
  customerId: Id,
  leaseId: Id.nullable(),
  amount: z.string(),
  dueDate: IsoDate,
  paidDate: IsoDate.nullable(),
  status: InvoiceStatus,
  description: z.string().nullable(),
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime,
  customer: z.object({
    id: Id,
    facilityId: Id.nullable(),
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
  }),
});
export type InvoiceListItem = z.infer<typeof InvoiceListItem>;

export const Payment = z.object({
  id: Id,
  amount: z.string(),
  method: PaymentMethod,
  status: PaymentStatus,
  stripePaymentIntentId: z.string().nullable(),
  transactionId: z.string().nullable(),
  /** How much of it staff have given back so far ("0.00": none); a refund row itself shows its own amount. */
  amountRefunded: z.string(),
  /** A refund's row: the payment it gives back (status 'pending' while a card refund awaits the provider). */
  refundOf: Id.nullable().default(null),
  createdAt: IsoDateTime,
});
export type Payment = z.infer<typeof Payment>;

/** One event of the invoice's history, in words: what happened, when, and who did it. */
export const InvoiceHistoryEntry = z.object({
  id: Id,
  type: z.string(),
  description: z.string(),
  occurredAt: IsoDateTime,
  actor: z.object({ type: z.enum(['staff', 'customer', 'system']), id: z.string().nullable(), name: z.string() }),
});
export type InvoiceHistoryEntry = z.infer<typeof InvoiceHistoryEntry>;

export const InvoiceDetail = InvoiceListItem.extend({
  /** What the invoice charges, in order; the amount is their sum. */
  lines: z.array(InvoiceLine),
  payments: z.array(Payment),
  history: z.array(InvoiceHistoryEntry),
});
export type InvoiceDetail = z.infer<typeof InvoiceDetail>;

import { z } from 'zod';
import { CustomerStatus } from './enums.ts';
import { Email, Id, IsoDateTime, OptionalText, RequiredText, SearchText } from './fields.ts';
import { Payment } from './invoices.ts';
import { pagingFields } from './paging.ts';
import { listSorting } from './sorting.ts';

/** Who the customer is and how to reach them: what staff may edit. */
const contactFields = {
  firstName: RequiredText(100),
  lastName: RequiredText(100),
  email: Email,
  phone: OptionalText(40),
  address: OptionalText(500),
  emergencyContact: OptionalText(200),
  emergencyPhone: OptionalText(40),
};

/** The standings staff set by hand; overdue is never one: it follows the invoices. */
export const ChosenCustomerStatus = CustomerStatus.extract(['active', 'inactive', 'terminated']);
export type ChosenCustomerStatus = z.infer<typeof ChosenCustomerStatus>;

export const CreateCustomerRequest = z.strictObject({
  ...contactFields,
  // A new renter owes nothing: overdue is never chosen, it follows the invoices.
  status: ChosenCustomerStatus.default('active'),
  facilityId: Id.nullish().transform((v) => v ?? null),
});
export type CreateCustomerRequest = z.input<typeof CreateCustomerRequest>;
export type CreateCustomerCommand = z.output<typeof CreateCustomerRequest>;

/**
 * An edit of the customer's contact details (at least one). Standing and facility are not details:
 * a field of them is refused by name, so an edit can never put an overdue renter back in good
 * standing (the billing engine decides the standing) nor fill in a default nobody chose.
 */
export const UpdateCustomerRequest = z
  .strictObject(contactFields)
  .partial()
  .refine((v) => Object.keys(v).length > 0, { message: 'must change at least one field' });
export type UpdateCustomerRequest = z.input<typeof UpdateCustomerRequest>;
export type UpdateCustomerCommand = z.output<typeof UpdateCustomerRequest>;

/**
 * Staff's decision on a customer's standing, with why (kept on the event and shown in the
 * history): inactive, terminated, or active again.
 */
export const ChangeCustomerStandingRequest = z.strictObject({ status: ChosenCustomerStatus, reason: RequiredText(200) });
export type ChangeCustomerStandingRequest = z.input<typeof ChangeCustomerStandingRequest>;

/** Name is the last name, then the first; newest first unless asked otherwise. */
export const customerSorting = listSorting({ name: 'asc', email: 'asc', status: 'asc', createdAt: 'desc' }, 'createdAt');

export const ListCustomersQuery = z.strictObject({
  search: SearchText,
  facilityId: Id.optional(),
  status: CustomerStatus.optional(),
  /** on: renters enrolled in autopay; off: the others. */
  autopay: z.enum(['on', 'off']).optional(),
  /** true: the archived customers (to restore one); otherwise the current ones. */
  archived: z.enum(['true', 'false']).optional(),
  ...customerSorting.fields,
  ...pagingFields,
});
export type ListCustomersQuery = z.input<typeof ListCustomersQuery>;

export const Customer = z.object({
  id: Id,
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  address: z.string().nullable(),
  emergencyContact: z.string().nullable(),
  emergencyPhone: z.string().nullable(),
  status: CustomerStatus,
  facilityId: z.string().nullable(),
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime,
});
export type Customer = z.infer<typeof Customer>;

export { TOTAL_COUNT_HEADER } from './headers.ts';

/** A payment of one of the customer's invoices, named by the invoice's number. */
export const CustomerPayment = Payment.extend({ invoiceId: Id, invoiceNumber: z.string() });
export type CustomerPayment = z.infer<typeof CustomerPayment>;

/**
 * The customer's account as the customer page shows it: the open balance of unpaid (sent or
 * overdue) invoices, OVERDUE when one is past due (the renter sees the same in the portal), the
 * credit on the account that no invoice has taken yet, and every payment, newest first.
 */
export const CustomerAccount = z.object({
  openBalance: z.string(),
  standing: z.enum(['CURRENT', 'OVERDUE']),
  credit: z.string(),
  payments: z.array(CustomerPayment),
});
export type CustomerAccount = z.infer<typeof CustomerAccount>;

/** A note staff keep on a customer, newest first on the customer page. */
export const CustomerNote = z.object({
  id: Id,
  text: z.string(),
  /** Who wrote it ("Olivia Owner"); null when the system did or the account is gone. */
  author: z.string().nullable(),
  createdAt: IsoDateTime,
});
export type CustomerNote = z.infer<typeof CustomerNote>;

export const AddCustomerNoteRequest = z.strictObject({ text: RequiredText(2000) });
export type AddCustomerNoteRequest = z.input<typeof AddCustomerNoteRequest>;

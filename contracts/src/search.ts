import { z } from 'zod';
import { CustomerStatus, InvoiceStatus, UnitStatus } from './enums.ts';
import { Id } from './fields.ts';

/** The console's global search (Ctrl-K): customers by name, email or phone; units by number; invoices by number. */
export const SearchQuery = z.strictObject({
  q: z.string().trim().min(1, 'is required').max(200, 'must be at most 200 characters'),
  facilityId: Id.optional(),
});
export type SearchQuery = z.input<typeof SearchQuery>;

/** How many of each kind the search answers: enough to pick from while typing. */
export const SEARCH_LIMIT = 5;

export const SearchResults = z.object({
  customers: z.array(z.object({ id: Id, name: z.string(), email: z.string(), phone: z.string().nullable(), status: CustomerStatus })),
  units: z.array(z.object({ id: Id, unitNumber: z.string(), building: z.string(), status: UnitStatus })),
  invoices: z.array(z.object({ id: Id, invoiceNumber: z.string(), customerName: z.string(), amount: z.string(), status: InvoiceStatus })),
});
export type SearchResults = z.infer<typeof SearchResults>;

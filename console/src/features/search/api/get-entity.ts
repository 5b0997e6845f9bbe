import type { Customer } from '@storage/contracts/customers';
import type { InvoiceDetail } from '@storage/contracts/invoices';
import type { SearchResults } from '@storage/contracts/search';
import type { Unit } from '@storage/contracts/units';
import { apiRequest } from '@storage/web-client/api';
import { queryOptions } from '@tanstack/react-query';
import { searchEverything } from './search.ts';

/** A customer, a unit or an invoice, as a picker names it. */
export type PickedEntity = { kind: 'customer' | 'unit' | 'invoice'; id: string };
export type NamedEntity = PickedEntity & { label: string };

// One wording for an entity, whether the search found it or it was read on its own (a reload).
const customerLabel = (name: string, email: string) => `Customer · ${name} · ${email}`;
const unitLabel = (unitNumber: string, building: string) => `Unit ${unitNumber} · Building ${building}`;
const invoiceLabel = (invoiceNumber: string, customerName: string) => `Invoice ${invoiceNumber} · ${customerName}`;

/** The search's customers, units and invoices, in that order, each named. */
export function namedEntities(results: SearchResults): NamedEntity[] {
  return [
    ...results.customers.map((c) => ({ kind: 'customer' as const, id: c.id, label: customerLabel(c.name, c.email) })),
    ...results.units.map((u) => ({ kind: 'unit' as const, id: u.id, label: unitLabel(u.unitNumber, u.building) })),
    ...results.invoices.map((i) => ({ kind: 'invoice' as const, id: i.id, label: invoiceLabel(i.invoiceNumber, i.customerName) })),
  ];
}

/** The customers, units and invoices a term finds, as the global search finds them; none before anything is typed. */
export const entitySearchQueryOptions = (q: string, facilityId: string | null) =>
  queryOptions({
    queryKey: ['search', 'entities', q, facilityId],
    queryFn: async () => namedEntities(await searchEverything(q, facilityId)),
    enabled: q.length > 0,
  });

async function entityLabel({ kind, id }: PickedEntity): Promise<string> {
  if (kind === 'customer') {
    const customer: Customer = await (await apiRequest('GET', `/api/customers/${id}`)).json();
    return customerLabel(`${customer.firstName} ${customer.lastName}`, customer.email);
  }
  if (kind === 'unit') {
    const unit: Unit = await (await apiRequest('GET', `/api/units/${id}`)).json();
    return unitLabel(unit.unitNumber, unit.building);
  }
  const invoice: InvoiceDetail = await (await apiRequest('GET', `/api/invoices/${id}`)).json();
  return invoiceLabel(invoice.invoiceNumber, `${invoice.customer.firstName} ${invoice.customer.lastName}`);
}

/** The name of an entity picked before (a shared or reloaded address holds only its id). */
export const entityLabelQueryOptions = (entity: PickedEntity) =>
  queryOptions({ queryKey: ['search', 'entity', entity.kind, entity.id], queryFn: () => entityLabel(entity), staleTime: Number.POSITIVE_INFINITY });

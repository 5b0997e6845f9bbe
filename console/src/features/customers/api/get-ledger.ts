import type { Ledger } from '@storage/contracts/ledger';
import { apiRequest } from '@storage/web-client/api';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { customersQueryKey } from './get-customers.ts';

const ledgerParams = (asOf: string | null) => (asOf ? `?${new URLSearchParams({ asOf })}` : '');

export async function getLedger(customerId: string, asOf: string | null): Promise<Ledger> {
  return (await apiRequest('GET', `/api/customers/${encodeURIComponent(customerId)}/ledger${ledgerParams(asOf)}`)).json();
}

/** Under the customers' key: a payment or a charge refreshes the customer's page, this tab too. */
export function useLedger(customerId: string, asOf: string | null) {
  return useQuery({
    queryKey: [...customersQueryKey, 'ledger', customerId, asOf],
    queryFn: () => getLedger(customerId, asOf),
    placeholderData: keepPreviousData,
  });
}

/** The statement as PDF, as of the same day (null: today). */
export function statementPdfUrl(customerId: string, asOf: string | null): string {
  return `/api/customers/${encodeURIComponent(customerId)}/statement.pdf${ledgerParams(asOf)}`;
}

import type { ReactNode } from 'react';
import { Link } from 'wouter';

/** The customer page of one customer. */
export const customerPath = (customerId: string) => `/customers/${customerId}`;

/** A customer's name (or what is given) as a link to their page; the facility in scope goes along. */
export function CustomerLink({ customerId, children }: { customerId: string; children: ReactNode }) {
  return (
    <Link href={customerPath(customerId)} className="customer-link">
      {children}
    </Link>
  );
}

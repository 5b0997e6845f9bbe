import type { PortalInvoice } from '@storage/contracts/portal';
import { useState } from 'react';
import { Link } from 'wouter';
import { formatCalendarDay, formatDollars } from './format.ts';

const statusBadge: Record<string, { label: string; tone: string }> = {
  paid: { label: 'PAID', tone: 'portal-badge-good' },
  overdue: { label: 'OVERDUE', tone: 'portal-badge-due' },
};

/** The renter's bills, newest first, each with the charges it is made of. */
export function BillList({ invoices }: { invoices: PortalInvoice[] }) {
  return (
    <ul className="portal-list" aria-label="Your bills">
      {invoices.map((invoice) => (
        <Bill key={invoice.id} invoice={invoice} />
      ))}
    </ul>
  );
}

/**
 * One bill: its number, due day, amount and standing, and its charges below. The charges of an
 * unpaid bill of several are open from the start (a late fee is never hidden in the rent's words);
 * the others open on a press.
 */
function Bill({ invoice }: { invoice: PortalInvoice }) {
  const unpaid = invoice.status !== 'paid';
  const [open, setOpen] = useState(unpaid && invoice.lines.length > 1);
  const badge = statusBadge[invoice.status] ?? { label: invoice.status.toUpperCase(), tone: 'portal-badge-neutral' };
  const chargesId = `bill-charges-${invoice.id}`;
  const count = `${invoice.lines.length} charge${invoice.lines.length === 1 ? '' : 's'}`;
  return (
    <li className="portal-card portal-bill" data-testid="portal-bill">
      <div className="portal-row">
        <div>
          <p className="portal-row-title">{invoice.invoiceNumber}</p>
          <p className="portal-muted">Due {formatCalendarDay(invoice.dueDate)}</p>
          {invoice.description && <p>{invoice.description}</p>}
        </div>
        <div className="portal-row-end">
          {unpaid && invoice.openBalance !== invoice.amount ? (
            // Partly paid (or a payment refunded): what is left to pay, and of what.
            <p className="portal-row-amount">
              {formatDollars(invoice.openBalance)} <span className="portal-muted">left of {formatDollars(invoice.amount)}</span>
            </p>
          ) : (
            <p className="portal-row-amount">{formatDollars(invoice.amount)}</p>
          )}
          <span className={`portal-badge ${badge.tone}`}>{badge.label}</span>
          {unpaid && (
            <Link href={`/checkout/${invoice.id}`} className="button button-primary">
              Pay Now
            </Link>
          )}
        </div>
      </div>
      <button type="button" className="portal-bill-toggle" aria-expanded={open} aria-controls={chargesId} onClick={() => setOpen(!open)}>
        {open ? 'Hide charges' : `Show charges (${count})`}
      </button>
      <section id={chargesId} className="portal-bill-charges" aria-label={`Charges on ${invoice.invoiceNumber}`} hidden={!open}>
        <ul className="portal-bill-lines">
          {invoice.lines.map((line, index) => (
            // Lines have no id of their own: their place on the invoice is theirs for good.
            // biome-ignore lint/suspicious/noArrayIndexKey: an invoice's lines are only ever appended
            <li key={index} data-testid="portal-bill-line">
              <span className="portal-bill-line-what">
                <span className="portal-bill-line-kind">{line.label}</span>
                {line.description !== line.label && <span>{line.description}</span>}
              </span>
              <span className="portal-bill-line-amount">{formatDollars(line.amount)}</span>
            </li>
          ))}
        </ul>
        <dl className="portal-bill-totals">
          <div>
            <dt>Total</dt>
            <dd>{formatDollars(invoice.amount)}</dd>
          </div>
          <div>
            <dt>Still owed</dt>
            <dd>{formatDollars(invoice.openBalance)}</dd>
          </div>
        </dl>
      </section>
    </li>
  );
}

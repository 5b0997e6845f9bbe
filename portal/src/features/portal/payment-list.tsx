import type { PortalPayment } from '@storage/contracts/payments';
import { formatCalendarDay, formatDollars, hasBalance } from './format.ts';

const statusTone: Record<PortalPayment['status'], string> = {
  paid: 'portal-badge-good',
  partly_refunded: 'portal-badge-neutral',
  refunded: 'portal-badge-neutral',
};

/** The renter's payments, newest first: when, how much, how, what each paid, and its receipt. */
export function PaymentList({ payments }: { payments: PortalPayment[] }) {
  return (
    <section className="portal-payments" aria-labelledby="portal-payments-title">
      <h2 id="portal-payments-title">Payments</h2>
      {payments.length === 0 ? (
        <p className="portal-empty">No payments yet.</p>
      ) : (
        <div className="portal-card portal-table-wrap">
          <table className="portal-table" aria-labelledby="portal-payments-title">
            <thead>
              <tr>
                <th>Date</th>
                <th className="portal-money">Amount</th>
                <th>Method</th>
                <th>Paid for</th>
                <th>Status</th>
                <th>Receipt</th>
              </tr>
            </thead>
            <tbody>
              {payments.map((payment) => (
                <tr key={payment.id} data-testid="portal-payment">
                  <td data-label="Date">{formatCalendarDay(payment.paidDate)}</td>
                  <td data-label="Amount" className="portal-money">
                    {formatDollars(payment.amount)}
                  </td>
                  <td data-label="Method">{payment.methodLabel ?? '—'}</td>
                  <td data-label="Paid for" className="portal-wrap">
                    {whatItPaid(payment)}
                  </td>
                  <td data-label="Status">
                    <span className={`portal-badge ${statusTone[payment.status]}`}>{payment.statusLabel}</span>
                    {payment.status === 'partly_refunded' && <span className="portal-muted"> {formatDollars(payment.refunded)} refunded</span>}
                  </td>
                  <td data-label="Receipt">
                    <a
                      href={payment.receiptUrl}
                      download
                      aria-label={`Download receipt, ${formatDollars(payment.amount)} paid ${formatCalendarDay(payment.paidDate)}`}
                    >
                      Download receipt
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** 'Invoice INV-1001 (Rent Mar 1 – Mar 31, 2026) $60.00; $20.00 kept as credit' */
function whatItPaid(payment: PortalPayment): string {
  const parts = payment.applied.map((a) => {
    const invoice = a.description ? `Invoice ${a.invoiceNumber} (${a.description})` : `Invoice ${a.invoiceNumber}`;
    return payment.applied.length === 1 && !hasBalance(payment.credited) ? invoice : `${invoice} ${formatDollars(a.amount)}`;
  });
  if (hasBalance(payment.credited)) parts.push(`${formatDollars(payment.credited)} kept as credit`);
  return parts.join('; ');
}

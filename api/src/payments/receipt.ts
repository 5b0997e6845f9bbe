import { type PaymentMethod, paymentMethodLabels } from '@storage/contracts/enums';
import { formatDollars, toCents } from '@storage/contracts/money';
import type { PaymentSummary, PortalPayment } from '@storage/contracts/payments';
import type { Settings } from '@storage/contracts/settings';
import { accessAfterPayment } from '@storage/domain/access/after-payment';
import { type CardPaymentReceipt, cardPaymentReceipt } from '@storage/domain/payments/receipt';
import type { EventStore } from '@storage/eventstore/port';
import type { DatabasePool } from 'slonik';
import { formatCalendarDate, INK, MUTED, newPdf, pdfHeading, pdfRule, pdfText } from '../documents/pdf.ts';

// A renter's payment as their portal session sees it: a card payment just made, on the payment
// result page (the report's answer) and its receipt, read from the one renter's own streams; and
// the receipt of any payment in their payments list (desk payments too), read from their ledger.

/** The card payment `paymentIntentId` of renter `customerId` with what it did to their access; null when it is not on their books. */
export async function paymentSummary(
  deps: { store: EventStore; pool: DatabasePool },
  customerId: string,
  paymentIntentId: string,
  now: Date,
): Promise<PaymentSummary | null> {
  const receipt = await cardPaymentReceipt(deps.store, customerId, paymentIntentId);
  if (!receipt) return null;
  const { amount, paidDate, applied, credited, balance, credit } = receipt;
  const access = await accessAfterPayment(deps, customerId, receipt.eventIds, now);
  return { amount, paidDate, applied, credited, balance, credit, access };
}

/** What a receipt says: a card payment just made (by its intent id), or a payment of the renter's payments list. */
export interface PaymentReceipt {
  /** The id printed on it and in its file name: the card payment's intent id, or the payment's id. */
  paymentId: string;
  paidDate: string;
  amount: string;
  /** Null when the record does not say. */
  method: PaymentMethod | null;
  applied: Array<{ invoiceNumber: string; description?: string | null; amount: string }>;
  credited: string;
  /** What staff gave back of it. */
  refunded: string;
}

export function cardReceipt(receipt: CardPaymentReceipt): PaymentReceipt {
  const { paymentIntentId, paidDate, amount, applied, credited } = receipt;
  return { paymentId: paymentIntentId, paidDate, amount, method: 'card', applied, credited, refunded: '0.00' };
}

export function listedPaymentReceipt(payment: PortalPayment): PaymentReceipt {
  const { id, paidDate, amount, method, applied, credited, refunded } = payment;
  return { paymentId: id, paidDate, amount, method, applied, credited, refunded };
}

/** 'receipt-2026-03-01-pi_test_abc.pdf' */
export function receiptFileName(receipt: PaymentReceipt): string {
  return `receipt-${receipt.paidDate}-${receipt.paymentId}.pdf`;
}

const MONEY_WIDTH = 100;

/** The receipt a renter keeps: who was paid, by whom, when, how much, and what it paid (not the balance, which moves on after it). */
export async function receiptPdf(
  receipt: PaymentReceipt,
  renter: { firstName: string; lastName: string; address: string | null },
  business: Settings['businessProfile'],
): Promise<PDFKit.PDFDocument> {
  const name = `${renter.firstName} ${renter.lastName}`;
  const { pdf, left, width } = await newPdf({ Title: `Payment receipt for ${name}, ${receipt.paidDate}`, Subject: 'Payment receipt' });

  pdfText(pdf, business.name ?? 'Self storage', left, pdf.y, { width, bold: true, size: 16, color: INK });
  const contact = [business.phone, business.email].filter((v): v is string => Boolean(v)).join('   ·   ');
  if (contact) pdfText(pdf, contact, { width, size: 10, color: MUTED });
  pdf.moveDown(1);
  pdfText(pdf, 'Payment receipt', { width, bold: true, size: 20, color: INK });
  const how = receipt.method ? ` · ${paymentMethodLabels[receipt.method]}` : '';
  pdfText(pdf, `Paid ${formatCalendarDate(receipt.paidDate)}${how} · Payment ID ${receipt.paymentId}`, { width, size: 10, color: MUTED });
  pdf.moveDown(0.8);
  pdfText(pdf, name, { width, bold: true, size: 11, color: INK });
  if (renter.address) pdfText(pdf, renter.address, { width, size: 10, color: INK });

  const amountX = left + width - MONEY_WIDTH;
  const line = (label: string, amount: string, bold = false) => {
    const y = pdf.y;
    pdfText(pdf, label, left, y, { width: width - MONEY_WIDTH - 8, bold, size: 10.5, color: INK });
    const after = pdf.y;
    pdfText(pdf, amount, amountX, y, { width: MONEY_WIDTH, align: 'right', bold, size: 10.5, color: INK });
    pdf.y = Math.max(after, pdf.y) + 4;
  };

  pdfHeading(pdf, 'What it paid', left, width);
  for (const applied of receipt.applied) {
    line(applied.description ? `Invoice ${applied.invoiceNumber} — ${applied.description}` : `Invoice ${applied.invoiceNumber}`, formatDollars(applied.amount));
  }
  if (receipt.credited !== '0.00') line('Kept as credit on your account', formatDollars(receipt.credited));
  pdfRule(pdf, left, width, pdf.y + 2);
  pdf.moveDown(0.5);
  line('Amount paid', formatDollars(receipt.amount), true);
  if (toCents(receipt.refunded) > 0n) {
    line(
      toCents(receipt.refunded) >= toCents(receipt.amount) ? 'Refunded to you: the whole payment' : 'Refunded to you',
      formatDollars(receipt.refunded),
      true,
    );
  }
  pdf.end();
  return pdf;
}

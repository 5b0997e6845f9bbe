import { formatDollars } from '@storage/contracts/money';
import type { PaymentSummary } from '@storage/contracts/payments';
import type { Settings } from '@storage/contracts/settings';
import { accessAfterPayment } from '@storage/domain/access/after-payment';
import { type CardPaymentReceipt, cardPaymentReceipt } from '@storage/domain/payments/receipt';
import type { EventStore } from '@storage/eventstore/port';
import type { DatabasePool } from 'slonik';
import { formatCalendarDate, INK, MUTED, newPdf, pdfHeading, pdfRule, pdfText } from '../documents/pdf.ts';

// A renter's card payment as their portal session sees it: on the payment result page (the
// report's answer) and as the receipt they download. Both read the one renter's own streams.

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

/** 'receipt-2026-03-01-pi_test_abc.pdf' */
export function receiptFileName(receipt: CardPaymentReceipt): string {
  return `receipt-${receipt.paidDate}-${receipt.paymentIntentId}.pdf`;
}

const MONEY_WIDTH = 100;

/** The receipt a renter keeps: who was paid, by whom, when, how much, and what it paid (not the balance, which moves on after it). */
export async function receiptPdf(
  receipt: CardPaymentReceipt,
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
  pdfText(pdf, `Paid ${formatCalendarDate(receipt.paidDate)} by card · Payment ID ${receipt.paymentIntentId}`, { width, size: 10, color: MUTED });
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
  for (const applied of receipt.applied) line(`Invoice ${applied.invoiceNumber}`, formatDollars(applied.amount));
  if (receipt.credited !== '0.00') line('Kept as credit on your account', formatDollars(receipt.credited));
  pdfRule(pdf, left, width, pdf.y + 2);
  pdf.moveDown(0.5);
  line('Amount paid', formatDollars(receipt.amount), true);
  pdf.end();
  return pdf;
}

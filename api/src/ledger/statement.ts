import type { Ledger } from '@storage/contracts/ledger';
import { formatDollars } from '@storage/contracts/money';
import type { Settings } from '@storage/contracts/settings';
import { formatCalendarDate, INK, MUTED, newPdf, pdfHeading, pdfRule, pdfText } from '../documents/pdf.ts';

// The statement a renter could be handed: who it is from, who it is for, as of when, every entry
// with the running balance, and the balance due. The same for staff and for the renter.

const DATE_WIDTH = 80;
const MONEY_WIDTH = 80;

/** 'Statement-Lovelace-2026-12-31.pdf' */
export function statementFileName(ledger: Ledger): string {
  const name = ledger.customer.lastName.replace(/[^A-Za-z0-9-]+/g, '') || 'renter';
  return `statement-${name}-${ledger.asOf}.pdf`;
}

export async function statementPdf(ledger: Ledger, business: Settings['businessProfile']): Promise<PDFKit.PDFDocument> {
  const renter = `${ledger.customer.firstName} ${ledger.customer.lastName}`;
  const { pdf, left, width } = await newPdf({ Title: `Statement for ${renter} as of ${ledger.asOf}`, Subject: 'Account statement' });

  pdfText(pdf, business.name ?? 'Self storage', left, pdf.y, { width, bold: true, size: 16, color: INK });
  const contact = [business.phone, business.email].filter((v): v is string => Boolean(v)).join('   ·   ');
  if (contact) pdfText(pdf, contact, { width, size: 10, color: MUTED });
  pdf.moveDown(1);
  pdfText(pdf, 'Statement', { width, bold: true, size: 20, color: INK });
  pdfText(pdf, `As of ${formatCalendarDate(ledger.asOf)}${ledger.from ? `, from ${formatCalendarDate(ledger.from)}` : ''}`, { width, size: 10, color: MUTED });
  pdf.moveDown(0.8);
  pdfText(pdf, renter, { width, bold: true, size: 11, color: INK });
  if (ledger.customer.address) pdfText(pdf, ledger.customer.address, { width, size: 10, color: INK });

  pdfHeading(pdf, 'Activity', left, width);
  const descriptionX = left + DATE_WIDTH;
  const amountX = left + width - 2 * MONEY_WIDTH;
  const balanceX = left + width - MONEY_WIDTH;
  const descriptionWidth = amountX - descriptionX - 8;

  const header = { date: 'Date', description: 'Description', amount: 'Amount', balance: 'Balance' };
  const row = (cells: typeof header, bold = false) => {
    // A new page starts with the column names again.
    if (pdf.y > pdf.page.height - pdf.page.margins.bottom - 30) {
      pdf.addPage();
      if (!bold) row(header, true);
    }
    const y = pdf.y;
    pdfText(pdf, cells.date, left, y, { width: DATE_WIDTH - 8, bold, size: 9.5, color: bold ? MUTED : INK });
    const after = [pdf.y];
    pdfText(pdf, cells.description, descriptionX, y, { width: descriptionWidth, bold });
    after.push(pdf.y);
    pdfText(pdf, cells.amount, amountX, y, { width: MONEY_WIDTH, align: 'right', bold });
    after.push(pdf.y);
    pdfText(pdf, cells.balance, balanceX, y, { width: MONEY_WIDTH, align: 'right', bold });
    after.push(pdf.y);
    pdf.y = Math.max(...after) + 4;
  };

  row(header, true);
  if (ledger.from) row({ date: formatCalendarDate(ledger.from), description: 'Opening balance', amount: '', balance: formatDollars(ledger.openingBalance) });
  for (const entry of ledger.entries) {
    row({ date: formatCalendarDate(entry.date), description: entry.description, amount: formatDollars(entry.amount), balance: formatDollars(entry.balance) });
  }
  if (ledger.entries.length === 0) row({ date: '', description: 'No activity', amount: '', balance: '' });

  pdfRule(pdf, left, width, pdf.y + 2);
  pdf.moveDown(0.8);
  const owed = !ledger.balance.startsWith('-');
  pdfText(pdf, owed ? `Balance due: ${formatDollars(ledger.balance)}` : `Credit on account: ${formatDollars(ledger.balance.slice(1))}`, left, pdf.y, {
    width,
    align: 'right',
    bold: true,
    size: 12,
    color: INK,
  });
  pdf.end();
  return pdf;
}

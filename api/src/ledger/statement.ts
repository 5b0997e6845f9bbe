import type { Ledger } from '@storage/contracts/ledger';
import { formatDollars } from '@storage/contracts/money';
import type { Settings } from '@storage/contracts/settings';
import { formatCalendarDate, INK, MUTED, newPdf, pdfHeading, pdfRule } from '../documents/pdf.ts';

// The statement a renter could be handed: who it is from, who it is for, as of when, every entry
// with the running balance, and the balance due. The same for staff and for the renter.

const DATE_WIDTH = 80;
const MONEY_WIDTH = 80;

/** 'Statement-Lovelace-2026-12-31.pdf' */
export function statementFileName(ledger: Ledger): string {
  const name = ledger.customer.lastName.replace(/[^A-Za-z0-9-]+/g, '') || 'renter';
  return `statement-${name}-${ledger.asOf}.pdf`;
}

export function statementPdf(ledger: Ledger, business: Settings['businessProfile']): PDFKit.PDFDocument {
  const renter = `${ledger.customer.firstName} ${ledger.customer.lastName}`;
  const { pdf, left, width } = newPdf({ Title: `Statement for ${renter} as of ${ledger.asOf}`, Subject: 'Account statement' });

  pdf
    .font('Helvetica-Bold')
    .fontSize(16)
    .fillColor(INK)
    .text(business.name ?? 'Self storage', left, pdf.y, { width });
  const contact = [business.phone, business.email].filter((v): v is string => Boolean(v)).join('   ·   ');
  if (contact) pdf.font('Helvetica').fontSize(10).fillColor(MUTED).text(contact, { width });
  pdf.moveDown(1);
  pdf.font('Helvetica-Bold').fontSize(20).fillColor(INK).text('Statement', { width });
  pdf
    .font('Helvetica')
    .fontSize(10)
    .fillColor(MUTED)
    .text(`As of ${formatCalendarDate(ledger.asOf)}${ledger.from ? `, from ${formatCalendarDate(ledger.from)}` : ''}`, { width });
  pdf.moveDown(0.8);
  pdf.font('Helvetica-Bold').fontSize(11).fillColor(INK).text(renter, { width });
  if (ledger.customer.address) pdf.font('Helvetica').fontSize(10).fillColor(INK).text(ledger.customer.address, { width });

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
    pdf
      .font(bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(9.5)
      .fillColor(bold ? MUTED : INK);
    pdf.text(cells.date, left, y, { width: DATE_WIDTH - 8 });
    const after = [pdf.y];
    pdf.text(cells.description, descriptionX, y, { width: descriptionWidth });
    after.push(pdf.y);
    pdf.text(cells.amount, amountX, y, { width: MONEY_WIDTH, align: 'right' });
    after.push(pdf.y);
    pdf.text(cells.balance, balanceX, y, { width: MONEY_WIDTH, align: 'right' });
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
  pdf
    .font('Helvetica-Bold')
    .fontSize(12)
    .fillColor(INK)
    .text(owed ? `Balance due: ${formatDollars(ledger.balance)}` : `Credit on account: ${formatDollars(ledger.balance.slice(1))}`, left, pdf.y, {
      width,
      align: 'right',
    });
  pdf.end();
  return pdf;
}

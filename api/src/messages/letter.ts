import type { Customer } from '@storage/contracts/customers';
import { loadTemplate } from '@storage/domain/messages/commands';
import { composeForCustomer } from '@storage/domain/messages/compose';
import { renderTemplate } from '@storage/domain/messages/templates';
import type { AppDeps } from '../deps.ts';
import { INK, MUTED, newPdf, pdfRule, pdfText } from '../documents/pdf.ts';
import { latestPreLienNotice } from './queries.ts';

const longDate = new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/**
 * The pre-lien notice as a letter to print and mail: the notice as it was written to the renter
 * (the newest one), or, when none was written yet, as it would read today.
 */
export async function preLienLetterPdf(deps: Pick<AppDeps, 'pool' | 'store' | 'clock'>, customer: Customer, publicUrl: string): Promise<PDFKit.PDFDocument> {
  const written = await latestPreLienNotice(deps.pool, customer.id);
  const composed = await composeForCustomer('pre_lien_notice', customer.id, { pool: deps.pool, store: deps.store, publicUrl, now: deps.clock.now() });
  const notice = written
    ? { subject: written.subject, body: written.body, date: new Date(written.created_at) }
    : { ...renderTemplate(await loadTemplate(deps.store, 'pre_lien_notice'), composed?.values ?? {}), date: deps.clock.now() };
  const sender = composed?.values.facilityName ?? '';

  const { pdf, left, width } = await newPdf({ Title: `Pre-lien notice: ${customer.firstName} ${customer.lastName}`, Subject: 'Pre-lien notice' });
  pdfText(pdf, sender, left, pdf.y, { width, bold: true, size: 14, color: INK });
  pdf.moveDown(0.2);
  pdfRule(pdf, left, width, pdf.y);
  pdf.moveDown(1.2);
  pdfText(pdf, longDate.format(notice.date), left, pdf.y, { width, size: 10, color: MUTED });
  pdf.moveDown(1);
  pdfText(pdf, `${customer.firstName} ${customer.lastName}`, left, pdf.y, { width, size: 11, color: INK });
  if (customer.address) pdfText(pdf, customer.address, { width });
  pdf.moveDown(1.5);
  pdfText(pdf, 'PRE-LIEN NOTICE', { width, bold: true, size: 13 });
  pdfText(pdf, notice.subject, { width, bold: true, size: 11 });
  pdf.moveDown(1);
  pdfText(pdf, notice.body, left, pdf.y, { width, lineGap: 2, size: 11, color: INK });
  pdf.end();
  return pdf;
}

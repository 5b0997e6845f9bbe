import PDFDocument from 'pdfkit';

// The one look of the documents the API writes as PDF (the lease agreement, the statement):
// US Letter, the same margins, ink, muted grey and rules, headings underlined.

export const PAGE_MARGIN = 54;
export const INK = '#0f172a';
export const MUTED = '#64748b';
export const RULE = '#cbd5e1';

const calendarDate = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/** 'Mar 1, 2025' for '2025-03-01', whatever the server's time zone. */
export function formatCalendarDate(isoDate: string): string {
  return calendarDate.format(new Date(`${isoDate}T00:00:00Z`));
}

/** A new US Letter document with its title in the file's properties; `width` is the text column's. */
export function newPdf(info: { Title: string; Subject: string }) {
  const pdf = new PDFDocument({ size: 'LETTER', margin: PAGE_MARGIN, info });
  return { pdf, left: PAGE_MARGIN, width: pdf.page.width - 2 * PAGE_MARGIN };
}

/** A section heading across the text column, with a rule under it. */
export function pdfHeading(pdf: PDFKit.PDFDocument, title: string, left: number, width: number): void {
  pdf.moveDown(0.6);
  pdf.font('Helvetica-Bold').fontSize(12).fillColor(INK).text(title, left, pdf.y, { width });
  pdfRule(pdf, left, width, pdf.y + 2);
  pdf.moveDown(0.5);
}

/** A thin rule across the text column at `y`. */
export function pdfRule(pdf: PDFKit.PDFDocument, left: number, width: number, y: number): void {
  pdf
    .moveTo(left, y)
    .lineTo(left + width, y)
    .lineWidth(0.5)
    .strokeColor(RULE)
    .stroke();
}

import { accessHoursWords } from '@storage/contracts/access-hours';
import type { BillingSettings, LateFeeRule } from '@storage/contracts/billing';
import type { SignatureChannel, SignedLeaseDocument } from '@storage/contracts/lease-signatures';
import type { Lease, LeaseDocument } from '@storage/contracts/leases';
import { formatDollars } from '@storage/contracts/money';
import { promotionTermsWords } from '@storage/contracts/promotions';
import type { FacilityParticulars } from '@storage/domain/billing/settings';
import { type LeaseAddenda, NO_ADDENDA, type SignatureRecord } from '@storage/domain/leases/signature';
import { formatCalendarDate, INK, MUTED, newPdf, pdfHeading, pdfText, RULE } from '../documents/pdf.ts';

// The lease agreement, written out once (`leaseDocument`) for the screen and for the PDF, from the
// facility's billing settings (the terms billing itself applies), and the signed agreement's PDF
// with its certificate page.

/** What the agreement says of the lease: the lease as shown, or the one an online rental is about to make. */
export type AgreementLease = Pick<Lease, 'id' | 'monthlyRate' | 'depositAmount' | 'startDate' | 'endDate' | 'isActive'> & {
  customer: Pick<Lease['customer'], 'firstName' | 'lastName' | 'email' | 'phone'>;
  unit: Pick<Lease['unit'], 'unitNumber' | 'size' | 'building'>;
};

export interface LeaseDocumentFacts {
  lease: AgreementLease;
  /** The unit's facility; null for a unit that belongs to none (no gate hours: 24-hour access). */
  facility: FacilityParticulars | null;
  /** The billing settings that apply to the lease's facility. */
  billing: BillingSettings;
  /** The owner's terms that apply at the facility (the lease template), printed after the generated ones. */
  additionalTerms: readonly string[];
  /** Absent: none. */
  addenda?: LeaseAddenda;
}

const NOT_GIVEN = '—';
const TERMINATION_NOTICE_DAYS = 30;

function formatGeneratedAt(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    hour12: true,
    timeZone,
    timeZoneName: 'short',
  }).format(at);
}

/** '10x15 (150 sq ft)': a unit size is its width by its length in feet. */
function describeSize(size: string): string {
  const [width, length] = size.split('x').map(Number);
  return `${size} (${width! * length!} sq ft)`;
}

/** '1st', '2nd', '3rd', '11th', '21st'. */
export function ordinalDay(day: number): string {
  const tens = day % 100;
  if (tens >= 11 && tens <= 13) return `${day}th`;
  return `${day}${({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[day % 10] ?? 'th'}`;
}

function dueDayTerm(settings: BillingSettings, startDate: string): string {
  if (settings.billingDay === 'first') return 'Rent is due on the 1st of each month.';
  const day = Number(startDate.slice(8, 10));
  // Anniversary billing: the start day, or the month's last day when the month is shorter.
  const shorter = day > 28 ? ', or the last day of a shorter month' : '';
  return `Rent is due on the ${ordinalDay(day)} of each month (the day this lease started${shorter}).`;
}

function lateFeeWords(rule: LateFeeRule): string {
  if (rule.kind === 'fixed') return formatDollars(rule.amount);
  return `${rule.percent}% of the month's rent (at least ${formatDollars(rule.minimum)})`;
}

function lateFeeTerm(settings: BillingSettings): string {
  // The fee is charged graceDays after the due date, and never before the day after it (lateFeeDay).
  const days = Math.max(settings.graceDays, 1);
  const onDay = settings.billingDay === 'first' && days < 28 ? ` (on the ${ordinalDay(1 + days)} of the month)` : '';
  return `A late fee of ${lateFeeWords(settings.lateFee)} is charged when rent is still unpaid ${days} day${days === 1 ? '' : 's'} after its due date${onDay}.`;
}

/**
 * The six generated terms, then the owner's own, numbered on; the deposit and the admin fee are
 * rows of the Lease Terms section.
 */
function termsAndConditions({ billing: settings, lease, facility, additionalTerms }: LeaseDocumentFacts): string[] {
  return [
    dueDayTerm(settings, lease.startDate),
    lateFeeTerm(settings),
    `Either party may end this lease with ${TERMINATION_NOTICE_DAYS} days' written notice.`,
    `The tenant has access to the unit ${accessHoursWords(facility?.accessHours)}.`,
    'The tenant must not store hazardous, flammable, perishable or illegal goods in the unit.',
    'The tenant insures the stored goods; the facility is not liable for their loss or damage.',
    ...additionalTerms,
  ];
}

/** The addenda as sections of the agreement, so that the signature's hash covers them. */
function addendaSections({ protection, promotion }: LeaseAddenda): SignedLeaseDocument['sections'] {
  const sections: SignedLeaseDocument['sections'] = [];
  if (protection) {
    sections.push({
      title: 'Protection Plan Addendum',
      rows: [
        { label: 'Plan', value: protection.name },
        { label: 'Coverage', value: `Up to ${formatDollars(protection.coverageAmount)} for the stored goods` },
        { label: 'Monthly Premium', value: `${formatDollars(protection.monthlyPremium)}, billed with the rent each period` },
        { label: 'Effective', value: formatCalendarDate(protection.effectiveDate) },
      ],
    });
  }
  if (promotion) {
    sections.push({
      title: 'Promotion Addendum',
      rows: [
        { label: 'Promotion', value: promotion.name },
        { label: 'Terms', value: `${promotionTermsWords(promotion.terms)}, as a discount on the rent of each invoice of those months` },
      ],
    });
  }
  return sections;
}

/** The agreement without the time it was written: the same for the same lease and terms, so its hash is too. */
export function leaseDocumentBody(facts: LeaseDocumentFacts): SignedLeaseDocument {
  const { lease, facility, billing, addenda = NO_ADDENDA } = facts;
  const { customer, unit } = lease;
  const tenantName = `${customer.firstName} ${customer.lastName}`;
  return {
    leaseId: lease.id,
    title: 'Storage Unit Lease Agreement',
    sections: [
      {
        title: 'Tenant Information',
        rows: [
          { label: 'Name', value: tenantName },
          { label: 'Email', value: customer.email },
          { label: 'Phone', value: customer.phone ?? NOT_GIVEN },
        ],
      },
      {
        title: 'Unit Information',
        rows: [
          { label: 'Unit Number', value: unit.unitNumber },
          { label: 'Size', value: describeSize(unit.size) },
          { label: 'Building', value: unit.building },
          ...(facility ? [{ label: 'Facility', value: `${facility.name}, ${facility.address}` }] : []),
        ],
      },
      {
        title: 'Lease Terms',
        rows: [
          { label: 'Monthly Rent', value: formatDollars(lease.monthlyRate) },
          { label: 'Security Deposit', value: lease.depositAmount === null ? NOT_GIVEN : formatDollars(lease.depositAmount) },
          { label: 'Admin Fee', value: billing.adminFee === '0.00' ? 'None' : `${formatDollars(billing.adminFee)}, once, on the move-in invoice` },
          { label: 'Start Date', value: formatCalendarDate(lease.startDate) },
          { label: 'End Date', value: lease.endDate === null ? 'Month-to-month' : formatCalendarDate(lease.endDate) },
          { label: 'Status', value: lease.isActive ? 'Active' : 'Inactive' },
        ],
      },
      ...addendaSections(addenda),
    ],
    termsAndConditions: termsAndConditions(facts),
    signatures: [
      { party: 'Tenant', name: tenantName },
      { party: 'Facility Manager', name: facility?.managerName ?? '' },
    ],
  };
}

export function leaseDocument(facts: LeaseDocumentFacts, generatedAt: Date, timeZone: string): LeaseDocument {
  return { ...leaseDocumentBody(facts), generatedAt: generatedAt.toISOString(), generatedAtText: formatGeneratedAt(generatedAt, timeZone) };
}

const LABEL_WIDTH = 130;

/** The agreement's pages; `signed`: the name and date on the tenant's line. */
function drawAgreement(pdf: PDFKit.PDFDocument, left: number, width: number, document: SignedLeaseDocument, signed: { name: string; date: string } | null) {
  pdfText(pdf, document.title, { align: 'center', bold: true, size: 20, color: INK });
  pdf.moveDown(1);

  const heading = (title: string) => pdfHeading(pdf, title, left, width);

  for (const section of document.sections) {
    heading(section.title);
    for (const row of section.rows) {
      const y = pdf.y;
      pdfText(pdf, row.label, left, y, { width: LABEL_WIDTH, bold: true, size: 10, color: MUTED });
      const labelBottom = pdf.y;
      pdfText(pdf, row.value, left + LABEL_WIDTH, y, { width: width - LABEL_WIDTH, size: 10, color: INK });
      pdf.y = Math.max(pdf.y, labelBottom) + 3;
    }
  }

  heading('Terms and Conditions');
  document.termsAndConditions.forEach((term, index) => {
    pdfText(pdf, `${index + 1}. ${term}`, left, pdf.y, { width, size: 10, color: INK });
    pdf.moveDown(0.3);
  });

  heading('Signatures');
  pdf.moveDown(2);
  const columnWidth = (width - 36) / document.signatures.length;
  const lineY = pdf.y;
  document.signatures.forEach((signature, index) => {
    const x = left + index * (columnWidth + 36);
    pdf
      .moveTo(x, lineY)
      .lineTo(x + columnWidth, lineY)
      .lineWidth(0.75)
      .strokeColor(INK)
      .stroke();
    const tenantSigned = index === 0 && signed;
    if (tenantSigned) pdfText(pdf, `Signed electronically by ${signed.name}`, x, lineY - 14, { width: columnWidth, size: 9, color: INK });
    pdfText(pdf, signature.party, x, lineY + 6, { width: columnWidth, bold: true, size: 10, color: INK });
    pdfText(pdf, signature.name || ' ', x, pdf.y, { width: columnWidth, size: 10, color: INK });
    pdfText(pdf, tenantSigned ? `Date: ${signed.date}` : 'Date: ____________________', x, pdf.y + 14, { width: columnWidth, size: 10, color: MUTED });
  });
  pdf.moveDown(3);
}

/** The line under the agreement: on its last page, at the bottom margin at the lowest, so it never takes a page of its own. */
function footer(pdf: PDFKit.PDFDocument, left: number, width: number, text: string) {
  const lastLine = pdf.page.height - pdf.page.margins.bottom - 2 * pdf.currentLineHeight(true);
  pdfText(pdf, text, left, Math.min(pdf.y, lastLine), { width, align: 'center', size: 8, color: MUTED });
}

/** The document as a PDF (US Letter), streamed as pdfkit writes it. */
export async function leaseDocumentPdf(document: LeaseDocument): Promise<PDFKit.PDFDocument> {
  const { pdf, left, width } = await newPdf({ Title: `${document.title} ${document.leaseId}`, Subject: document.title });
  drawAgreement(pdf, left, width, document, null);
  footer(pdf, left, width, `Lease ID: ${document.leaseId}   ·   Generated: ${document.generatedAtText}`);
  pdf.end();
  return pdf;
}

export const channelWords: Record<SignatureChannel, string> = { desk: 'At the desk', online: 'Online (renter portal)' };

/** When it was signed, in the facility's zone: 'Mar 1, 2026, 9:05:12 AM PST'. */
export function formatSignedAt(at: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    second: '2-digit',
    hour12: true,
    timeZone,
    timeZoneName: 'short',
  }).format(new Date(at));
}

const MARK_BOX = { width: 300, height: 100 };

/** The numbers of an SVG path as x, y pairs: its bounds, to fit the mark in its box. */
function pathBounds(path: string): { minX: number; minY: number; maxX: number; maxY: number } | null {
  const numbers = (path.match(/-?\d*\.?\d+(?:e[-+]?\d+)?/gi) ?? []).map(Number).filter(Number.isFinite);
  if (numbers.length < 2) return null;
  const xs = numbers.filter((_, i) => i % 2 === 0);
  const ys = numbers.filter((_, i) => i % 2 === 1);
  return { minX: Math.min(...xs), minY: Math.min(...ys), maxX: Math.max(...xs), maxY: Math.max(...ys) };
}

/** Draws the signer's mark in its box: a PNG as an image, an SVG path scaled to fit. False: it could not be drawn. */
function drawMark(pdf: PDFKit.PDFDocument, mark: string, x: number, y: number): boolean {
  pdf.rect(x, y, MARK_BOX.width, MARK_BOX.height).lineWidth(0.5).strokeColor(RULE).stroke();
  try {
    if (mark.startsWith('data:image/png;base64,')) {
      pdf.image(Buffer.from(mark.slice('data:image/png;base64,'.length), 'base64'), x + 4, y + 4, {
        fit: [MARK_BOX.width - 8, MARK_BOX.height - 8],
        align: 'center',
        valign: 'center',
      });
      return true;
    }
    const bounds = pathBounds(mark);
    if (!bounds) return false;
    const spanX = Math.max(bounds.maxX - bounds.minX, 1);
    const spanY = Math.max(bounds.maxY - bounds.minY, 1);
    const scale = Math.min((MARK_BOX.width - 16) / spanX, (MARK_BOX.height - 16) / spanY);
    pdf.save();
    pdf.translate(x + 8 - bounds.minX * scale, y + 8 - bounds.minY * scale).scale(scale);
    pdf
      .path(mark)
      .lineWidth(1.5 / scale)
      .lineCap('round')
      .lineJoin('round')
      .strokeColor(INK)
      .stroke();
    pdf.restore();
    return true;
  } catch {
    return false;
  }
}

/** The agreement as signed, then the certificate page with the signature's evidence. */
export async function signedLeasePdf(signature: SignatureRecord, timeZone: string): Promise<PDFKit.PDFDocument> {
  const { document } = signature;
  const { pdf, left, width } = await newPdf({ Title: `${document.title} ${document.leaseId} (signed)`, Subject: document.title });
  const signedAt = formatSignedAt(signature.signedAt, timeZone);
  drawAgreement(pdf, left, width, document, { name: signature.signerName, date: signedAt });
  footer(pdf, left, width, `Lease ID: ${document.leaseId}   ·   Document SHA-256: ${signature.documentSha256}`);

  pdf.addPage();
  pdfText(pdf, 'Certificate of Signature', { align: 'center', bold: true, size: 20, color: INK });
  pdf.moveDown(0.5);
  pdfText(pdf, `${document.title}, lease ${document.leaseId}`, { align: 'center', size: 10, color: MUTED });
  pdf.moveDown(1);
  pdfHeading(pdf, 'Signature', left, width);
  const rows: [string, string][] = [
    ['Signer', signature.signerName],
    ['Signed at', signedAt],
    ['IP address', signature.ipAddress],
    ['User agent', signature.userAgent],
    ['Channel', channelWords[signature.channel]],
    ['Document SHA-256', signature.documentSha256],
    ['Event ID', signature.eventId],
  ];
  for (const [label, value] of rows) {
    const y = pdf.y;
    pdfText(pdf, label, left, y, { width: LABEL_WIDTH, bold: true, size: 10, color: MUTED });
    const labelBottom = pdf.y;
    pdfText(pdf, value, left + LABEL_WIDTH, y, { width: width - LABEL_WIDTH, size: label === 'Document SHA-256' ? 8.5 : 10, color: INK });
    pdf.y = Math.max(pdf.y, labelBottom) + 3;
  }
  pdfHeading(pdf, 'Mark drawn by the signer', left, width);
  const markY = pdf.y + 4;
  const drawn = drawMark(pdf, signature.mark, left, markY);
  pdf.y = markY + MARK_BOX.height + 10;
  if (!drawn) pdfText(pdf, 'The mark could not be drawn.', left, pdf.y, { width, size: 9, color: MUTED });
  pdf.moveDown(1);
  pdfText(
    pdf,
    'The SHA-256 above is of the agreement’s text as the platform rendered it when it was signed (its sections, terms and parties, in order). The signature is recorded in the lease’s history under the event ID above.',
    left,
    pdf.y,
    { width, size: 9, color: MUTED },
  );
  pdf.end();
  return pdf;
}

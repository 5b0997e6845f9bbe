import type { Facility } from '@storage/contracts/facilities';
import type { Lease, LeaseDocument } from '@storage/contracts/leases';
import { formatDollars } from '@storage/contracts/money';
import { formatCalendarDate, INK, MUTED, newPdf, pdfHeading, pdfText } from '../documents/pdf.ts';

// The lease agreement, written out once (`leaseDocument`) for the screen and for the PDF.

export interface LeaseDocumentFacts {
  lease: Lease;
  /** The unit's facility; null for a unit that belongs to none. */
  facility: Pick<Facility, 'name' | 'address' | 'managerName'> | null;
  /** The late fee in Settings. */
  lateFee: string;
}

const NOT_GIVEN = '—';
const RENT_DUE_DAY = '1st';
const LATE_AFTER_DAY = '10th';
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

function termsAndConditions(lateFee: string): string[] {
  return [
    `Rent is due on the ${RENT_DUE_DAY} of each month.`,
    `A late fee of ${formatDollars(lateFee)} is charged when rent is still unpaid after the ${LATE_AFTER_DAY} of the month.`,
    `Either party may end this lease with ${TERMINATION_NOTICE_DAYS} days' written notice.`,
    'The tenant has access to the unit 24/7.',
    'The tenant must not store hazardous, flammable, perishable or illegal goods in the unit.',
    'The tenant insures the stored goods; the facility is not liable for their loss or damage.',
  ];
}

export function leaseDocument({ lease, facility, lateFee }: LeaseDocumentFacts, generatedAt: Date, timeZone: string): LeaseDocument {
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
          { label: 'Start Date', value: formatCalendarDate(lease.startDate) },
          { label: 'End Date', value: lease.endDate === null ? 'Month-to-month' : formatCalendarDate(lease.endDate) },
          { label: 'Status', value: lease.isActive ? 'Active' : 'Inactive' },
        ],
      },
    ],
    termsAndConditions: termsAndConditions(lateFee),
    signatures: [
      { party: 'Tenant', name: tenantName },
      { party: 'Facility Manager', name: facility?.managerName ?? '' },
    ],
    generatedAt: generatedAt.toISOString(),
    generatedAtText: formatGeneratedAt(generatedAt, timeZone),
  };
}

const LABEL_WIDTH = 130;

/** The document as a PDF (US Letter), streamed as pdfkit writes it. */
export async function leaseDocumentPdf(document: LeaseDocument): Promise<PDFKit.PDFDocument> {
  const { pdf, left, width } = await newPdf({ Title: `${document.title} ${document.leaseId}`, Subject: document.title });

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
    pdfText(pdf, signature.party, x, lineY + 6, { width: columnWidth, bold: true, size: 10, color: INK });
    pdfText(pdf, signature.name || ' ', x, pdf.y, { width: columnWidth, size: 10, color: INK });
    pdfText(pdf, 'Date: ____________________', x, pdf.y + 14, { width: columnWidth, size: 10, color: MUTED });
  });

  pdf.moveDown(3);
  pdfText(pdf, `Lease ID: ${document.leaseId}   ·   Generated: ${document.generatedAtText}`, left, pdf.y, {
    width,
    align: 'center',
    size: 8,
    color: MUTED,
  });
  pdf.end();
  return pdf;
}

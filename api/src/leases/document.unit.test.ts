import type { Lease } from '@storage/contracts/leases';
import { describe, expect, it } from 'vitest';
import { leaseDocument, leaseDocumentPdf } from './document.ts';

const lease: Lease = {
  id: '9e1f3b7c-2d4a-4f6b-8a0c-1e2d3c4b5a03',
  customer: { id: '3a7b9c1d-5e6f-4a8b-9c0d-1e2f3a4b5c04', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: null },
  unit: { id: '5d2c9a51-7a0e-4c43-8d3b-7a5a1f0e4b02', unitNumber: 'RS-A101', size: '10x15', building: 'A', facilityId: null },
  isActive: true,
  monthlyRate: '155.00',
  depositAmount: null,
  startDate: '2025-03-01',
  endDate: null,
  moveOutDate: null,
  createdAt: '2025-03-01T10:00:00.000Z',
  invoiceSummary: { paid: 0, overdue: 0, total: 0 },
};
const generatedAt = new Date('2025-06-01T22:05:00Z');
const facility = { name: 'Riverside Self Storage', address: '1200 River Rd, Portland, OR', managerName: 'Maria Gonzalez' };

const rowsOf = (document: ReturnType<typeof leaseDocument>, title: string) =>
  Object.fromEntries(document.sections.find((s) => s.title === title)!.rows.map((r) => [r.label, r.value]));

describe('lease document', () => {
  it('has the tenant, the unit and the lease terms, with what is not on record shown as —', () => {
    const document = leaseDocument({ lease, facility: null, lateFee: '25.00' }, generatedAt, 'UTC');
    expect(document.sections.map((s) => s.title)).toEqual(['Tenant Information', 'Unit Information', 'Lease Terms']);
    expect(rowsOf(document, 'Tenant Information')).toEqual({ Name: 'Ada Lovelace', Email: 'ada@example.com', Phone: '—' });
    expect(rowsOf(document, 'Unit Information')).toEqual({ 'Unit Number': 'RS-A101', Size: '10x15 (150 sq ft)', Building: 'A' });
    expect(rowsOf(document, 'Lease Terms')).toEqual({
      'Monthly Rent': '$155.00',
      'Security Deposit': '—',
      'Start Date': 'Mar 1, 2025',
      'End Date': 'Month-to-month',
      Status: 'Active',
    });
  });

  it('has the six terms and conditions, with the late fee from Settings', () => {
    const terms = leaseDocument({ lease, facility: null, lateFee: '30.50' }, generatedAt, 'UTC').termsAndConditions;
    expect(terms).toHaveLength(6);
    expect(terms[0]).toBe('Rent is due on the 1st of each month.');
    expect(terms[1]).toContain('late fee of $30.50');
    expect(terms[1]).toContain('after the 10th of the month');
    expect(terms[2]).toContain('30 days');
    expect(terms[3]).toContain('24/7');
  });

  it('names the facility and its manager, and signs off with the lease id and the time in the reader’s zone', () => {
    const document = leaseDocument(
      { lease: { ...lease, isActive: false, endDate: '2025-05-31' }, facility, lateFee: '25.00' },
      generatedAt,
      'America/Los_Angeles',
    );
    expect(rowsOf(document, 'Unit Information').Facility).toBe('Riverside Self Storage, 1200 River Rd, Portland, OR');
    expect(rowsOf(document, 'Lease Terms')['End Date']).toBe('May 31, 2025');
    expect(document.signatures).toEqual([
      { party: 'Tenant', name: 'Ada Lovelace' },
      { party: 'Facility Manager', name: 'Maria Gonzalez' },
    ]);
    expect(document.leaseId).toBe(lease.id);
    expect(document.generatedAt).toBe('2025-06-01T22:05:00.000Z');
    expect(document.generatedAtText).toBe('Jun 1, 2025, 3:05 PM PDT');
  });

  it('prints as a PDF', async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of await leaseDocumentPdf(leaseDocument({ lease, facility, lateFee: '25.00' }, generatedAt, 'UTC'))) chunks.push(chunk as Buffer);
    const pdf = Buffer.concat(chunks);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.subarray(-6).toString()).toContain('%%EOF');
  });
});

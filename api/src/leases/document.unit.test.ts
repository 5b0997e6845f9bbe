import { type BillingSettings, defaultBillingSettings } from '@storage/contracts/billing';
import { GENERATED_LEASE_TERMS } from '@storage/contracts/lease-terms';
import type { Lease } from '@storage/contracts/leases';
import { leaseDocumentSha256 } from '@storage/domain/leases/signature';
import { describe, expect, it } from 'vitest';
import { leaseDocument, leaseDocumentBody, leaseDocumentPdf } from './document.ts';

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
const facility = { name: 'Riverside Self Storage', address: '1200 River Rd, Portland, OR', managerName: 'Maria Gonzalez', accessHours: null };

const rowsOf = (document: ReturnType<typeof leaseDocument>, title: string) =>
  Object.fromEntries(document.sections.find((s) => s.title === title)!.rows.map((r) => [r.label, r.value]));

describe('lease document', () => {
  it('has the tenant, the unit and the lease terms, with what is not on record shown as —', () => {
    const document = leaseDocument({ lease, facility: null, billing: defaultBillingSettings, additionalTerms: [] }, generatedAt, 'UTC');
    expect(document.sections.map((s) => s.title)).toEqual(['Tenant Information', 'Unit Information', 'Lease Terms']);
    expect(rowsOf(document, 'Tenant Information')).toEqual({ Name: 'Ada Lovelace', Email: 'ada@example.com', Phone: '—' });
    expect(rowsOf(document, 'Unit Information')).toEqual({ 'Unit Number': 'RS-A101', Size: '10x15 (150 sq ft)', Building: 'A' });
    expect(rowsOf(document, 'Lease Terms')).toEqual({
      'Monthly Rent': '$155.00',
      'Security Deposit': '—',
      'Admin Fee': 'None',
      'Start Date': 'Mar 1, 2025',
      'End Date': 'Month-to-month',
      Status: 'Active',
    });
  });

  it('has the six terms and conditions of the default settings: due on the 1st, the late fee 10 days after', () => {
    const terms = leaseDocument({ lease, facility: null, billing: defaultBillingSettings, additionalTerms: [] }, generatedAt, 'UTC').termsAndConditions;
    // The settings screen says how many there are before the owner's own.
    expect(terms).toHaveLength(GENERATED_LEASE_TERMS);
    expect(terms[0]).toBe('Rent is due on the 1st of each month.');
    expect(terms[1]).toBe('A late fee of $25.00 is charged when rent is still unpaid 10 days after its due date (on the 11th of the month).');
    expect(terms[2]).toContain('30 days');
    expect(terms[3]).toBe('The tenant has access to the unit 24/7.');
  });

  it('numbers the owner’s additional terms on after the six generated ones, and a changed term is a changed document', () => {
    const additionalTerms = ['The tenant must keep the unit locked with a lock of their own when not present.', 'No vehicles may be stored.'];
    const facts = { lease, facility, billing: defaultBillingSettings, additionalTerms };
    const terms = leaseDocument(facts, generatedAt, 'UTC').termsAndConditions;
    expect(terms).toHaveLength(8);
    expect(terms.slice(6)).toEqual(additionalTerms);
    const plain = leaseDocumentBody({ ...facts, additionalTerms: [] });
    expect(leaseDocumentSha256(plain)).not.toBe(leaseDocumentSha256(leaseDocumentBody(facts)));
  });

  it('states the facility’s gate hours as the tenant’s access, and 24/7 for a facility open 24 hours', () => {
    const withHours = { ...facility, accessHours: { opensAt: '06:00', closesAt: '22:00' } };
    const terms = leaseDocument({ lease, facility: withHours, billing: defaultBillingSettings, additionalTerms: [] }, generatedAt, 'UTC').termsAndConditions;
    expect(terms[3]).toBe('The tenant has access to the unit 6:00 AM – 10:00 PM every day.');
    const allHours = leaseDocument({ lease, facility, billing: defaultBillingSettings, additionalTerms: [] }, generatedAt, 'UTC').termsAndConditions;
    expect(allHours[3]).toBe('The tenant has access to the unit 24/7.');
  });

  it('writes the terms from the facility’s billing settings: anniversary day, grace days, a percent late fee, the admin fee and the deposit', () => {
    const billing: BillingSettings = {
      ...defaultBillingSettings,
      billingDay: 'anniversary',
      graceDays: 5,
      lateFee: { kind: 'percent', percent: '10', minimum: '15.00' },
      adminFee: '20.00',
    };
    const document = leaseDocument(
      { lease: { ...lease, startDate: '2025-03-17', depositAmount: '50.00' }, facility: null, billing, additionalTerms: [] },
      generatedAt,
      'UTC',
    );
    expect(document.termsAndConditions.slice(0, 2)).toEqual([
      'Rent is due on the 17th of each month (the day this lease started).',
      "A late fee of 10% of the month's rent (at least $15.00) is charged when rent is still unpaid 5 days after its due date.",
    ]);
    expect(rowsOf(document, 'Lease Terms')).toMatchObject({ 'Admin Fee': '$20.00, once, on the move-in invoice', 'Security Deposit': '$50.00' });
  });

  it('says a start on the 31st falls due on the last day of a shorter month', () => {
    const billing: BillingSettings = { ...defaultBillingSettings, billingDay: 'anniversary', graceDays: 0 };
    const [due, late] = leaseDocument(
      { lease: { ...lease, startDate: '2025-01-31' }, facility: null, billing, additionalTerms: [] },
      generatedAt,
      'UTC',
    ).termsAndConditions;
    expect(due).toBe('Rent is due on the 31st of each month (the day this lease started, or the last day of a shorter month).');
    expect(late).toContain('unpaid 1 day after its due date.');
  });

  it('carries the protection plan and the promotion as addenda, so that a changed plan is a changed document', () => {
    const plan = {
      planId: '1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d05',
      name: 'Standard',
      coverageAmount: '5000.00',
      monthlyPremium: '18.00',
      effectiveDate: '2025-03-01',
    };
    const promotion = {
      promotionId: '2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e06',
      name: 'Web special',
      terms: { kind: 'percent_off' as const, percent: '50', months: 2 },
    };
    const facts = { lease, facility, billing: defaultBillingSettings, additionalTerms: [], addenda: { protection: plan, promotion } };
    const document = leaseDocumentBody(facts);
    expect(document.sections.map((s) => s.title).slice(3)).toEqual(['Protection Plan Addendum', 'Promotion Addendum']);
    expect(Object.fromEntries(document.sections[3]!.rows.map((r) => [r.label, r.value]))).toEqual({
      Plan: 'Standard',
      Coverage: 'Up to $5,000.00 for the stored goods',
      'Monthly Premium': '$18.00, billed with the rent each period',
      Effective: 'Mar 1, 2025',
    });
    expect(document.sections[4]!.rows[1]!.value).toBe('50% off the first 2 months, as a discount on the rent of each invoice of those months');
    const richer = leaseDocumentBody({ ...facts, addenda: { protection: { ...plan, monthlyPremium: '24.00' }, promotion } });
    expect(leaseDocumentSha256(richer)).not.toBe(leaseDocumentSha256(document));
    expect(leaseDocumentBody({ lease, facility, billing: defaultBillingSettings, additionalTerms: [] }).sections).toHaveLength(3);
  });

  it('is the same body for the same lease and terms, whenever it is generated', () => {
    const facts = { lease, facility, billing: defaultBillingSettings, additionalTerms: [] };
    const { generatedAt: _a, generatedAtText: _b, ...first } = leaseDocument(facts, generatedAt, 'UTC');
    const { generatedAt: _c, generatedAtText: _d, ...later } = leaseDocument(facts, new Date('2026-01-01T00:00:00Z'), 'Asia/Tokyo');
    expect(later).toEqual(first);
    expect(leaseDocumentBody(facts)).toEqual(first);
  });

  it('names the facility and its manager, and signs off with the lease id and the time in the reader’s zone', () => {
    const document = leaseDocument(
      { lease: { ...lease, isActive: false, endDate: '2025-05-31' }, facility, billing: defaultBillingSettings, additionalTerms: [] },
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
    for await (const chunk of await leaseDocumentPdf(
      leaseDocument({ lease, facility, billing: defaultBillingSettings, additionalTerms: [] }, generatedAt, 'UTC'),
    ))
      chunks.push(chunk as Buffer);
    const pdf = Buffer.concat(chunks);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.subarray(-6).toString()).toContain('%%EOF');
  });
});

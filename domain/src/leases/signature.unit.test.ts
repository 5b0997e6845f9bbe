import { createHash } from 'node:crypto';
import type { DomainEvent } from '@storage/contracts/events';
import { LEASE_CHANGED_SINCE_OPENED, type SignedLeaseDocument } from '@storage/contracts/lease-signatures';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError } from '../commands/errors.ts';
import { decideSignLease, evolveSignatures, initialSignatureState, leaseDocumentSha256, leaseDocumentText, type SignLease } from './signature.ts';

const leaseId = '9e1f3b7c-2d4a-4f6b-8a0c-1e2d3c4b5a03';
const customerId = '3a7b9c1d-5e6f-4a8b-9c0d-1e2f3a4b5c04';
const unitId = '5d2c9a51-7a0e-4c43-8d3b-7a5a1f0e4b02';

const document: SignedLeaseDocument = {
  leaseId,
  title: 'Storage Unit Lease Agreement',
  sections: [{ title: 'Lease Terms', rows: [{ label: 'Monthly Rent', value: '$120.00' }] }],
  termsAndConditions: ['Rent is due on the 1st of each month.'],
  signatures: [{ party: 'Tenant', name: 'Ada Lovelace' }],
};
const raised: SignedLeaseDocument = { ...document, sections: [{ title: 'Lease Terms', rows: [{ label: 'Monthly Rent', value: '$130.00' }] }] };

const started: DomainEvent = {
  type: 'lease_started',
  data: { leaseId, customerId, unitId, facilityId: null, startDate: '2026-02-10', monthlyRate: '120.00', depositAmount: null },
};
const ended: DomainEvent = { type: 'lease_ended', data: { leaseId, customerId, unitId, endDate: '2026-06-30' } };

const sign = (overrides: Partial<SignLease> = {}): SignLease => ({
  leaseId,
  signerName: 'Ada Lovelace',
  mark: 'M 1 1 L 5 5',
  document,
  shownSha256: undefined,
  signedAt: '2026-03-01T15:00:00.000Z',
  ipAddress: '203.0.113.7',
  userAgent: 'Tablet',
  channel: 'desk',
  ...overrides,
});
const stateOf = (...events: DomainEvent[]) => events.reduce(evolveSignatures, initialSignatureState);
const given = (...events: DomainEvent[]) => ({ when: (command: SignLease) => decideSignLease(command, stateOf(...events)) });
const signedEvent = (command: SignLease = sign()) => given(started).when(command)[0]!;

describe('the canonical text of the agreement', () => {
  it('is its sections, terms and parties, and the hash is the SHA-256 of exactly that text', () => {
    const text = leaseDocumentText(document);
    expect(text).toContain('== Lease Terms ==\nMonthly Rent: $120.00');
    expect(text).toContain('1. Rent is due on the 1st of each month.');
    expect(text).toContain('Tenant: Ada Lovelace');
    expect(leaseDocumentSha256(document)).toBe(createHash('sha256').update(text).digest('hex'));
  });

  it('hashes the same document alike and any changed value differently', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (value) => {
        const changed = { ...document, sections: [{ title: 'Lease Terms', rows: [{ label: 'Monthly Rent', value }] }] };
        expect(leaseDocumentSha256(structuredClone(changed))).toBe(leaseDocumentSha256(changed));
        expect(leaseDocumentSha256(changed) === leaseDocumentSha256(document)).toBe(value === '$120.00');
      }),
    );
  });
});

describe('signing the lease', () => {
  it('records the signature with the evidence and the hash the domain computed', () => {
    expect(given(started).when(sign())).toEqual([
      {
        type: 'lease_signed',
        data: {
          leaseId,
          customerId,
          signerName: 'Ada Lovelace',
          mark: 'M 1 1 L 5 5',
          signedAt: '2026-03-01T15:00:00.000Z',
          ipAddress: '203.0.113.7',
          userAgent: 'Tablet',
          documentSha256: leaseDocumentSha256(document),
          channel: 'desk',
          document,
        },
      },
    ]);
  });

  it('records nothing for a repeat of the same document, whoever signs it again', () => {
    expect(given(started, signedEvent()).when(sign({ signerName: 'A. Lovelace', channel: 'online', signedAt: '2026-03-02T09:00:00.000Z' }))).toEqual([]);
  });

  it('records a new signature when the document changed since the last one', () => {
    const events = given(started, signedEvent()).when(sign({ document: raised }));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'lease_signed', data: { documentSha256: leaseDocumentSha256(raised) } });
    expect(leaseDocumentSha256(raised)).not.toBe(leaseDocumentSha256(document));
  });

  it('signs when the hash the signer was shown is the document now', () => {
    expect(given(started).when(sign({ shownSha256: leaseDocumentSha256(document) }))).toHaveLength(1);
  });

  it('refuses when the signer was shown another document', () => {
    const shownBefore = () => given(started).when(sign({ shownSha256: leaseDocumentSha256(raised) }));
    expect(shownBefore).toThrow(ConflictError);
    expect(shownBefore).toThrow(LEASE_CHANGED_SINCE_OPENED);
  });

  it('refuses a lease that does not exist', () => {
    expect(() => given().when(sign())).toThrow(NotFoundError);
  });

  it('refuses a lease that has ended', () => {
    expect(() => given(started, ended).when(sign())).toThrow(ConflictError);
    expect(() => given(started, ended).when(sign())).toThrow(/ended/);
  });

  it('answers the signature already recorded for an ended lease asked again with the same document', () => {
    expect(given(started, signedEvent(), ended).when(sign())).toEqual([]);
  });
});

import { streams } from '@storage/contracts/events';
import { LeaseSignature, type LeaseToSign, type SignatureChannel, type SignLeaseRequest } from '@storage/contracts/lease-signatures';
import { facilityBilling } from '@storage/domain/billing/settings';
import { NotFoundError } from '@storage/domain/commands/errors';
import { type CommandContext, loadAggregate } from '@storage/domain/commands/handle';
import { customerAggregate } from '@storage/domain/customers/customer';
import { leaseAggregate } from '@storage/domain/leases/lease';
import {
  currentLeaseAddenda,
  latestSignature,
  leaseDocumentSha256,
  leaseDocumentText,
  leaseSignatureState,
  newestSignatureRecord,
  type SignatureRecord,
  signLease,
} from '@storage/domain/leases/signature';
import { unitAggregate } from '@storage/domain/units/unit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { attachment } from '../http/csv.ts';
import { ValidationError } from '../http/validate.ts';
import { type AgreementLease, type LeaseDocumentFacts, leaseDocumentBody, signedLeasePdf } from './document.ts';
import { getLease } from './queries.ts';

// Signing the lease agreement, at the desk (staff routes) and online (portal routes): the document
// is rendered here at the moment of signing, from the streams of the lease, its renter, its unit
// and its facility (particulars and billing settings), and the domain hashes it; the request's
// address and browser are the evidence recorded with it.

/**
 * What an agreement says of its renter, unit and facility, from their streams (a command decides on
 * its streams, never on the read model): the renter's and the unit's particulars, the unit's
 * facility as its stream holds it, and what applies there (billing settings, zone, lease terms).
 */
export async function agreementParties(deps: Pick<AppDeps, 'store'>, customerId: string, unitId: string) {
  const [{ state: customer }, { state: unit }] = await Promise.all([
    loadAggregate(deps.store, streams.customer(customerId), customerAggregate),
    loadAggregate(deps.store, streams.unit(unitId), unitAggregate),
  ]);
  if (customer.status === 'none') throw new NotFoundError('Customer not found');
  if (unit.status === 'none') throw new NotFoundError('Unit not found');
  const { firstName, lastName, email, phone } = customer.fields;
  const { unitNumber, size, building, facilityId } = unit.fields;
  return { customer: { firstName, lastName, email, phone }, unit: { unitNumber, size, building }, terms: await facilityBilling(deps.store, facilityId) };
}

/** The lease as the agreement names it, its facility's zone, and the agreement rendered from its terms and addenda now, all from the streams. */
export async function currentLeaseAgreement(deps: AppDeps, leaseId: string) {
  const { state } = await loadAggregate(deps.store, streams.lease(leaseId), leaseAggregate);
  if (state.status !== 'active' && state.status !== 'ended') throw new NotFoundError('Lease not found');
  const { customerId, unitId, startDate, monthlyRate, depositAmount } = state.terms;
  const [{ customer, unit, terms }, addenda] = await Promise.all([agreementParties(deps, customerId, unitId), currentLeaseAddenda(deps, leaseId)]);
  const lease: AgreementLease = {
    id: leaseId,
    customer,
    unit,
    monthlyRate,
    depositAmount,
    startDate,
    endDate: state.status === 'ended' ? state.endDate : null,
    isActive: state.status === 'active',
  };
  const facts: LeaseDocumentFacts = { lease, facility: terms.facility, billing: terms.settings, additionalTerms: terms.leaseTerms.additionalTerms, addenda };
  return { lease, facts, timeZone: terms.timeZone, body: leaseDocumentBody(facts) };
}

/** A PNG's first bytes: a data URL that says PNG but holds something else is refused. */
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function checkMark(mark: string) {
  const prefix = 'data:image/png;base64,';
  if (
    mark.startsWith(prefix) &&
    !Buffer.from(mark.slice(prefix.length, prefix.length + 16), 'base64')
      .subarray(0, 8)
      .equals(PNG_SIGNATURE)
  ) {
    throw new ValidationError('mark: must be an SVG path or a PNG data URL', 'mark');
  }
}

export function toLeaseSignature(record: SignatureRecord): LeaseSignature {
  return LeaseSignature.parse({
    leaseId: record.leaseId,
    customerId: record.customerId,
    signerName: record.signerName,
    signedAt: record.signedAt,
    channel: record.channel,
    mark: record.mark,
    ipAddress: record.ipAddress,
    userAgent: record.userAgent,
    documentSha256: record.documentSha256,
    eventId: record.eventId,
  });
}

/** Signs the lease with the document rendered now and the request as evidence; a repeat for the same document answers the first signature. */
export async function signLeaseFor(
  deps: AppDeps,
  ctx: CommandContext,
  request: FastifyRequest,
  leaseId: string,
  body: z.output<typeof SignLeaseRequest>,
  channel: SignatureChannel,
) {
  checkMark(body.mark);
  const { body: document } = await currentLeaseAgreement(deps, leaseId);
  const result = await signLease(ctx, {
    leaseId,
    signerName: body.signerName,
    mark: body.mark,
    document,
    shownSha256: body.documentSha256,
    signedAt: ctx.now.toISOString(),
    ipAddress: request.ip,
    userAgent: String(request.headers['user-agent'] ?? '').slice(0, 500),
    channel,
  });
  if (result.position) await deps.afterAppend(result.position);
  return { recorded: result.events.length > 0, signature: toLeaseSignature(result.signature) };
}

/** The agreement as the signer reads it, its hash to send back, and whether it is signed already. */
export async function leaseToSign(deps: AppDeps, leaseId: string): Promise<LeaseToSign> {
  const [{ body }, state] = await Promise.all([currentLeaseAgreement(deps, leaseId), leaseSignatureState(deps, leaseId)]);
  const documentSha256 = leaseDocumentSha256(body);
  const latest = latestSignature(state);
  return {
    leaseId,
    title: body.title,
    text: leaseDocumentText(body),
    documentSha256,
    signature: latest && { signerName: latest.signerName, signedAt: latest.signedAt, channel: latest.channel },
    signedThisDocument: latest?.documentSha256 === documentSha256,
  };
}

/** The newest signature's PDF: the agreement as signed and its certificate page; 404 when not signed. */
export async function sendSignedPdf(deps: AppDeps, reply: FastifyReply, leaseId: string) {
  const record = await newestSignatureRecord(deps, leaseId);
  if (!record) throw new NotFoundError('This lease has not been signed yet');
  const lease = await getLease(deps.pool, leaseId);
  const { timeZone } = await facilityBilling(deps.store, lease?.unit.facilityId ?? null);
  const name = lease ? `lease-${lease.unit.unitNumber}-${lease.customer.lastName}-signed.pdf` : `lease-${leaseId}-signed.pdf`;
  return reply
    .type('application/pdf')
    .header('content-disposition', attachment(name))
    .send(await signedLeasePdf(record, timeZone));
}

import { createHash } from 'node:crypto';
import type { DomainEvent, EventData } from '@storage/contracts/events';
import { streams } from '@storage/contracts/events';
import { LEASE_CHANGED_SINCE_OPENED, type SignatureChannel, type SignedLeaseDocument } from '@storage/contracts/lease-signatures';
import type { LeasePromotion } from '@storage/contracts/promotions';
import type { LeaseProtection } from '@storage/contracts/protection';
import type { RecordedEvent } from '@storage/eventstore/port';
import { ConflictError, NotFoundError } from '../commands/errors.ts';
import { type CommandContext, type CommandResult, handleCommand, loadAggregate } from '../commands/handle.ts';
import { type LeaseState, leaseAggregate } from './lease.ts';

// Signing the lease agreement: the lease's stream records each signature (lease_signed) with the
// document as signed and its SHA-256. The hash is always computed here, over the document's
// canonical text, never taken from a client: a client may only say which hash it was shown, and
// is refused when the document changed since. A repeat for the same document records nothing; a
// changed document (a new rate, new terms) may be signed again.

/** The addenda signed with the lease: the protection plan in effect (from its day) and the promotion given at move-in. */
export interface LeaseAddenda {
  protection: (LeaseProtection & { effectiveDate: string }) | null;
  promotion: LeasePromotion | null;
}

export const NO_ADDENDA: LeaseAddenda = { protection: null, promotion: null };

/** The lease's addenda as its stream holds them now: a changed or cancelled plan changes the agreement, which may then be signed again. */
export function leaseAddenda(state: LeaseState): LeaseAddenda {
  if (state.status !== 'active' && state.status !== 'ended') return NO_ADDENDA;
  const plan = state.protection.at(-1);
  return {
    protection: plan?.protection ? { ...plan.protection, effectiveDate: plan.effectiveDate } : null,
    promotion: state.promotion,
  };
}

/** The lease's addenda, from its stream. */
export async function currentLeaseAddenda(ctx: Pick<CommandContext, 'store'>, leaseId: string): Promise<LeaseAddenda> {
  return leaseAddenda((await loadAggregate(ctx.store, streams.lease(leaseId), leaseAggregate)).state);
}

/** The agreement as one text, the same for the same lease and terms: what the signature's hash covers. */
export function leaseDocumentText(document: SignedLeaseDocument): string {
  const lines = [document.title, `Lease ID: ${document.leaseId}`];
  for (const section of document.sections) {
    lines.push('', `== ${section.title} ==`, ...section.rows.map((row) => `${row.label}: ${row.value}`));
  }
  lines.push('', '== Terms and Conditions ==', ...document.termsAndConditions.map((term, index) => `${index + 1}. ${term}`));
  lines.push('', '== Signatures ==', ...document.signatures.map((s) => `${s.party}: ${s.name}`));
  return `${lines.join('\n')}\n`;
}

/** The SHA-256 of the document's canonical text, in hex. */
export function leaseDocumentSha256(document: SignedLeaseDocument): string {
  return createHash('sha256').update(leaseDocumentText(document), 'utf8').digest('hex');
}

type Signature = Omit<EventData<'lease_signed'>, 'leaseId' | 'customerId'>;

export type LeaseSignatureState =
  /** No lease (or one that never started). */
  { lease: 'none' } | { lease: 'active' | 'ended'; customerId: string; signatures: readonly Signature[] };

export const initialSignatureState: LeaseSignatureState = { lease: 'none' };

export function evolveSignatures(state: LeaseSignatureState, event: DomainEvent): LeaseSignatureState {
  switch (event.type) {
    case 'lease_started':
      return { lease: 'active', customerId: event.data.customerId, signatures: [] };
    case 'lease_ended':
      return state.lease === 'active' ? { ...state, lease: 'ended' } : state;
    case 'lease_signed': {
      if (state.lease === 'none') return state;
      const { leaseId: _lease, customerId: _customer, ...signature } = event.data;
      return { ...state, signatures: [...state.signatures, signature] };
    }
    default:
      return state;
  }
}

export const leaseSignatureAggregate = { initial: initialSignatureState, evolve: evolveSignatures };

export interface SignLease {
  leaseId: string;
  signerName: string;
  mark: string;
  /** The document as the server renders it now. */
  document: SignedLeaseDocument;
  /** The hash of the document the signer was shown (absent: not said). */
  shownSha256: string | undefined;
  signedAt: string;
  ipAddress: string;
  userAgent: string;
  channel: SignatureChannel;
}

/** The newest signature, or null. */
export function latestSignature(state: LeaseSignatureState): Signature | null {
  return state.lease === 'none' ? null : (state.signatures.at(-1) ?? null);
}

export function decideSignLease(command: SignLease, state: LeaseSignatureState): DomainEvent[] {
  if (state.lease === 'none') throw new NotFoundError('Lease not found');
  const documentSha256 = leaseDocumentSha256(command.document);
  if (command.shownSha256 !== undefined && command.shownSha256 !== documentSha256) throw new ConflictError(LEASE_CHANGED_SINCE_OPENED, 'documentSha256');
  if (latestSignature(state)?.documentSha256 === documentSha256) return [];
  if (state.lease === 'ended') throw new ConflictError('This lease has ended: it can no longer be signed');
  const { leaseId, signerName, mark, signedAt, ipAddress, userAgent, channel, document } = command;
  return [
    {
      type: 'lease_signed',
      data: { leaseId, customerId: state.customerId, signerName, mark, signedAt, ipAddress, userAgent, documentSha256, channel, document },
    },
  ];
}

/** A signature as recorded: the event's data and its id. */
export type SignatureRecord = EventData<'lease_signed'> & { eventId: string };

/** The signatures on a stream as read, oldest first, each with the id of the event that records it. */
export function signatureRecords(recorded: readonly RecordedEvent[]): SignatureRecord[] {
  const out: SignatureRecord[] = [];
  for (const event of recorded) {
    if (event.type !== 'lease_signed') continue;
    out.push({ ...(event.data as EventData<'lease_signed'>), eventId: event.id });
  }
  return out;
}

/**
 * Signs the lease with the document rendered now; a repeat for the same document records nothing
 * and answers the signature already recorded.
 */
export async function signLease(ctx: CommandContext, command: SignLease): Promise<CommandResult<LeaseSignatureState> & { signature: SignatureRecord }> {
  const stream = streams.lease(command.leaseId);
  const result = await handleCommand(ctx, stream, leaseSignatureAggregate, (state) => decideSignLease(command, state));
  const signature = await newestSignatureRecord(ctx, command.leaseId);
  if (!signature) throw new Error('A signed lease has no lease_signed event');
  return { ...result, signature };
}

/** The lease's newest signature with its event id (null: never signed); NotFoundError for no lease. */
export async function newestSignatureRecord(ctx: Pick<CommandContext, 'store'>, leaseId: string): Promise<SignatureRecord | null> {
  const recorded = await ctx.store.readStream(streams.lease(leaseId));
  return signatureRecords(recorded).at(-1) ?? null;
}

/** The lease's signature state, from its stream. */
export async function leaseSignatureState(ctx: Pick<CommandContext, 'store'>, leaseId: string): Promise<LeaseSignatureState> {
  return (await loadAggregate(ctx.store, streams.lease(leaseId), leaseSignatureAggregate)).state;
}

import { z } from 'zod';
import { Id, IsoDateTime, RequiredText } from './fields.ts';

// A renter signs the lease agreement at the desk (on a tablet) or online in the portal: their
// typed name, the mark they drew, and the evidence the server records with it.

export const SignatureChannel = z.enum(['desk', 'online']);
export type SignatureChannel = z.infer<typeof SignatureChannel>;

/** The largest drawn mark the server keeps, in characters (an SVG path or a PNG data URL). */
export const SIGNATURE_MARK_MAX = 64 * 1024;

/** An SVG path's data: moves, lines and curves and their numbers, nothing that could run or load. */
const SVG_PATH = /^[MmLlHhVvCcSsQqTtAaZz0-9.,\s+eE-]+$/;
const PNG_DATA_URL = /^data:image\/png;base64,[A-Za-z0-9+/]+=*$/;

export function isSignatureMark(mark: string): boolean {
  return PNG_DATA_URL.test(mark) || (SVG_PATH.test(mark) && /[Mm]/.test(mark));
}

export const SignatureMark = z
  .string()
  .min(1, 'is required')
  .max(SIGNATURE_MARK_MAX, 'must be at most 64 KB')
  .refine(isSignatureMark, 'must be an SVG path or a PNG data URL');

/** The document's SHA-256, as hex. */
export const DocumentSha256 = z.string().regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 in hex');

export const SignLeaseRequest = z.strictObject({
  /** The signer's full name, typed. */
  signerName: RequiredText(200),
  mark: SignatureMark,
  /** The hash of the document the signer was shown: the server signs only that same document. */
  documentSha256: DocumentSha256.optional(),
});
export type SignLeaseRequest = z.input<typeof SignLeaseRequest>;

export const LEASE_CHANGED_SINCE_OPENED = 'The lease changed since you opened it. Please review it again.';

/** The agreement as signed: what the PDF prints and the hash covers (no generation time). */
export const SignedLeaseDocument = z.object({
  leaseId: Id,
  title: z.string(),
  sections: z.array(z.object({ title: z.string(), rows: z.array(z.object({ label: z.string(), value: z.string() })) })),
  termsAndConditions: z.array(z.string()),
  signatures: z.array(z.object({ party: z.string(), name: z.string() })),
});
export type SignedLeaseDocument = z.infer<typeof SignedLeaseDocument>;

/** A lease's signature as the lists show it. */
export const LeaseSignatureSummary = z.object({ signerName: z.string(), signedAt: IsoDateTime, channel: SignatureChannel });
export type LeaseSignatureSummary = z.infer<typeof LeaseSignatureSummary>;

/** The signature recorded (or recorded before, for the same document), with its evidence. */
export const LeaseSignature = LeaseSignatureSummary.extend({
  leaseId: Id,
  customerId: Id,
  mark: z.string(),
  ipAddress: z.string(),
  userAgent: z.string(),
  documentSha256: DocumentSha256,
  /** The lease_signed event that records it. */
  eventId: Id,
});
export type LeaseSignature = z.infer<typeof LeaseSignature>;

/** What the signer is shown: the agreement's text, section by section, and its hash to send back. */
export const LeaseToSign = z.object({
  leaseId: Id,
  title: z.string(),
  text: z.string(),
  documentSha256: DocumentSha256,
  /** The newest signature (null: not signed). */
  signature: LeaseSignatureSummary.nullable(),
  /** Whether that signature is of this same document. */
  signedThisDocument: z.boolean(),
});
export type LeaseToSign = z.infer<typeof LeaseToSign>;

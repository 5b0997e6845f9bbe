import { z } from 'zod';
import { LockDesiredState } from './enums.ts';
import { Id, IsoDateTime, RequiredText } from './fields.ts';

/** A lease's gate code as staff and its renter see it. */
export const GateCode = z.object({
  leaseId: Id,
  customerId: Id,
  unitId: Id.nullable(),
  unitNumber: z.string().nullable(),
  /** The code that opens the gate; null for a role that may see that a code exists and its status, never the code (auditors). */
  code: z.string().nullable(),
  /** active: it opens the gate; suspended: it opens nothing (suspendedReason says why). */
  status: z.enum(['active', 'suspended']),
  suspendedReason: z.enum(['lockout', 'move_out', 'unsigned']).nullable(),
  assignedAt: IsoDateTime,
  updatedAt: IsoDateTime,
});
export type GateCode = z.infer<typeof GateCode>;

/** One thing a facility's gateway must apply, numbered in its facility's order. */
export const GatewayChange = z.discriminatedUnion('kind', [
  z.object({ sequence: z.number().int(), kind: z.literal('lock'), lockId: Id, desired: LockDesiredState }),
  /** The lease's code (it replaces the lease's previous one); active: whether it opens the gate. */
  z.object({ sequence: z.number().int(), kind: z.literal('gate_code'), leaseId: Id, code: z.string(), active: z.boolean() }),
]);
export type GatewayChange = z.infer<typeof GatewayChange>;

/** Changes sent in one heartbeat answer at most; `more` says the gateway should ask again. */
export const MAX_GATEWAY_CHANGES = 500;

const Sequence = z.number().int('must be a whole number').min(0, 'must be at least 0');

/** The access part of a heartbeat: what the gateway last applied, and the state the lock is in. */
export const HeartbeatAccessFields = {
  /** The last change sequence the gateway applied; the answer carries the changes after it. */
  ack: Sequence.optional(),
  /** The state the lock is in now, as the gateway applied it. */
  reported: LockDesiredState.optional(),
};

export const HeartbeatAccessAnswer = {
  /** The facility's newest change sequence. */
  sequence: z.number().int().optional(),
  /** The changes after `ack` (only when the heartbeat carried one), oldest first. */
  changes: z.array(GatewayChange).optional(),
  /** More changes are waiting after these: heartbeat again with the last one acknowledged. */
  more: z.boolean().optional(),
  /** What this lock should be. */
  desired: LockDesiredState.optional(),
};

export const GATE_CODE_PATTERN = /^\d{7}$/;

export const AccessAttempt = z
  .strictObject({
    /** The gateway's id of the attempt: a batch sent again records it once. */
    id: Id.optional(),
    at: IsoDateTime,
    via: z.enum(['gate_code', 'lock']),
    /** The code typed at the gate (via gate_code); used to find whose it is, never stored. */
    code: z.string().regex(GATE_CODE_PATTERN, 'must be 7 digits').optional(),
    /** The lock tried (via lock), or the gate's lock if it has one. */
    lockId: Id.optional(),
    granted: z.boolean(),
    reason: RequiredText(200),
  })
  .superRefine((attempt, ctx) => {
    if (attempt.via === 'gate_code' && attempt.code === undefined)
      ctx.addIssue({ code: 'custom', path: ['code'], message: 'is required for a gate code attempt' });
    if (attempt.via === 'lock' && attempt.lockId === undefined) ctx.addIssue({ code: 'custom', path: ['lockId'], message: 'is required for a lock attempt' });
  });
export type AccessAttempt = z.input<typeof AccessAttempt>;

export const MAX_ACCESS_ATTEMPTS = 500;

/**
 * The byte limit of one batch of attempts, above the API's 64 KiB for every other body: a
 * documented batch of 500 typical attempts (an id, a millisecond timestamp, a code, a short
 * reason) is about 85 KB, and 500 with every field at its longest (both ids, a microsecond
 * timestamp with an offset, a code and a 200-character ASCII reason) about 194 KiB compact or
 * 226 KiB indented. The schema bounds neither a timestamp's fraction nor the blanks around a
 * reason, so this is set from what a gateway really sends, with room to spare, not from them.
 */
export const MAX_ACCESS_ATTEMPTS_BODY_BYTES = 256 * 1024;

export const AccessAttemptsRequest = z.strictObject({
  attempts: z.array(AccessAttempt).min(1, 'must list at least one attempt').max(MAX_ACCESS_ATTEMPTS, `must list at most ${MAX_ACCESS_ATTEMPTS} attempts`),
});
export type AccessAttemptsRequest = z.input<typeof AccessAttemptsRequest>;

export const AccessAttemptsAnswer = z.object({ recorded: z.number().int() });
export type AccessAttemptsAnswer = z.infer<typeof AccessAttemptsAnswer>;

import { z } from 'zod';

// Rebuilding and verifying the read model: owner-started jobs the projector process runs.

export const READ_MODEL_QUEUE = 'read-model';
export const ReadModelJobKind = z.enum(['rebuild', 'verify']);
export type ReadModelJobKind = z.infer<typeof ReadModelJobKind>;

export const ReadModelJobParams = z.object({ id: z.string().regex(/^\d+$/, 'must be a job number') });

/** A projection's name, as the health answer and the failing projections name it. */
const ProjectionName = z.string().regex(/^[a-z][a-z_-]{0,62}$/, 'must be a projection name');

/** A rebuild of the whole read model, or of one projection's tables alone. */
export const RebuildReadModelRequest = z.strictObject({
  projection: ProjectionName.optional().describe(
    "Rebuild this projection's tables alone (the tables it reads are rebuilt beside it, not swapped in), set its checkpoint and clear its failure. Left out: the whole read model.",
  ),
});
export type RebuildReadModelRequest = z.input<typeof RebuildReadModelRequest>;

/** What the projector is given with a read-model job. */
export const ReadModelJobData = z.object({ projection: z.string().optional() });
export type ReadModelJobData = z.infer<typeof ReadModelJobData>;

/**
 * A projection failing on an event, as owners see it: the event, the error (it may quote data,
 * so the public health answer leaves it out), the attempts, and the projections it holds there.
 */
export const ReadModelFailure = z.object({
  projection: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  position: z.string().describe("The event's position in the store, hi/lo"),
  error: z.string(),
  attempts: z.number(),
  failingSince: z.string(),
  lastFailedAt: z.string(),
  nextAttemptAt: z.string(),
  holds: z.array(z.string()).describe('The projections held at the same event with it: those reading its tables, directly or through another'),
});
export type ReadModelFailure = z.infer<typeof ReadModelFailure>;

export const ReadModelJobState = z.enum(['waiting', 'active', 'completed', 'failed']);

export const ReadModelJobResult = z.object({
  eventsApplied: z.number(),
  /** Verify only: each difference between the live and the rebuilt tables, described. */
  differences: z.array(z.string()).optional(),
});
export type ReadModelJobResult = z.infer<typeof ReadModelJobResult>;

export const ReadModelJob = z.object({
  id: z.string(),
  kind: ReadModelJobKind,
  /** The projection a rebuild of one rebuilds; null: the whole read model. */
  projection: z.string().nullable(),
  state: ReadModelJobState,
  eventsApplied: z.number(),
  result: ReadModelJobResult.nullable(),
  error: z.string().nullable(),
});
export type ReadModelJob = z.infer<typeof ReadModelJob>;

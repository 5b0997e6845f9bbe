import { z } from 'zod';

// Rebuilding and verifying the read model: owner-started jobs the projector process runs.

export const READ_MODEL_QUEUE = 'read-model';
export const ReadModelJobKind = z.enum(['rebuild', 'verify']);
export type ReadModelJobKind = z.infer<typeof ReadModelJobKind>;

export const ReadModelJobParams = z.object({ id: z.string().regex(/^\d+$/, 'must be a job number') });

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
  state: ReadModelJobState,
  eventsApplied: z.number(),
  result: ReadModelJobResult.nullable(),
  error: z.string().nullable(),
});
export type ReadModelJob = z.infer<typeof ReadModelJob>;

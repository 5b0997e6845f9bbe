import { z } from 'zod';
import { DelinquencyStepKind } from './enums.ts';

/**
 * One rule of the delinquency schedule: on `day` days after an invoice's due date (facility time
 * zone), while the renter's past-due balance is above `threshold`, the step fires once for that
 * invoice. A payment that brings the past-due balance to the lockout step's threshold or below
 * restores access.
 */
export const DelinquencyStep = z.object({
  kind: DelinquencyStepKind,
  day: z.number().int().min(1).max(365),
  threshold: z.string().regex(/^\d+\.\d{2}$/),
});
export type DelinquencyStep = z.infer<typeof DelinquencyStep>;

/** The schedule when no owner has set one: the example (the late fee comes from the billing settings). */
export const defaultDelinquencySteps: readonly DelinquencyStep[] = [
  { kind: 'late_notice', day: 5, threshold: '0.00' },
  { kind: 'lockout', day: 15, threshold: '0.00' },
  { kind: 'pre_lien_notice', day: 30, threshold: '0.00' },
  { kind: 'lien', day: 45, threshold: '0.00' },
  { kind: 'auction_scheduled', day: 60, threshold: '0.00' },
];

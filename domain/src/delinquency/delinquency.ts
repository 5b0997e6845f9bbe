import type { DomainEvent, EventData } from '@storage/contracts/events';

// A renter's delinquency (stream delinquency-<customer>): the steps of the schedule taken on them,
// how many since the last clear (the current episode, which takes the schedule's steps in order),
// and a pause staff gave.

export type StepTaken = EventData<'delinquency_step_taken'>;

export interface DelinquencyState {
  /** Every step taken, in order (also those before a clear: a step is taken once per invoice and kind for one debt). */
  steps: readonly StepTaken[];
  /** Steps taken since the schedule last cleared: > 0 is a delinquent renter. */
  sinceClear: number;
  /** No step fires on days up to `until` (included); null: not paused. */
  pause: { until: string; reason: string } | null;
}

export const initialDelinquencyState: DelinquencyState = { steps: [], sinceClear: 0, pause: null };

/** Paused on `today`: a pause until today or later. */
export function pausedOn(state: DelinquencyState, today: string): boolean {
  return state.pause !== null && state.pause.until >= today;
}

export function evolveDelinquency(state: DelinquencyState, event: DomainEvent): DelinquencyState {
  switch (event.type) {
    case 'delinquency_step_taken':
      return { ...state, steps: [...state.steps, event.data], sinceClear: state.sinceClear + 1 };
    case 'delinquency_cleared':
      return { ...state, sinceClear: 0 };
    case 'delinquency_paused':
      return { ...state, pause: { until: event.data.until, reason: event.data.reason } };
    case 'delinquency_resumed':
      return { ...state, pause: null };
    default:
      return state;
  }
}

export const delinquencyAggregate = { initial: initialDelinquencyState, evolve: evolveDelinquency };

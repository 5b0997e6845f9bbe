import { describe, expect, it } from 'vitest';
import { reactions } from './index.ts';
import { reactionsWanted } from './runner.ts';

describe('when the projector runs the reactions after a catch-up', () => {
  const soon = { due: false, msSinceLastRun: 200, paceMs: 3000 };

  it('runs them at once after an event one of them follows: a payment, a move-in', () => {
    expect(reactionsWanted(reactions, ['customer_added', 'desk_payment_received'], soon)).toBe(true);
    expect(reactionsWanted(reactions, ['lease_started'], soon)).toBe(true);
  });

  it('passes over customers added and changed at the safety net pace, not after each catch-up', () => {
    expect(reactionsWanted(reactions, ['customer_added', 'customer_updated'], soon)).toBe(false);
    expect(reactionsWanted(reactions, ['customer_added'], { ...soon, msSinceLastRun: 3000 })).toBe(true);
  });

  it('runs them while they have more to do or a retry due, whatever was applied', () => {
    expect(reactionsWanted(reactions, [], { ...soon, due: true })).toBe(true);
  });
});

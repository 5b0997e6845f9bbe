import { describe, expect, it } from 'vitest';
import { intentStep } from './reconcile.ts';

describe('what the payment reconciliation does with an unsettled intent', () => {
  it('settles an intent the provider reports succeeded, live or already seen to take money', () => {
    expect(intentStep('live', 'succeeded')).toEqual({ kind: 'settle' });
    expect(intentStep('succeeded', 'succeeded')).toEqual({ kind: 'settle' });
  });

  it('forgets a live intent the provider cancelled or does not know: it can never take money', () => {
    expect(intentStep('live', 'canceled')).toEqual({ kind: 'forget' });
    expect(intentStep('live', null)).toEqual({ kind: 'forget' });
  });

  it('leaves a payable intent payable, cancellable unless its payment is under way at the provider', () => {
    for (const status of ['requires_payment_method', 'requires_confirmation', 'requires_action']) {
      expect(intentStep('live', status)).toEqual({ kind: 'payable', cancellable: true });
    }
    expect(intentStep('live', 'processing')).toEqual({ kind: 'payable', cancellable: false });
  });

  it('calls for a person when an intent we saw take money is no longer succeeded at the provider', () => {
    expect(intentStep('succeeded', 'canceled')).toEqual({ kind: 'anomaly', reason: 'The provider reports the intent canceled, but it took money' });
    expect(intentStep('succeeded', null)).toEqual({ kind: 'anomaly', reason: 'The provider reports no such intent, but it took money' });
  });
});

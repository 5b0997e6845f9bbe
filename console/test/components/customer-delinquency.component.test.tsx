import { DelinquencyTimeline } from '@storage/contracts/delinquency';
import { answer, declareAnswers, heldAnswer } from '@storage/testing/component-api';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { customersQueryKey } from '../../src/features/customers/api/get-customers.ts';
import { CustomerDelinquency } from '../../src/features/customers/components/customer-delinquency.tsx';
import { graceHopper } from './customer-fixtures.ts';
import { fill, renderConsole } from './render.tsx';

// The delinquency tab reads the timeline again every few seconds while the renter is delinquent; a
// pause or resume shows the timeline the change answered, and a read sent before the change must
// not put the old one back when it lands after it.

const grace = graceHopper();
const path = `/api/customers/${grace.id}/delinquency`;
const lateNotice = {
  id: '0e1f2a3b-4c5d-4e6f-8a7b-8c9d0e1f2a3b',
  type: 'step_taken' as const,
  date: '2025-06-06',
  kind: 'late_notice' as const,
  label: 'Late Notice',
  day: 5,
  invoiceId: '1f2a3b4c-5d6e-4f7a-8b9c-9d0e1f2a3b4c',
  invoiceNumber: 'INV-1001',
  pastDue: '95.50',
  reason: null,
  until: null,
  recordedAt: '2025-06-06T08:00:00.000Z',
};
const schedule = [
  { kind: 'late_notice' as const, day: 5, threshold: '0.00' },
  { kind: 'lockout' as const, day: 15, threshold: '0.00' },
];
const delinquent: DelinquencyTimeline = {
  customerId: grace.id,
  status: 'delinquent',
  today: '2025-06-10',
  pastDue: '95.50',
  steps: [lateNotice],
  events: [lateNotice],
  nextStep: {
    kind: 'lockout',
    label: 'Lockout',
    date: '2025-06-16',
    invoiceId: lateNotice.invoiceId,
    invoiceNumber: 'INV-1001',
    threshold: '0.00',
    amountToStop: '95.50',
  },
  pause: null,
  schedule,
};
const paused: DelinquencyTimeline = {
  ...delinquent,
  status: 'paused',
  events: [
    lateNotice,
    {
      ...lateNotice,
      id: '2a3b4c5d-6e7f-4a8b-9c0d-0e1f2a3b4c5d',
      type: 'paused',
      kind: null,
      label: 'Paused',
      day: null,
      invoiceId: null,
      invoiceNumber: null,
      pastDue: null,
      reason: 'Promised to pay on the 1st',
      until: '2025-06-20',
      date: '2025-06-10',
    },
  ],
  nextStep: { ...delinquent.nextStep!, date: '2025-06-21' },
  pause: { until: '2025-06-20', reason: 'Promised to pay on the 1st' },
};

/** The query client the rendered console uses, taken by a component rendered inside it. */
let queryClient: QueryClient | undefined;
function TakeQueryClient() {
  queryClient = useQueryClient();
  return null;
}

describe('customer delinquency tab', () => {
  it('keeps the pause on screen when a read of the timeline sent before it answers after it', async () => {
    const { user } = renderConsole(
      <>
        <TakeQueryClient />
        <CustomerDelinquency customerId={grace.id} canPause />
      </>,
      { api: [answer('get', path, DelinquencyTimeline, delinquent)] },
    );
    const tab = await screen.findByTestId('customer-delinquency');
    await within(tab).findByText('Delinquent', { exact: true });

    // The poll goes out before the pause, and its answer (the schedule before the pause) is held.
    const poll = heldAnswer('get', path, DelinquencyTimeline, delinquent);
    declareAnswers(poll, answer('post', `${path}/pause`, DelinquencyTimeline, paused, { status: 200 }));
    const queryKey = [...customersQueryKey, 'delinquency', grace.id];
    void queryClient!.refetchQueries({ queryKey });
    await poll.arrived;

    await user.click(within(tab).getByRole('button', { name: /Pause/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Pause the Delinquency Schedule' });
    await fill(user, within(dialog).getByLabelText('Until'), '2025-06-20');
    await fill(user, within(dialog).getByLabelText('Reason'), 'Promised to pay on the 1st');
    await user.click(within(dialog).getByRole('button', { name: 'Pause' }));
    await within(tab).findByText('Paused', { exact: true });

    poll.release();
    await waitFor(() => expect(queryClient!.isFetching({ queryKey })).toBe(0));
    expect(within(tab).getByText('Paused', { exact: true })).toBeTruthy();
    expect(within(tab).queryByText('Delinquent', { exact: true })).toBeNull();
  });
});

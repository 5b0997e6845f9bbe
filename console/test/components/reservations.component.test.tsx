import { WaitlistEntry } from '@storage/contracts/public';
import { Reservation } from '@storage/contracts/reservations';
import { answerPage } from '@storage/testing/component-api';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ReservationsSection } from '../../src/features/reservations/components/reservations-section.tsx';
import { renderConsole } from './render.tsx';

// The Reservations card of Lease Agreements: its tabs count what they hold, in words.

const reservation: Reservation = {
  id: '3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f',
  status: 'submitted',
  unitId: '4d5e6f7a-8b9c-4d0e-9f1a-2b3c4d5e6f7a',
  unitNumber: 'A101',
  size: '10x10',
  monthlyRate: '120.00',
  facilityId: null,
  customerId: '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b',
  customerName: 'Grace Hopper',
  customerEmail: 'grace@example.com',
  customerPhone: null,
  moveInDate: '2025-07-01',
  specialRequests: null,
  submittedAt: '2025-06-20T10:00:00.000Z',
  leaseId: null,
  matchedCustomer: null,
  onlineCheckout: null,
  onlineCheckoutAt: null,
};
const waiting: WaitlistEntry = {
  id: '6f7a8b9c-0d1e-4f2a-9b3c-4d5e6f7a8b9c',
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  phone: '555-0100',
  size: '5x5',
  facilityId: null,
  facilityName: null,
  joinedAt: '2025-06-21T10:00:00.000Z',
};

describe('reservations card', () => {
  it('counts the open reservations and the waiting list in its tabs', async () => {
    renderConsole(<ReservationsSection facilityId={null} onDecided={() => {}} />, {
      path: '/leases',
      api: [
        answerPage('/api/reservations', Reservation, [reservation]),
        answerPage('/api/waitlist', WaitlistEntry, [waiting, { ...waiting, id: crypto.randomUUID() }]),
      ],
    });
    await screen.findByRole('tab', { name: 'Open Reservations (1)' });
    await screen.findByRole('tab', { name: 'Waiting List (2)' });
  });
});

describe('reservations by role', () => {
  const api = () => [answerPage('/api/reservations', Reservation, [reservation]), answerPage('/api/waitlist', WaitlistEntry, [])];

  it('offers a clerk to convert or cancel an open reservation', async () => {
    renderConsole(<ReservationsSection facilityId={null} onDecided={() => {}} />, { role: 'clerk', path: '/leases', api: api() });
    await screen.findByRole('button', { name: 'Convert to lease' });
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeTruthy();
  });

  it('lists the reservation without an action: converting and cancelling are changes', async () => {
    renderConsole(<ReservationsSection facilityId={null} onDecided={() => {}} />, { role: 'auditor', path: '/leases', api: api() });
    await screen.findByText('Grace Hopper');
    expect(screen.queryByRole('columnheader', { name: 'Actions' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Convert to lease' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
  });
});

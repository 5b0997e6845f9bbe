import type { Activity } from '@storage/contracts/activities';
import { describe, expect, it } from 'vitest';
import { activitiesCsv } from './activities-csv.ts';
import { activityDetails, activityEmail, activityTypeLabel, customerName } from './activity-text.ts';

const activity = (overrides: Partial<Activity> = {}): Activity => ({
  id: '7d1c2b9e-1111-4222-8333-444455556666',
  type: 'payment_received',
  description: 'Payment of $1,200.00 received for INV-1',
  createdAt: '2025-06-14T15:05:00.000Z',
  metadata: {},
  customer: { id: '3a7b9c1d-5e6f-4a8b-9c0d-1e2f3a4b5c04', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
  staff: null,
  ...overrides,
});

describe('activity details', () => {
  it("shows 'amount' in dollars, keys holding 'Date' as dates, objects as text, keys in words", () => {
    expect(activityDetails({ amount: '1200.5', paidDate: '2025-06-14', invoiceNumber: 'INV-1', extra: { a: 1 } })).toEqual([
      { label: 'Amount', value: '$1,200.50' },
      { label: 'Paid Date', value: 'Jun 14, 2025' },
      { label: 'Invoice Number', value: 'INV-1' },
      { label: 'Extra', value: '{"a":1}' },
    ]);
  });

  it('shows statuses and methods as words, not as stored', () => {
    expect(activityDetails({ status: 'low battery', method: 'bank_transfer' })).toEqual([
      { label: 'Status', value: 'Low battery' },
      { label: 'Method', value: 'Bank transfer' },
    ]);
  });

  it('skips empty values', () => {
    expect(activityDetails({ reason: null, note: '', unitNumber: undefined, batteryLevel: 0 })).toEqual([{ label: 'Battery Level', value: '0' }]);
  });

  it('shows a value that is not what its key promises as it is', () => {
    expect(activityDetails({ amount: 'n/a', moveInDate: 'soon' })).toEqual([
      { label: 'Amount', value: 'n/a' },
      { label: 'Move In Date', value: 'soon' },
    ]);
  });
});

describe('activity labels', () => {
  it('names a type in words', () => {
    expect(activityTypeLabel('lock_status_changed')).toBe('Lock Status Changed');
  });

  it("names the customer, else the staff member who did it, else 'Unknown User'", () => {
    expect(customerName(activity())).toBe('Ada Lovelace');
    const olivia = { id: '6a0f0c8e-1b2c-4d3e-8f40-5a6b7c8d9e01', name: 'Olivia Owner', email: 'owner@demo.test' };
    expect(customerName(activity({ customer: null, staff: olivia }))).toBe('Olivia Owner');
    expect(activityEmail(activity({ customer: null, staff: olivia }))).toBe('owner@demo.test');
    expect(customerName(activity({ customer: null }))).toBe('Unknown User');
    expect(activityEmail(activity({ customer: null }))).toBe('No email');
  });
});

describe('activities export', () => {
  it('writes one row per card, as the card shows it', () => {
    const rows = activitiesCsv([
      activity({ metadata: { amount: '1200.00', method: 'Card' } }),
      activity({ customer: null, type: 'lock_installed', description: 'Smart lock installed' }),
    ])
      .trim()
      .split('\r\n');
    expect(rows[0]).toBe('Date,Time,Type,Customer,Email,Description,Details');
    expect(rows[1]).toMatch(
      /^"Jun 14, 2025",\d{1,2}:05 (AM|PM),Payment Received,Ada Lovelace,ada@example.com,"Payment of \$1,200.00 received for INV-1","Amount: \$1,200.00; Method: Card"$/,
    );
    expect(rows[2]).toMatch(/,Lock Installed,Unknown User,No email,Smart lock installed,$/);
  });
});

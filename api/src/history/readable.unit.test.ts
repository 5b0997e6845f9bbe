import { describe, expect, it } from 'vitest';
import { fieldLabel, idsIn, type Names, valueText } from './readable.ts';

const unitId = '36f21988-1111-4222-8333-444455556666';
const leaseId = '7d1c2b9e-1111-4222-8333-444455556666';
const known: Record<string, string> = { [`unit:${unitId}`]: 'A-101', [`lease:${leaseId}`]: 'Unit A-101, Jane Smith' };
const names: Names = (kind, id) => known[`${kind}:${id}`];

describe('history in words', () => {
  it('names a field in words, an id field by what it holds', () => {
    expect(fieldLabel('unitId')).toBe('Unit');
    expect(fieldLabel('monthlyRate')).toBe('Monthly rate');
    expect(fieldLabel('lifecycle')).toBe('Record');
    expect(fieldLabel('stripePaymentIntentId')).toBe('Stripe payment intent id');
  });

  it('shows an id as the unit number or lease it stands for, and an unknown one as it is', () => {
    expect(valueText('unitId', unitId, names)).toBe('A-101');
    expect(valueText('leaseId', leaseId, names)).toBe('Unit A-101, Jane Smith');
    const gone = '00000000-1111-4222-8333-444455556666';
    expect(valueText('unitId', gone, names)).toBe(gone);
  });

  it('shows statuses as words, money in dollars, days as dates, and no value as null', () => {
    expect(valueText('status', 'maintenance', names)).toBe('Maintenance');
    expect(valueText('status', 'low_battery', names)).toBe('Low battery');
    expect(valueText('monthlyRate', '120.5', names)).toBe('$120.50');
    expect(valueText('depositAmount', '50.00', names)).toBe('$50.00');
    expect(valueText('startDate', '2025-06-14', names)).toBe('Jun 14, 2025');
    expect(valueText('isActive', true, names)).toBe('Yes');
    expect(valueText('reservationId', null, names)).toBeNull();
    expect(valueText('phone', '', names)).toBeNull();
  });

  it('says a facility’s access hours as everywhere else, null as 24-hour access', () => {
    expect(valueText('accessHours', { opensAt: '06:00', closesAt: '22:00' }, names)).toBe('6:00 AM – 10:00 PM every day');
    expect(valueText('accessHours', null, names)).toBe('24/7');
  });

  it('words nested values field by field', () => {
    expect(valueText('payment', { paymentId: 'p-1', stripePaymentIntentId: null }, names)).toBe('Payment id: p-1');
  });

  it('finds the ids to look up, nested ones included, and only real ids', () => {
    expect(idsIn([{ unitId, note: unitId, payment: { leaseId }, customerId: 'not-an-id' }])).toEqual([
      { kind: 'unit', id: unitId },
      { kind: 'lease', id: leaseId },
    ]);
  });
});

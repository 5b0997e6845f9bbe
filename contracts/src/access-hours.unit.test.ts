import { describe, expect, it } from 'vitest';
import { AccessHours, accessHoursWords } from './access-hours.ts';

describe('access hours', () => {
  it('says 24-hour access as the lease terms do, and gate hours on the 12-hour clock', () => {
    expect(accessHoursWords(null)).toBe('24/7');
    expect(accessHoursWords({ opensAt: '06:00', closesAt: '22:00' })).toBe('6:00 AM – 10:00 PM every day');
    expect(accessHoursWords({ opensAt: '00:00', closesAt: '12:30' })).toBe('12:00 AM – 12:30 PM every day');
    expect(accessHoursWords({ opensAt: '11:05', closesAt: '23:59' })).toBe('11:05 AM – 11:59 PM every day');
  });

  it('takes times on the 24-hour clock that open before they close, and names the field of the first fault', () => {
    expect(AccessHours.safeParse({ opensAt: '06:00', closesAt: '22:00' }).success).toBe(true);
    for (const [hours, field] of [
      [{ opensAt: '22:00', closesAt: '06:00' }, 'closesAt'],
      [{ opensAt: '08:00', closesAt: '08:00' }, 'closesAt'],
      [{ opensAt: '8:00', closesAt: '18:00' }, 'opensAt'],
      [{ opensAt: '08:00', closesAt: '24:00' }, 'closesAt'],
      [{ opensAt: '08:60', closesAt: '18:00' }, 'opensAt'],
    ] as const) {
      const result = AccessHours.safeParse(hours);
      expect(result.success, JSON.stringify(hours)).toBe(false);
      expect(result.error?.issues[0]?.path).toEqual([field]);
    }
  });
});

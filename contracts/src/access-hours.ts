import { z } from 'zod';

const ClockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time of day on the 24-hour clock (HH:MM)');

/**
 * When renters may reach their units (the gate's hours), the same every day: opensAt before
 * closesAt, both on the 24-hour clock. A facility's hours are null for 24-hour access.
 */
export const AccessHours = z
  .strictObject({ opensAt: ClockTime, closesAt: ClockTime })
  .refine((hours) => hours.opensAt < hours.closesAt, { message: 'must be after opensAt', path: ['closesAt'] });
export type AccessHours = z.infer<typeof AccessHours>;

/** 24-hour access in words: the lease terms' own (spec: "access 24/7"). */
export const ALL_HOURS_WORDS = '24/7';

/** '14:30' as a 12-hour clock reads it: '2:30 PM'. */
export function clockTimeWords(time: string): string {
  const [hour = 0, minute = 0] = time.split(':').map(Number);
  const period = hour < 12 ? 'AM' : 'PM';
  return `${hour % 12 === 0 ? 12 : hour % 12}:${String(minute).padStart(2, '0')} ${period}`;
}

/** A facility's access hours in words, wherever they are shown: '24/7' or '6:00 AM – 10:00 PM every day'. */
export function accessHoursWords(hours: AccessHours | null | undefined): string {
  if (!hours) return ALL_HOURS_WORDS;
  return `${clockTimeWords(hours.opensAt)} – ${clockTimeWords(hours.closesAt)} every day`;
}

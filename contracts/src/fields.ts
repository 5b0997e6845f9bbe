import { z } from 'zod';

/** A list's paging fields live with the rest of its paging contract. */
export { Page, PageSize } from './paging.ts';

// Field schemas shared by commands, events and API shapes. Every free-text field has a length
// limit so an oversize value is refused with a message naming the field.

export const Id = z.uuid();
export const RequiredText = (max = 200) => z.string().trim().min(1, 'is required').max(max, `must be at most ${max} characters`);
export const OptionalText = (max = 500) =>
  z
    .string()
    .trim()
    .max(max, `must be at most ${max} characters`)
    .nullish()
    .transform((v) => (v ? v : null));
export const Email = z
  .string()
  .trim()
  .min(1, 'is required')
  .max(254, 'must be at most 254 characters')
  .pipe(z.email('must be a valid email address'))
  .transform((v) => v.toLowerCase());
/** YYYY-MM-DD of a year PostgreSQL holds (it has no year 0: 0000-01-01 was a 500 wherever a date was asked for). */
export const IsoDate = z.iso.date('must be a date (YYYY-MM-DD)').refine((day) => !day.startsWith('0000'), 'must be a date (YYYY-MM-DD) from year 0001');
export const IsoDateTime = z.iso.datetime({ offset: true, message: 'must be an ISO-8601 date and time' });
export const SearchText = z.string().trim().max(200, 'must be at most 200 characters').optional();

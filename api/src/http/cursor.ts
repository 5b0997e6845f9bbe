import { z } from 'zod';
import { ValidationError } from './validate.ts';

// The `cursor` of a list query (see contracts/src/paging.ts): base64url of JSON holding the list's
// order it was written for, the direction to read in from the boundary row, and that row's
// sort-key values as PostgreSQL's text for them (NULL as null), compared back as parameters whose
// type PostgreSQL takes from the expression they are compared with.

/** Read the rows after the boundary row (the next page) or before it (the previous page). */
export type CursorDirection = 'after' | 'before';

export type ListCursor = {
  /** The order the cursor was written for (the list's sort column and direction). */
  order: string;
  direction: CursorDirection;
  /** The boundary row's sort-key values, the row's key last. */
  keys: (string | null)[];
};

const Payload = z.strictObject({
  o: z.string().max(200),
  d: z.enum(['a', 'b']),
  k: z.array(z.string().max(1000).nullable()).min(1).max(16),
});

export function encodeCursor(cursor: ListCursor): string {
  const payload: z.infer<typeof Payload> = { o: cursor.order, d: cursor.direction === 'after' ? 'a' : 'b', k: cursor.keys };
  return Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
}

/** A 400 naming `cursor`. */
export const badCursor = (why: string) => new ValidationError(`cursor: ${why}`, 'cursor');

/** The cursor of a request, or a 400 naming `cursor` when it is not one a list wrote for this order and key. */
export function decodeCursor(text: string, expected: { order: string; keys: number }): ListCursor {
  let payload: z.infer<typeof Payload>;
  try {
    payload = Payload.parse(JSON.parse(Buffer.from(text, 'base64url').toString('utf8')));
  } catch {
    throw badCursor('must be a cursor the list answered (x-next-cursor or x-prev-cursor)');
  }
  if (payload.o !== expected.order || payload.k.length !== expected.keys)
    throw badCursor('was written for another order of the list; start again from the first page');
  return { order: payload.o, direction: payload.d === 'a' ? 'after' : 'before', keys: payload.k };
}

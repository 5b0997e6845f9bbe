// Names of the answer headers the API and the apps share, free of zod (the apps' first screens read
// them without loading the schema library).

/** Lists answer a JSON array (the spec's "list of ..."); the total matching count is in this header. */
export const TOTAL_COUNT_HEADER = 'x-total-count';

/** The notification list holds the newest notifications only; the bell's badge counts every unread one from this header. */
export const UNREAD_COUNT_HEADER = 'x-unread-count';

/** `true` when `x-total-count` is the planner's estimate, not a count. */
export const TOTAL_ESTIMATED_HEADER = 'x-total-estimated';

/** `true` when counting stopped at `x-total-count`: at least that many match. */
export const TOTAL_CAPPED_HEADER = 'x-total-capped';

/** The cursor of the page after this one, when there is one. */
export const NEXT_CURSOR_HEADER = 'x-next-cursor';

/** The cursor of the page before this one, when there is one. */
export const PREV_CURSOR_HEADER = 'x-prev-cursor';

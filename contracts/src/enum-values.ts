// The values of a few enums as plain lists, free of zod: what the console's first screen (the
// dashboard, its shell) needs of them, without loading the schema library. enums.ts and
// sorting.ts make their schemas from these.

export const customerStatuses = ['active', 'inactive', 'overdue', 'terminated'] as const;

export const sortOrders = ['asc', 'desc'] as const;

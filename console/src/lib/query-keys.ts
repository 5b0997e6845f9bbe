// The query keys that money moving in one feature refreshes in others (a refund changes the
// customer's balance; a move-out, their invoices): kept here so features share them without
// importing each other.

export const customersQueryKey = ['customers'] as const;
export const invoicesQueryKey = ['invoices'] as const;
/** Gate codes: a move-out (leases) suspends one, a rotation (access) replaces one. */
export const gateCodesQueryKey = ['gate-codes'] as const;
/** Sent messages (the outbox) and the message templates: what a renter is told follows what staff do anywhere. */
export const messagesQueryKey = ['messages'] as const;
export const messageTemplatesQueryKey = ['message-templates'] as const;

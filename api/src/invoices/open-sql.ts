import { type IdentifierSqlToken, sql } from 'slonik';

// The read side's one spelling of what the domain decides open (domain/src/accounts/receivables.ts):
// an invoice is open when sent or overdue (a draft is not owed yet; paid, cancelled and written off
// are closed), and it owes its amount less what was paid on it. The lists and reports that show
// receivables read these, so they cannot drift apart; the money decisions read the streams.

const alias = (name: string): IdentifierSqlToken => sql.identifier([name]);

/** Whether invoice `i` (a table alias) is open. */
export const isOpenInvoice = (i = 'i') => sql.fragment`${alias(i)}.status IN ('sent', 'overdue')`;

/** What invoice `i` (a table alias) still owes, when it is open. */
export const openAmount = (i = 'i') => sql.fragment`(${alias(i)}.amount - ${alias(i)}.amount_paid)`;

/** Whether invoice `i` is open and still owes something. */
export const isOwing = (i = 'i') => sql.fragment`${isOpenInvoice(i)} AND ${openAmount(i)} > 0`;

import { z } from 'zod';
import { MessageTemplateKey } from './enums.ts';
import { Id, IsoDateTime, SearchText } from './fields.ts';
import { pagingFields } from './paging.ts';
import { listSorting } from './sorting.ts';

// Messages to renters (issue 13): templates an owner can edit, the outbox staff read as "Sent
// messages", and the renter's opt-outs.

/** The words of each message, as the console and the portal show them. */
export const messageTemplateLabels: Record<MessageTemplateKey, string> = {
  reservation_confirmed: 'Reservation confirmed',
  move_in_welcome: 'Move-in welcome',
  invoice_issued: 'Invoice issued',
  payment_receipt: 'Payment receipt',
  autopay_failed: 'Autopay failed',
  late_notice: 'Late notice',
  lockout_notice: 'Lockout notice',
  pre_lien_notice: 'Pre-lien notice',
  access_restored: 'Access restored',
  rent_change_notice: 'Rent change notice',
  protection_enrolled: 'Protection plan enrolment',
};

/** The messages a renter may turn off; the others are notices the law requires, always sent. */
export const optionalMessageKeys = [
  'invoice_issued',
  'payment_receipt',
  'reservation_confirmed',
  'access_restored',
  'move_in_welcome',
] as const satisfies readonly MessageTemplateKey[];
export type OptionalMessageKey = (typeof optionalMessageKeys)[number];
export const OptionalMessageKey = z.enum(optionalMessageKeys);

export function isOptionalMessage(key: MessageTemplateKey): key is OptionalMessageKey {
  return (optionalMessageKeys as readonly string[]).includes(key);
}

/** Every placeholder a template may use, written {name}; a message without the value shows it empty. */
export const messagePlaceholders = [
  'firstName',
  'lastName',
  'facilityName',
  'unitNumber',
  'gateCode',
  'amount',
  'dueDate',
  'invoiceNumber',
  'portalUrl',
  'pastDue',
  'moveInDate',
  'reason',
  'currentRate',
  'newRate',
  'effectiveDate',
  'date',
  'planName',
  'coverageAmount',
  'monthlyPremium',
  'accessHours',
] as const;
export type MessagePlaceholder = (typeof messagePlaceholders)[number];
export type MessageValues = Partial<Record<MessagePlaceholder, string>>;

export const MessageStatus = z.enum(['pending', 'sent', 'failed', 'suppressed']);
export type MessageStatus = z.infer<typeof MessageStatus>;

const TemplateText = (max: number) => z.string().trim().min(1, 'is required').max(max, `must be at most ${max} characters`);

/** An owner's wording of one message. */
export const MessageTemplateRequest = z.strictObject({ subject: TemplateText(200), body: TemplateText(5000) });
export type MessageTemplateRequest = z.infer<typeof MessageTemplateRequest>;

export const MessageTemplate = z.object({
  key: MessageTemplateKey,
  label: z.string(),
  subject: z.string(),
  body: z.string(),
  /** false: the owner's own wording; true: the product's. */
  isDefault: z.boolean(),
  /** false: a notice the renter cannot turn off. */
  optional: z.boolean(),
  defaultSubject: z.string(),
  defaultBody: z.string(),
});
export type MessageTemplate = z.infer<typeof MessageTemplate>;

export const MessageTemplateKeyParams = z.strictObject({ key: MessageTemplateKey });

export const MessagePreviewRequest = z.strictObject({
  customerId: Id,
  /** A wording not saved yet; absent: the template as saved. */
  subject: TemplateText(200).optional(),
  body: TemplateText(5000).optional(),
});
export const MessagePreview = z.object({ to: z.string(), subject: z.string(), body: z.string() });
export type MessagePreview = z.infer<typeof MessagePreview>;

export const MessagesFilter = z.strictObject({
  /** The address, the subject or the renter's name. */
  search: SearchText,
  status: MessageStatus.optional(),
  templateKey: MessageTemplateKey.optional(),
  facilityId: Id.optional(),
  customerId: Id.optional(),
});

export const messageSorting = listSorting({ createdAt: 'desc' }, 'createdAt');

export const ListMessagesQuery = MessagesFilter.extend({ ...messageSorting.fields, ...pagingFields });
export type ListMessagesQuery = z.input<typeof ListMessagesQuery>;

export const OutboxMessage = z.object({
  id: Id,
  customerId: Id.nullable(),
  customerName: z.string().nullable(),
  templateKey: MessageTemplateKey,
  to: z.string().nullable(),
  subject: z.string(),
  status: MessageStatus,
  attempts: z.number().int(),
  nextAttemptAt: IsoDateTime.nullable(),
  lastError: z.string().nullable(),
  createdAt: IsoDateTime,
  sentAt: IsoDateTime.nullable(),
});
export type OutboxMessage = z.infer<typeof OutboxMessage>;

export const OutboxMessageDetail = OutboxMessage.extend({ body: z.string(), eventId: Id });
export type OutboxMessageDetail = z.infer<typeof OutboxMessageDetail>;

/** The renter's choice: the messages they do not want (only optional ones). */
export const MessagePreferencesRequest = z.strictObject({ optOuts: z.array(OptionalMessageKey).max(optionalMessageKeys.length) });
export const MessagePreferences = z.object({
  optOuts: z.array(MessageTemplateKey),
  /** The messages they may turn off, and the notices always sent. */
  optional: z.array(MessageTemplateKey),
  alwaysSent: z.array(MessageTemplateKey),
});
export type MessagePreferences = z.infer<typeof MessagePreferences>;

import type { MessageTemplateKey } from '@storage/contracts/enums';
import { messageTemplateLabels } from '@storage/contracts/messages';

// Messages' events in a manager's words, for history and the audit log.

const labelOf = (key: unknown) => messageTemplateLabels[key as MessageTemplateKey] ?? String(key);

/** A sentence for a message event; null for any other event. */
export function describeMessageEvent(type: string, data: Record<string, unknown>): string | null {
  switch (type) {
    case 'message_template_updated':
      return data.template === null ? `${labelOf(data.templateKey)} message back to the default wording` : `${labelOf(data.templateKey)} message reworded`;
    case 'customer_message_preferences_updated': {
      const off = (data.optOuts as unknown[] | undefined) ?? [];
      return off.length === 0 ? 'Emails: every message is sent' : `Emails turned off: ${off.map(labelOf).join(', ')}`;
    }
    default:
      return null;
  }
}

import type { MessageTemplateKey } from '@storage/contracts/enums';
import { MessageTemplateKey as TemplateKeys } from '@storage/contracts/enums';
import { type DomainEvent, streams } from '@storage/contracts/events';
import { isOptionalMessage, type MessageTemplate, messageTemplateLabels, optionalMessageKeys } from '@storage/contracts/messages';
import type { EventStore } from '@storage/eventstore/port';
import { DomainRuleError, NotFoundError } from '../commands/errors.ts';
import { type Aggregate, type CommandContext, handleCommand, loadAggregate } from '../commands/handle.ts';
import { defaultTemplates, type TemplateText, unknownPlaceholders } from './templates.ts';

// The write side of messages: an owner's wording of a template (its own stream), and a renter's
// opt-outs (on the customer's stream).

/** The owner's wording, or null: the product's own. */
export const templateAggregate: Aggregate<TemplateText | null> = {
  initial: null,
  evolve: (state, event) => (event.type === 'message_template_updated' ? event.data.template : state),
};

export interface PreferencesState {
  customerExists: boolean;
  optOuts: MessageTemplateKey[];
}

export const preferencesAggregate: Aggregate<PreferencesState> = {
  initial: { customerExists: false, optOuts: [] },
  evolve: (state, event) => {
    if (event.type === 'customer_added') return { ...state, customerExists: true };
    if (event.type === 'customer_message_preferences_updated') return { ...state, optOuts: event.data.optOuts };
    return state;
  },
};

/** Refuses a wording with a placeholder the product does not know, naming it and its field. */
export function checkPlaceholders(template: TemplateText): void {
  for (const field of ['subject', 'body'] as const) {
    const unknown = unknownPlaceholders(template[field]);
    if (unknown.length > 0) {
      throw new DomainRuleError(`${field}: unknown placeholder ${unknown.map((name) => `{${name}}`).join(', ')}`, field);
    }
  }
}

/** Saves the owner's wording (null: back to the product's own). Unknown placeholders are refused. */
export function updateMessageTemplate(ctx: CommandContext, key: MessageTemplateKey, template: TemplateText | null) {
  if (template) checkPlaceholders(template);
  const own = template && (template.subject !== defaultTemplates[key].subject || template.body !== defaultTemplates[key].body) ? template : null;
  return handleCommand(ctx, streams.messageTemplate(key), templateAggregate, (state): DomainEvent[] => {
    if (JSON.stringify(state) === JSON.stringify(own)) return [];
    return [{ type: 'message_template_updated', data: { templateKey: key, template: own } }];
  });
}

/** A template as it applies now: the owner's wording or the product's. */
export async function loadTemplate(store: EventStore, key: MessageTemplateKey): Promise<MessageTemplate> {
  const { state } = await loadAggregate(store, streams.messageTemplate(key), templateAggregate);
  const fallback = defaultTemplates[key];
  return {
    key,
    label: messageTemplateLabels[key],
    subject: state?.subject ?? fallback.subject,
    body: state?.body ?? fallback.body,
    isDefault: state === null,
    optional: isOptionalMessage(key),
    defaultSubject: fallback.subject,
    defaultBody: fallback.body,
  };
}

export async function loadTemplates(store: EventStore): Promise<MessageTemplate[]> {
  return Promise.all(TemplateKeys.options.map((key) => loadTemplate(store, key)));
}

export async function loadMessagePreferences(store: EventStore, customerId: string): Promise<PreferencesState> {
  return (await loadAggregate(store, streams.customer(customerId), preferencesAggregate)).state;
}

/** The renter's choice of the messages they do not want; only optional ones can be turned off. */
export function updateMessagePreferences(ctx: CommandContext, customerId: string, optOuts: readonly MessageTemplateKey[]) {
  const wanted = [...new Set(optOuts)].sort();
  const required = wanted.find((key) => !isOptionalMessage(key));
  if (required) throw new DomainRuleError(`optOuts: ${required} is a notice the renter cannot turn off`, 'optOuts');
  return handleCommand(ctx, streams.customer(customerId), preferencesAggregate, (state): DomainEvent[] => {
    if (!state.customerExists) throw new NotFoundError('Customer not found');
    if (JSON.stringify([...state.optOuts].sort()) === JSON.stringify(wanted)) return [];
    return [{ type: 'customer_message_preferences_updated', data: { customerId, optOuts: wanted } }];
  });
}

export { optionalMessageKeys };

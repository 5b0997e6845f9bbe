import { isOptionalMessage } from '@storage/contracts/messages';
import { derivedId } from '@storage/domain/commands/derived-id';
import { loadMessagePreferences, loadTemplate } from '@storage/domain/messages/commands';
import { composeFromEvent, messageEventTypes } from '@storage/domain/messages/compose';
import { renderTemplate } from '@storage/domain/messages/templates';
import { sql } from 'slonik';
import { messagesPublicUrl } from '../outbox/settings.ts';
import { wakeOutbox } from '../outbox/signal.ts';
import type { Reaction } from './reaction.ts';

// Messages to renters: each event that tells a renter something becomes one row of the outbox,
// rendered from the template as it stands and the renter's real data, under an id derived from
// the event and the template: a repeat of the event (a crash before the checkpoint moved) writes
// nothing more, and a rebuild of the read model never comes here. The outbox worker sends it.

export const messagesReaction: Reaction = {
  name: 'messages',
  types: messageEventTypes,
  async react(event, deps) {
    const message = await composeFromEvent(event, { pool: deps.pool, store: deps.store, publicUrl: messagesPublicUrl(), now: deps.now });
    if (!message) return;
    const id = derivedId('outbox-message', event.id, message.templateKey);
    const template = await loadTemplate(deps.store, message.templateKey);
    const rendered = renderTemplate(template, message.values);
    const optedOut =
      message.customerId !== null &&
      isOptionalMessage(message.templateKey) &&
      (await loadMessagePreferences(deps.store, message.customerId)).optOuts.includes(message.templateKey);
    const suppressedBecause = !message.to ? 'The renter has no email address' : optedOut ? 'The renter opted out of this message' : null;
    const now = deps.now.toISOString();
    const inserted = await deps.pool.query(sql.unsafe`
      INSERT INTO outbox_messages (id, event_id, customer_id, facility_id, template_key, to_address, subject, body, gate_code_lease_id, status, next_attempt_at, last_error, created_at)
      VALUES (${id}, ${event.id}, ${message.customerId}, ${message.facilityId}, ${message.templateKey}, ${message.to}, ${rendered.subject}, ${rendered.body}, ${message.gateCodeLeaseId ?? null},
        ${suppressedBecause ? 'suppressed' : 'pending'}, ${suppressedBecause ? null : now}::timestamptz, ${suppressedBecause}, ${now}::timestamptz)
      ON CONFLICT (id) DO NOTHING`);
    if (inserted.rowCount > 0 && !suppressedBecause) wakeOutbox();
  },
};

import type { MessageTemplateKey } from '@storage/contracts/enums';
import { type MessagePlaceholder, type MessageValues, messagePlaceholders } from '@storage/contracts/messages';

// The product's own wording of each message (an owner may replace it: message_template_updated),
// and how {placeholders} become a renter's real data.

export interface TemplateText {
  subject: string;
  body: string;
}

const signOff = '\n\n{facilityName}';

export const defaultTemplates: Record<MessageTemplateKey, TemplateText> = {
  reservation_confirmed: {
    subject: 'Your reservation of unit {unitNumber} is confirmed',
    body: `Hello {firstName},\n\nThank you for reserving unit {unitNumber}. We hold it for you until your move-in on {moveInDate}.\n\nYou can see your reservation at {portalUrl}.${signOff}`,
  },
  move_in_welcome: {
    subject: 'Welcome to {facilityName}: your gate code',
    body: `Hello {firstName},\n\nWelcome! Your unit {unitNumber} is ready.\n\nYour gate code is {gateCode}, and you can come in {accessHours}. Keep the code to yourself; you can always see it in the portal at {portalUrl}.${signOff}`,
  },
  invoice_issued: {
    subject: 'Invoice {invoiceNumber}: {amount} due {dueDate}',
    body: `Hello {firstName},\n\nYour invoice {invoiceNumber} for {amount} is due on {dueDate}.\n\nPay it in the portal at {portalUrl}.${signOff}`,
  },
  payment_receipt: {
    subject: 'Payment received: {amount}',
    body: `Hello {firstName},\n\nThank you: we received your payment of {amount} on {date}.\n\nYour account is in the portal at {portalUrl}.${signOff}`,
  },
  autopay_failed: {
    subject: 'Your automatic payment of {amount} did not go through',
    body: `Hello {firstName},\n\nWe could not charge your saved card {amount} for invoice {invoiceNumber} ({reason}).\n\nPlease pay in the portal at {portalUrl} to keep your account in good standing.${signOff}`,
  },
  late_notice: {
    subject: 'Late notice: {pastDue} past due',
    body: `Hello {firstName},\n\nYour account is past due by {pastDue} (invoice {invoiceNumber}, due {dueDate}).\n\nPlease pay at {portalUrl} to avoid further steps, such as the loss of access to your unit.${signOff}`,
  },
  lockout_notice: {
    subject: 'Your access is suspended: {pastDue} past due',
    body: `Hello {firstName},\n\nBecause {pastDue} is past due, your access to the facility and to unit {unitNumber} is suspended as of {date}.\n\nPaying what is owed at {portalUrl} restores your access within seconds.${signOff}`,
  },
  pre_lien_notice: {
    subject: 'Pre-lien notice: {pastDue} past due',
    body: `Hello {firstName},\n\nThis is a pre-lien notice. Your account is past due by {pastDue} (invoice {invoiceNumber}, due {dueDate}). If it is not paid, a lien may be placed on the contents of unit {unitNumber}, as your rental agreement and the law allow.\n\nPay at {portalUrl} or call us.${signOff}`,
  },
  access_restored: {
    subject: 'Your access is restored',
    body: `Hello {firstName},\n\nThank you for your payment. Your access to the facility and to unit {unitNumber} is restored, and your gate code works again.${signOff}`,
  },
  rent_change_notice: {
    subject: 'Your rent for unit {unitNumber} changes on {effectiveDate}',
    body: `Hello {firstName},\n\nThe monthly rent of unit {unitNumber} changes from {currentRate} to {newRate} on {effectiveDate}.\n\nQuestions? Reply to this message or see {portalUrl}.${signOff}`,
  },
  protection_enrolled: {
    subject: 'Unit {unitNumber} is now covered by {planName}',
    body: `Hello {firstName},\n\nWe have no protection plan and no proof of your own insurance on file for unit {unitNumber}, so your goods are now covered by our {planName} plan: up to {coverageAmount}, for {monthlyPremium} a month on your rent invoices from {effectiveDate}.\n\nIf you have insurance of your own, send us proof of it and we will take the plan off. Your account is at {portalUrl}.${signOff}`,
  },
};

const PLACEHOLDER = /\{([^{}\s]*)\}/g;

/** Placeholders used in the text that the product does not know, in order, once each. */
export function unknownPlaceholders(text: string): string[] {
  const known = new Set<string>(messagePlaceholders);
  const unknown: string[] = [];
  for (const match of text.matchAll(PLACEHOLDER)) {
    const name = match[1] ?? '';
    if (!known.has(name) && !unknown.includes(name)) unknown.push(name);
  }
  return unknown;
}

/** The text with each known {placeholder} replaced by its value (empty when the message has none). */
export function fill(text: string, values: MessageValues): string {
  return text.replace(PLACEHOLDER, (whole, name: string) =>
    (messagePlaceholders as readonly string[]).includes(name) ? (values[name as MessagePlaceholder] ?? '') : whole,
  );
}

export function renderTemplate(template: TemplateText, values: MessageValues): TemplateText {
  // A subject is one line, whatever a value holds.
  return {
    subject: fill(template.subject, values)
      .replace(/[\r\n]+/g, ' ')
      .trim(),
    body: fill(template.body, values),
  };
}

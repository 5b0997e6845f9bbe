import { dayInWords } from '@storage/contracts/day-words';
import { readStreamName, type StreamKind, type UniqueKeyKind } from '@storage/contracts/events';
import { messageTemplateLabels } from '@storage/contracts/messages';
import { BUSINESS_SETTINGS_SCOPE } from '@storage/contracts/settings';
import type { NamedKind, Names } from './readable.ts';

// The audit log's Entity column: what each stream stands for, in a manager's words ("Gate code ·
// Unit A-101, Jane Smith"), for every kind of stream the write side has ever written.

type Ref = { kind: NamedKind; id: string };

interface StreamWords {
  /** The ids in the stream's name whose names its words use (looked up in one batch for a page). */
  refs(parts: readonly string[]): Ref[];
  words(parts: readonly string[], names: Names): string;
}

/** "What · whose", or only what when whose is unknown (an entity no read table names). */
const of = (what: string, whose: string | undefined) => (whose ? `${what} · ${whose}` : what);

/** A stream of an entity of its own: "Unit A-101", "Customer Jane Smith". */
const entity = (kind: NamedKind, word: string): StreamWords => ({
  refs: ([id]) => [{ kind, id: id! }],
  words: ([id], names) => {
    const name = names(kind, id!);
    return name ? `${word} ${name}` : word;
  },
});

/** A stream kept for another entity, named by its id: "Delinquency · Jane Smith". */
const keptFor = (kind: NamedKind, what: string): StreamWords => ({
  refs: ([id]) => [{ kind, id: id! }],
  words: ([id], names) => of(what, names(kind, id!)),
});

/** A facility's name; null for none (written as 'none' or 'all'). */
const facilityRefs = (facilityId: string | undefined): Ref[] =>
  facilityId && facilityId !== 'none' && facilityId !== 'all' ? [{ kind: 'facility', id: facilityId }] : [];

/** A facility's day: "Billing day · Harbor Point Storage · Mar 5, 2026". */
const facilityDay = (what: string, noFacility: string): StreamWords => ({
  refs: ([facilityId]) => facilityRefs(facilityId),
  words: ([facilityId, day], names) => `${of(what, facilityId === 'none' ? noFacility : names('facility', facilityId!))} · ${dayInWords(day!)}`,
});

const uniqueKeyWords: Record<UniqueKeyKind, string> = {
  'customer-email': 'Customer email',
  'staff-email': 'Staff email',
  'unit-number': 'Unit number',
  'invoice-number': 'Invoice number',
  'facility-name': 'Facility name',
  'lock-serial': 'Lock ID',
  'gate-code': 'Gate code',
};

/** A gate code's key is `<facility or none>:<code>`, and the code is a secret: only the facility is named. */
const gateCodeFacility = (key: string) => key.split(':', 1)[0];

/** The words of each kind: a kind with none does not compile, and the unit test names every kind's words. */
const streamWords: Record<StreamKind, StreamWords> = {
  staff: entity('staff', 'Staff'),
  facility: entity('facility', 'Facility'),
  unit: entity('unit', 'Unit'),
  customer: entity('customer', 'Customer'),
  lease: keptFor('lease', 'Lease'),
  invoice: entity('invoice', 'Invoice'),
  merchandise: { refs: () => [], words: () => 'Merchandise item' },
  lock: entity('lock', 'Lock'),
  lockHeartbeats: keptFor('lock', 'Lock heartbeats'),
  reservation: keptFor('reservation', 'Reservation'),
  waitlistEntry: keptFor('waitlist', 'Waitlist entry'),
  notification: keptFor('notification', 'Notification'),
  notificationMarks: {
    refs: ([facilityId]) => facilityRefs(facilityId),
    words: ([facilityId], names) => of('Notifications marked read', facilityId === 'all' ? 'All facilities' : names('facility', facilityId!)),
  },
  settings: {
    refs: ([scope]) => (scope === BUSINESS_SETTINGS_SCOPE ? [] : [{ kind: 'facility', id: scope! }]),
    words: ([scope], names) => of('Settings', scope === BUSINESS_SETTINGS_SCOPE ? 'Business' : names('facility', scope!)),
  },
  account: keptFor('customer', 'Account'),
  billingDay: facilityDay('Billing day', 'No facility'),
  businessClock: { refs: () => [], words: () => 'Business clock' },
  delinquency: keptFor('customer', 'Delinquency'),
  gateCode: keptFor('lease', 'Gate code'),
  accessLog: facilityDay('Access log', 'No facility'),
  paymentProfile: keptFor('customer', 'Saved cards and autopay'),
  autopayCharges: {
    refs: ([invoiceId]) => [{ kind: 'invoice', id: invoiceId! }],
    words: ([invoiceId], names) => {
      const number = names('invoice', invoiceId!);
      return of('Autopay charges', number && `Invoice ${number}`);
    },
  },
  messageTemplate: {
    refs: () => [],
    words: ([key]) => of('Message template', messageTemplateLabels[key as keyof typeof messageTemplateLabels] ?? key),
  },
  uniqueKey: {
    refs: ([kind, key]) => (kind === 'gate-code' ? facilityRefs(gateCodeFacility(key!)) : []),
    words: ([kind, key], names) => {
      const what = `${uniqueKeyWords[kind as UniqueKeyKind]} reservation`;
      if (kind !== 'gate-code') return of(what, key);
      const facilityId = gateCodeFacility(key!);
      return of(what, facilityId === 'none' ? 'No facility' : names('facility', facilityId!));
    },
  },
  billingRun: { refs: () => [], words: () => 'Billing run' },
};

/** The ids whose names the words of these streams use. */
export function streamNameRefs(streamNames: readonly string[]): Ref[] {
  return streamNames.flatMap((name) => {
    const stream = readStreamName(name);
    return stream ? streamWords[stream.kind].refs(stream.parts) : [];
  });
}

/**
 * What a stream stands for, in words: "Unit A-101", "Gate code · Unit A-101, Jane Smith",
 * "Message template · Late notice"; the kind alone when its entity is gone from the read model,
 * and the name itself for a stream no release wrote (kept by the log as it came).
 */
export function streamEntityText(streamName: string, names: Names): string {
  const stream = readStreamName(streamName);
  return stream ? streamWords[stream.kind].words(stream.parts, names) : streamName;
}

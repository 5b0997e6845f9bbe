import { readStreamName, shownStreamName, streamKinds, streams, uniqueKeyKinds } from '@storage/contracts/events';
import { describe, expect, it } from 'vitest';
import type { Names } from './readable.ts';
import { streamEntityText, streamNameRefs } from './stream-words.ts';

const ids = {
  staff: '0a1b2c3d-1111-4222-8333-000000000001',
  facility: '0a1b2c3d-1111-4222-8333-000000000002',
  unit: '0a1b2c3d-1111-4222-8333-000000000003',
  customer: '0a1b2c3d-1111-4222-8333-000000000004',
  lease: '0a1b2c3d-1111-4222-8333-000000000005',
  invoice: '0a1b2c3d-1111-4222-8333-000000000006',
  lock: '0a1b2c3d-1111-4222-8333-000000000007',
  reservation: '0a1b2c3d-1111-4222-8333-000000000008',
  waitlist: '0a1b2c3d-1111-4222-8333-000000000009',
  notification: '0a1b2c3d-1111-4222-8333-00000000000a',
  merchandise: '0a1b2c3d-1111-4222-8333-00000000000b',
};
const known: Record<string, string> = {
  [`staff:${ids.staff}`]: 'Sam Staff',
  [`facility:${ids.facility}`]: 'Harbor Point Storage',
  [`unit:${ids.unit}`]: 'A-101',
  [`customer:${ids.customer}`]: 'Jane Doe',
  [`lease:${ids.lease}`]: 'Unit A-101, Jane Doe',
  [`invoice:${ids.invoice}`]: 'INV-0001',
  [`lock:${ids.lock}`]: 'LK-100',
  [`reservation:${ids.reservation}`]: 'Unit B-201, Ann Lee',
  [`waitlist:${ids.waitlist}`]: 'Wes Waiting',
  [`notification:${ids.notification}`]: 'Low battery: LK-100',
};
const names: Names = (kind, id) => known[`${kind}:${id}`];
const nothingKnown: Names = () => undefined;

/**
 * One stream of every kind the write side writes, and its words: adding a builder to `streams`
 * without a sample here does not compile, and without words it fails below.
 */
const examples: { [Kind in keyof typeof streams]: [name: ReturnType<(typeof streams)[Kind]>, words: string] } = {
  staff: [streams.staff(ids.staff), 'Staff Sam Staff'],
  facility: [streams.facility(ids.facility), 'Facility Harbor Point Storage'],
  unit: [streams.unit(ids.unit), 'Unit A-101'],
  customer: [streams.customer(ids.customer), 'Customer Jane Doe'],
  lease: [streams.lease(ids.lease), 'Lease · Unit A-101, Jane Doe'],
  invoice: [streams.invoice(ids.invoice), 'Invoice INV-0001'],
  merchandise: [streams.merchandise(ids.merchandise), 'Merchandise item'],
  lock: [streams.lock(ids.lock), 'Lock LK-100'],
  lockHeartbeats: [streams.lockHeartbeats(ids.lock), 'Lock heartbeats · LK-100'],
  reservation: [streams.reservation(ids.reservation), 'Reservation · Unit B-201, Ann Lee'],
  waitlistEntry: [streams.waitlistEntry(ids.waitlist), 'Waitlist entry · Wes Waiting'],
  notification: [streams.notification(ids.notification), 'Notification · Low battery: LK-100'],
  notificationMarks: [streams.notificationMarks(ids.facility), 'Notifications marked read · Harbor Point Storage'],
  settings: [streams.settings(ids.facility), 'Settings · Harbor Point Storage'],
  account: [streams.account(ids.customer), 'Account · Jane Doe'],
  billingDay: [streams.billingDay(ids.facility, '2026-03-05'), 'Billing day · Harbor Point Storage · Mar 5, 2026'],
  businessClock: [streams.businessClock(), 'Business clock'],
  delinquency: [streams.delinquency(ids.customer), 'Delinquency · Jane Doe'],
  gateCode: [streams.gateCode(ids.lease), 'Gate code · Unit A-101, Jane Doe'],
  accessLog: [streams.accessLog(ids.facility, '2026-03-05'), 'Access log · Harbor Point Storage · Mar 5, 2026'],
  paymentProfile: [streams.paymentProfile(ids.customer), 'Saved cards and autopay · Jane Doe'],
  autopayCharges: [streams.autopayCharges(ids.invoice), 'Autopay charges · Invoice INV-0001'],
  messageTemplate: [streams.messageTemplate('late_notice'), 'Message template · Late notice'],
  uniqueKey: [streams.uniqueKey('staff-email', 'sam@example.com'), 'Staff email reservation · sam@example.com'],
};

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

describe('the Entity column: every kind of stream in words', () => {
  it('has an example of every stream the write side names, each read back as its own kind', () => {
    expect(Object.keys(examples).sort()).toEqual(Object.keys(streams).sort());
    for (const [kind, [name]] of Object.entries(examples)) expect(readStreamName(name)?.kind, name).toBe(kind);
    // The kinds read back are the builders, and the retired ones an older history holds.
    expect(streamKinds.filter((kind) => !(kind in streams))).toEqual(['billingRun']);
  });

  it.each(Object.entries(examples))('names a %s stream in words', (_kind, [name, words]) => {
    expect(streamEntityText(name, names)).toBe(words);
  });

  it.each(Object.entries(examples))('names a %s stream in words when its entity is gone, never as an id', (_kind, [name]) => {
    const words = streamEntityText(name, nothingKnown);
    expect(words).not.toBe(name);
    expect(words).not.toMatch(UUID);
    expect(words.length).toBeGreaterThan(0);
  });

  it.each(uniqueKeyKinds)('names the claim of a unique %s', (kind) => {
    const name = streams.uniqueKey(kind, kind === 'gate-code' ? `${ids.facility}:1234567` : 'a-101');
    expect(readStreamName(name)).toEqual({ kind: 'uniqueKey', parts: [kind, expect.any(String)] });
    expect(streamEntityText(name, names)).toMatch(/^[A-Z][a-z]+( [A-Za-z]+)* reservation · /);
  });

  it('names a gate code claim by its facility, never its code, as the log shows it', () => {
    const shown = shownStreamName(streams.uniqueKey('gate-code', `${ids.facility}:1234567`));
    expect(shown).not.toContain('1234567');
    expect(streamEntityText(shown, names)).toBe('Gate code reservation · Harbor Point Storage');
    expect(streamEntityText(shownStreamName(streams.uniqueKey('gate-code', 'none:7654321')), names)).toBe('Gate code reservation · No facility');
  });

  it('names the business, all facilities and no facility where a stream is kept for none', () => {
    expect(streamEntityText(streams.settings('business'), names)).toBe('Settings · Business');
    expect(streamEntityText(streams.notificationMarks(null), names)).toBe('Notifications marked read · All facilities');
    expect(streamEntityText(streams.billingDay(null, '2026-03-05'), names)).toBe('Billing day · No facility · Mar 5, 2026');
    expect(streamEntityText(streams.messageTemplate('some_new_message'), names)).toBe('Message template · some_new_message');
  });

  it('names the billing runs an earlier release wrote, and shows a stream no release wrote as it is', () => {
    expect(streamEntityText(`billing-run-${ids.facility}`, names)).toBe('Billing run');
    expect(streamEntityText('something-else-entirely', names)).toBe('something-else-entirely');
  });

  it('asks for the names its words use, in one list', () => {
    expect(
      streamNameRefs([streams.gateCode(ids.lease), streams.settings('business'), streams.billingDay(ids.facility, '2026-03-05'), 'no-such-stream']),
    ).toEqual([
      { kind: 'lease', id: ids.lease },
      { kind: 'facility', id: ids.facility },
    ]);
  });
});

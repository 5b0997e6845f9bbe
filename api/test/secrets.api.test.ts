// Credentials and secrets never enter what anyone reads of the history. One event of EVERY type
// is appended, each declared secret field holding a marker, with legacy v1 staff events that still
// carry a password hash (as stored before migration 012, or on an EventStoreDB whose events cannot
// be rewritten); then every surface that shows event data is read, as an owner and as an auditor:
// per-entity history (with asOf), the audit log and its CSV export, and the read model (the audit
// log's own table among it) after a rebuild and a verify. No marker may appear.

import { randomUUID } from 'node:crypto';
import { type DomainEvent, type EventType, eventTypes, secretFields, streams } from '@storage/contracts/events';
import { HistoryStreamType } from '@storage/contracts/history';
import { NO_UNIT_FEATURES } from '@storage/contracts/unit-features';
import { envelope } from '@storage/domain/commands/handle';
import type { EventStore, Position } from '@storage/eventstore/port';
import { readModelProjections } from '@storage/projector/projections';
import { rebuildReadModel } from '@storage/projector/rebuild';
import { describeDifference, verifyReadModel } from '@storage/projector/verify';
import { startTestPlatform, type TestPlatform } from '@storage/testing/platform';
import { sql } from 'slonik';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

const MARKER = 'SECRET-MARKER-7f3a9c';
const LEGACY_HASH = `scrypt$32768$8$1$${MARKER}-legacy$c2VjcmV0`;

const id = () => randomUUID();
const ids = {
  facility: id(),
  unit: id(),
  unit2: id(),
  customer: id(),
  lease: id(),
  lease2: id(),
  invoice: id(),
  invoice2: id(),
  payment: id(),
  lock: id(),
  reservation: id(),
  reservation2: id(),
  reservation3: id(),
  waitlist: id(),
  notification: id(),
  staff: id(),
  legacyStaff: id(),
  credential: id(),
  credential2: id(),
  factor: id(),
  billingRun: id(),
  note: id(),
  credit: id(),
  creditApplication: id(),
  receipt: id(),
  portalReceipt: id(),
  refund: id(),
  creditRefund: id(),
  attempt: id(),
  autopayAttempt: id(),
  paymentMethod: id(),
  rentChange: id(),
  plan: id(),
  promotion: id(),
};

const MERCHANDISE_ITEM = '6d1f0c2e-8b7a-4c3d-9e2f-1a0b9c8d7e6f';
const MERCHANDISE_SALE = '7e2a1d3f-9c8b-4d4e-8f3a-2b1c0d9e8f70';

/** One event of every type, in an order the projections accept, with its stream. A new type fails to compile until it is added here. */
const samples: { [T in EventType]: { stream: string; data: Extract<DomainEvent, { type: T }>['data'] } } = {
  facility_added: {
    stream: streams.facility(ids.facility),
    data: { facilityId: ids.facility, name: 'Secret Storage', address: '1 Way', phone: null, managerName: null, timeZone: 'UTC' },
  },
  facility_updated: { stream: streams.facility(ids.facility), data: { facilityId: ids.facility, changes: { phone: '555-0100' } } },
  gateway_key_rotated: { stream: streams.facility(ids.facility), data: { facilityId: ids.facility, keyHash: 'placeholder', keyPrefix: 'gk_1234' } },
  unit_added: {
    stream: streams.unit(ids.unit),
    data: {
      unitId: ids.unit,
      facilityId: ids.facility,
      unitNumber: 'S-1',
      building: 'A',
      size: '10x10',
      monthlyRate: '100.00',
      status: 'available',
      description: null,
      features: NO_UNIT_FEATURES,
    },
  },
  customer_added: {
    stream: streams.customer(ids.customer),
    data: {
      customerId: ids.customer,
      firstName: 'Sam',
      lastName: 'Secret',
      email: 'sam@secret.test',
      phone: null,
      address: null,
      emergencyContact: null,
      emergencyPhone: null,
      status: 'active',
      facilityId: ids.facility,
    },
  },
  customer_updated: { stream: streams.customer(ids.customer), data: { customerId: ids.customer, changes: { phone: '555-0101' } } },
  lease_started: {
    stream: streams.lease(ids.lease),
    data: {
      leaseId: ids.lease,
      customerId: ids.customer,
      unitId: ids.unit,
      facilityId: ids.facility,
      startDate: '2026-01-01',
      monthlyRate: '100.00',
      depositAmount: null,
    },
  },
  unit_features_changed: {
    stream: streams.unit(ids.unit),
    data: { unitId: ids.unit, features: { climateControlled: true, driveUp: false, floor: 2, lockType: 'smart' } },
  },
  unit_status_changed: {
    stream: streams.unit(ids.unit),
    data: { unitId: ids.unit, status: 'occupied', reason: null, leaseId: ids.lease, reservationId: null },
  },
  invoice_generated: {
    stream: streams.invoice(ids.invoice),
    data: {
      invoiceId: ids.invoice,
      invoiceNumber: 'INV-S1',
      customerId: ids.customer,
      leaseId: ids.lease,
      amount: '100.00',
      dueDate: '2026-02-01',
      status: 'draft',
      description: null,
      lines: [{ kind: 'rent', description: 'Rent', amount: '100.00', periodStart: '2026-02-01', periodEnd: '2026-02-28' }],
    },
  },
  invoice_sent: { stream: streams.invoice(ids.invoice), data: { invoiceId: ids.invoice, sentOn: '2026-01-27' } },
  invoice_overdue: { stream: streams.invoice(ids.invoice), data: { invoiceId: ids.invoice, customerId: ids.customer } },
  payment_received: {
    stream: streams.invoice(ids.invoice),
    data: {
      paymentId: ids.payment,
      invoiceId: ids.invoice,
      customerId: ids.customer,
      amount: '100.00',
      method: 'card',
      paidDate: '2026-02-02',
      stripePaymentIntentId: null,
      reference: null,
      receiptId: null,
      invoiceStatus: 'paid',
      openBalance: '0.00',
    },
  },
  payment_refunded: {
    stream: streams.invoice(ids.invoice),
    data: {
      paymentId: ids.payment,
      invoiceId: ids.invoice,
      customerId: ids.customer,
      amount: '100.00',
      stripePaymentIntentId: 'pi_secret_test',
      refundId: 're_secret_test',
      reason: 'invoice_already_paid',
    },
  },
  payment_refund_requested: {
    stream: streams.invoice(ids.invoice),
    data: {
      refundId: ids.refund,
      paymentId: ids.payment,
      invoiceId: ids.invoice,
      customerId: ids.customer,
      amount: '20.00',
      method: 'card',
      reason: 'Gate was broken',
      refundDate: '2026-02-03',
    },
  },
  payment_refund_issued: {
    stream: streams.invoice(ids.invoice),
    data: {
      refundId: ids.refund,
      paymentId: ids.payment,
      invoiceId: ids.invoice,
      customerId: ids.customer,
      amount: '20.00',
      method: 'card',
      reason: 'Gate was broken',
      refundDate: '2026-02-03',
      providerRefundId: 're_secret_staff',
      invoiceStatus: 'sent',
    },
  },
  invoice_cancelled: { stream: streams.invoice(ids.invoice), data: { invoiceId: ids.invoice, reason: 'Entered twice' } },
  lock_installed: {
    stream: streams.lock(ids.lock),
    data: { lockId: ids.lock, serial: 'L-S1', unitId: ids.unit, status: 'active', batteryLevel: 90, firmwareVersion: null },
  },
  lock_heartbeat_received: { stream: streams.lock(ids.lock), data: { lockId: ids.lock, batteryLevel: 80, firmwareVersion: '1.0' } },
  lock_battery_low: { stream: streams.lock(ids.lock), data: { lockId: ids.lock, batteryLevel: 10 } },
  lock_status_changed: { stream: streams.lock(ids.lock), data: { lockId: ids.lock, status: 'maintenance' } },
  lock_assigned: { stream: streams.lock(ids.lock), data: { lockId: ids.lock, unitId: null } },
  access_granted: { stream: streams.lock(ids.lock), data: { lockId: ids.lock, unitId: ids.unit, customerId: ids.customer, method: 'keypad' } },
  reservation_submitted: {
    stream: streams.reservation(ids.reservation),
    data: { reservationId: ids.reservation, unitId: ids.unit2, customerId: ids.customer, contact: null, moveInDate: '2026-03-01', specialRequests: null },
  },
  reservation_conversion_started: {
    stream: streams.reservation(ids.reservation),
    data: {
      reservationId: ids.reservation,
      leaseId: ids.lease,
      customerId: ids.customer,
      unitId: ids.unit2,
      startDate: '2026-03-01',
      monthlyRate: '100.00',
      depositAmount: null,
      protectionPlanId: null,
      promotionId: null,
      channel: 'desk',
    },
  },
  reservation_checkout_started: {
    stream: streams.reservation(ids.reservation),
    data: {
      reservationId: ids.reservation,
      paymentIntentId: 'pi_test_secret',
      amount: '10.00',
      startDate: '2026-03-01',
      protectionPlanId: null,
      promotionId: null,
    },
  },
  reservation_checkout_refunded: {
    stream: streams.reservation(ids.reservation),
    data: { reservationId: ids.reservation, paymentIntentId: 'pi_test_secret', refundId: 're_test', amount: '10.00', reason: 'test' },
  },
  reservation_conversion_abandoned: {
    stream: streams.reservation(ids.reservation),
    data: { reservationId: ids.reservation, leaseId: ids.lease2, reason: 'test' },
  },
  reservation_submission_abandoned: { stream: streams.reservation(ids.reservation3), data: { reservationId: ids.reservation3, unitId: ids.unit2 } },
  lease_start_abandoned: { stream: streams.lease(ids.lease2), data: { leaseId: ids.lease2, unitId: ids.unit2, reason: 'test' } },
  reservation_converted: { stream: streams.reservation(ids.reservation), data: { reservationId: ids.reservation, leaseId: ids.lease } },
  reservation_cancelled: { stream: streams.reservation(ids.reservation2), data: { reservationId: ids.reservation2, unitId: ids.unit2, reason: null } },
  reservation_expired: { stream: streams.reservation(ids.reservation3), data: { reservationId: ids.reservation3, unitId: ids.unit2 } },
  waitlist_joined: {
    stream: streams.waitlistEntry(ids.waitlist),
    data: { entryId: ids.waitlist, firstName: 'Wes', lastName: 'Wait', email: 'wes@secret.test', phone: '555-0102', size: null, facilityId: ids.facility },
  },
  notification_read: { stream: streams.notification(ids.notification), data: { notificationId: ids.notification } },
  notifications_marked_read: { stream: streams.notificationMarks(null), data: { facilityId: null } },
  business_profile_updated: { stream: streams.settings('business'), data: { scope: 'business', name: 'Secret Storage', phone: null, email: null } },
  notification_preferences_updated: {
    stream: streams.settings('business'),
    data: { scope: 'business', overduePaymentAlerts: true, lowBatteryAlerts: true, newCustomerAlerts: true },
  },
  payment_settings_updated: { stream: streams.settings('business'), data: { scope: 'business', automaticCharging: true, lateFeeAmount: '25.00' } },
  billing_settings_updated: { stream: streams.settings(ids.facility), data: { scope: ids.facility, settings: null } },
  invoice_line_added: {
    stream: streams.invoice(ids.invoice),
    data: {
      invoiceId: ids.invoice,
      customerId: ids.customer,
      line: { kind: 'late_fee', description: 'Late fee', amount: '25.00', periodStart: null, periodEnd: null },
      amount: '125.00',
    },
  },
  lease_rent_billed: {
    stream: streams.lease(ids.lease),
    data: { leaseId: ids.lease, invoiceId: ids.invoice, periodStart: '2026-02-01', periodEnd: '2026-02-28' },
  },
  account_credited: {
    stream: streams.account(ids.customer),
    data: { customerId: ids.customer, creditId: ids.credit, amount: '10.00', reason: 'Goodwill', receiptId: null },
  },
  desk_payment_received: {
    stream: streams.account(ids.customer),
    data: {
      customerId: ids.customer,
      receiptId: ids.receipt,
      amount: '30.00',
      method: 'check',
      reference: '1042',
      allocations: [{ invoiceId: ids.invoice, amount: '20.00' }],
      credit: '10.00',
    },
  },
  portal_payment_received: {
    stream: streams.account(ids.customer),
    data: {
      customerId: ids.customer,
      receiptId: ids.portalReceipt,
      amount: '30.00',
      stripePaymentIntentId: 'pi_test_secret_check',
      allocations: [{ invoiceId: ids.invoice, amount: '20.00' }],
      credit: '10.00',
    },
  },
  account_credit_refunded: {
    stream: streams.account(ids.customer),
    data: { customerId: ids.customer, refundId: ids.creditRefund, amount: '5.00', method: 'cash', reference: null, reason: 'Moved away' },
  },
  account_invoice_listed: { stream: streams.account(ids.customer), data: { customerId: ids.customer, invoiceId: ids.invoice } },
  account_credit_applied: {
    stream: streams.account(ids.customer),
    data: { customerId: ids.customer, applicationId: ids.creditApplication, invoiceId: ids.invoice, amount: '10.00' },
  },
  invoice_written_off: {
    stream: streams.invoice(ids.invoice),
    data: { invoiceId: ids.invoice, customerId: ids.customer, amount: '15.00', reason: 'Moved away, unreachable' },
  },
  customer_note_added: { stream: streams.customer(ids.customer), data: { customerId: ids.customer, noteId: ids.note, text: 'Prefers calls after 5 pm' } },
  customer_standing_changed: {
    stream: streams.customer(ids.customer),
    data: { customerId: ids.customer, status: 'overdue', reason: 'Invoice INV-S1 is overdue' },
  },
  business_day_advanced: { stream: streams.businessClock(), data: { date: '2027-03-01', from: '2026-11-29' } },
  billing_run_completed: {
    stream: streams.billingDay(ids.facility, '2026-02-11'),
    data: {
      runId: ids.billingRun,
      facilityId: ids.facility,
      billingDate: '2026-02-11',
      invoicesIssued: 0,
      lateFeesCharged: 1,
      invoicesOverdue: 1,
      skipped: [],
    },
  },
  delinquency_settings_updated: {
    stream: streams.settings('business'),
    data: { scope: 'business', steps: [{ kind: 'lockout', day: 15, threshold: '0.00' }] },
  },
  delinquency_step_taken: {
    stream: streams.delinquency(ids.customer),
    data: { customerId: ids.customer, kind: 'lockout', day: 15, invoiceId: ids.invoice, date: '2026-02-16', pastDue: '125.00' },
  },
  delinquency_paused: {
    stream: streams.delinquency(ids.customer),
    data: { customerId: ids.customer, until: '2026-02-20', reason: 'Promised to pay on Friday' },
  },
  delinquency_resumed: { stream: streams.delinquency(ids.customer), data: { customerId: ids.customer, reason: 'Did not pay' } },
  delinquency_cleared: {
    stream: streams.delinquency(ids.customer),
    data: { customerId: ids.customer, date: '2026-02-21', pastDue: '0.00', reason: 'Paid' },
  },
  gate_code_assigned: {
    stream: streams.gateCode(ids.lease),
    data: { leaseId: ids.lease, customerId: ids.customer, facilityId: ids.facility, code: '4829173', reason: 'move_in' },
  },
  gate_code_suspended: { stream: streams.gateCode(ids.lease), data: { leaseId: ids.lease, customerId: ids.customer, reason: 'lockout' } },
  gate_code_reinstated: { stream: streams.gateCode(ids.lease), data: { leaseId: ids.lease, customerId: ids.customer, reason: 'Paid' } },
  gate_code_activated: { stream: streams.gateCode(ids.lease), data: { leaseId: ids.lease, customerId: ids.customer } },
  lock_desired_state_changed: {
    stream: streams.lock(ids.lock),
    data: { lockId: ids.lock, unitId: ids.unit, customerId: ids.customer, desired: 'overlocked', reason: 'Lockout' },
  },
  lock_state_reported: { stream: streams.lock(ids.lock), data: { lockId: ids.lock, reported: 'overlocked' } },
  access_attempted: {
    stream: streams.accessLog(ids.facility, '2026-02-16'),
    data: {
      attemptId: ids.attempt,
      facilityId: ids.facility,
      lockId: null,
      leaseId: ids.lease,
      customerId: ids.customer,
      via: 'gate_code',
      granted: false,
      reason: 'Gate code suspended',
      at: '2026-02-16T10:00:00.000Z',
    },
  },
  payment_method_saved: {
    stream: streams.paymentProfile(ids.customer),
    data: {
      customerId: ids.customer,
      paymentMethodId: ids.paymentMethod,
      provider: 'test',
      providerCustomerId: 'cus_test',
      providerPaymentMethodId: 'pm_test',
      brand: 'visa',
      last4: '4242',
      expMonth: 12,
      expYear: 2030,
    },
  },
  autopay_enrolled: { stream: streams.paymentProfile(ids.customer), data: { customerId: ids.customer, paymentMethodId: ids.paymentMethod } },
  autopay_charge_attempted: {
    stream: streams.autopayCharges(ids.invoice),
    data: { attemptId: ids.autopayAttempt, customerId: ids.customer, invoiceId: ids.invoice, attempt: 1, amount: '125.00', date: '2026-02-01' },
  },
  autopay_charge_failed: {
    stream: streams.autopayCharges(ids.invoice),
    data: {
      attemptId: ids.autopayAttempt,
      customerId: ids.customer,
      invoiceId: ids.invoice,
      attempt: 1,
      amount: '125.00',
      reason: 'Your card was declined.',
      requiresAction: false,
      nextAttemptOn: '2026-02-02',
    },
  },
  autopay_charge_succeeded: {
    stream: streams.autopayCharges(ids.invoice),
    data: {
      attemptId: ids.autopayAttempt,
      customerId: ids.customer,
      invoiceId: ids.invoice,
      attempt: 2,
      amount: '125.00',
      stripePaymentIntentId: 'pi_autopay',
    },
  },
  autopay_cancelled: { stream: streams.paymentProfile(ids.customer), data: { customerId: ids.customer, reason: 'Turned off in the portal' } },
  payment_method_removed: { stream: streams.paymentProfile(ids.customer), data: { customerId: ids.customer, paymentMethodId: ids.paymentMethod } },
  message_template_updated: {
    stream: streams.messageTemplate('late_notice'),
    data: { templateKey: 'late_notice', template: { subject: 'Your rent is late', body: 'Dear {firstName}, please pay {pastDue}.' } },
  },
  customer_message_preferences_updated: { stream: streams.customer(ids.customer), data: { customerId: ids.customer, optOuts: ['invoice_issued'] } },
  lease_rent_change_scheduled: {
    stream: streams.lease(ids.lease),
    data: {
      leaseId: ids.lease,
      customerId: ids.customer,
      changeId: ids.rentChange,
      currentRate: '100.00',
      newRate: '110.00',
      noticeDate: '2026-02-01',
      effectiveDate: '2026-03-03',
      reason: null,
    },
  },
  lease_rent_change_cancelled: { stream: streams.lease(ids.lease), data: { leaseId: ids.lease, changeId: ids.rentChange, reason: 'Rate kept' } },
  protection_settings_updated: {
    stream: streams.settings(ids.facility),
    data: {
      scope: ids.facility,
      settings: {
        plans: [{ planId: ids.plan, name: 'Basic', coverageAmount: '2000.00', monthlyPremium: '12.00' }],
        defaultPlanId: ids.plan,
        enrollAfterDays: 30,
      },
    },
  },
  lease_terms_updated: {
    stream: streams.settings(ids.facility),
    data: { facilityId: ids.facility, terms: { additionalTerms: ['The tenant must keep the unit locked with a lock of their own when not present.'] } },
  },
  promotions_updated: {
    stream: streams.settings('business'),
    data: {
      scope: 'business',
      promotions: [
        {
          promotionId: ids.promotion,
          name: 'First month free',
          terms: { kind: 'percent_off', percent: '100', months: 1 },
          channel: 'both',
          facilityIds: [],
          unitSizes: [],
          startsOn: null,
          endsOn: null,
          active: true,
        },
      ],
    },
  },
  lease_protection_changed: {
    stream: streams.lease(ids.lease),
    data: {
      leaseId: ids.lease,
      customerId: ids.customer,
      protection: { planId: ids.plan, name: 'Basic', coverageAmount: '2000.00', monthlyPremium: '12.00' },
      effectiveDate: '2026-02-01',
      reason: 'changed_by_staff',
    },
  },
  lease_insurance_proof_recorded: {
    stream: streams.lease(ids.lease),
    data: { leaseId: ids.lease, customerId: ids.customer, carrier: 'Acme Mutual', policyNumber: 'P-1', expiresOn: '2027-01-01' },
  },
  lease_promotion_applied: {
    stream: streams.lease(ids.lease),
    data: {
      leaseId: ids.lease,
      customerId: ids.customer,
      promotion: { promotionId: ids.promotion, name: 'First month free', terms: { kind: 'percent_off', percent: '100', months: 1 } },
    },
  },
  lease_move_out_scheduled: {
    stream: streams.lease(ids.lease),
    data: {
      leaseId: ids.lease,
      customerId: ids.customer,
      unitId: ids.unit,
      endDate: '2026-05-31',
      scheduledOn: '2026-05-02',
      deposit: 'return',
      depositMethod: 'check',
    },
  },
  lease_move_out_cancelled: {
    stream: streams.lease(ids.lease),
    data: { leaseId: ids.lease, customerId: ids.customer, unitId: ids.unit, endDate: '2026-05-31', cancelledOn: '2026-05-20', reason: 'Staying on' },
  },
  lease_signed: {
    stream: streams.lease(ids.lease),
    data: {
      leaseId: ids.lease,
      customerId: ids.customer,
      signerName: 'Ada Lovelace',
      mark: 'M 10 10 L 20 20',
      signedAt: '2026-05-02T15:00:00.000Z',
      ipAddress: '203.0.113.7',
      userAgent: 'Mozilla/5.0',
      documentSha256: 'a'.repeat(64),
      channel: 'desk',
      document: { leaseId: ids.lease, title: 'Storage Unit Lease Agreement', sections: [], termsAndConditions: [], signatures: [] },
    },
  },
  merchandise_item_added: {
    stream: streams.merchandise(MERCHANDISE_ITEM),
    data: { itemId: MERCHANDISE_ITEM, facilityId: ids.facility, name: 'Disc lock', price: '24.99', taxable: true, stock: 5 },
  },
  merchandise_item_changed: {
    stream: streams.merchandise(MERCHANDISE_ITEM),
    data: { itemId: MERCHANDISE_ITEM, facilityId: ids.facility, name: 'Disc lock', price: '21.99', taxable: true, active: true },
  },
  merchandise_restocked: {
    stream: streams.merchandise(MERCHANDISE_ITEM),
    data: { itemId: MERCHANDISE_ITEM, facilityId: ids.facility, quantity: 3, stockAfter: 8 },
  },
  merchandise_stock_adjusted: {
    stream: streams.merchandise(MERCHANDISE_ITEM),
    data: { itemId: MERCHANDISE_ITEM, facilityId: ids.facility, stockBefore: 8, stockAfter: 7, reason: 'One damaged' },
  },
  merchandise_sold: {
    stream: streams.merchandise(MERCHANDISE_ITEM),
    data: {
      itemId: MERCHANDISE_ITEM,
      facilityId: ids.facility,
      saleId: MERCHANDISE_SALE,
      quantity: 2,
      customerId: ids.customer,
      invoiceId: ids.invoice,
      name: 'Disc lock',
      price: '21.99',
      taxable: true,
      stockAfter: 5,
    },
  },
  merchandise_sale_undone: {
    stream: streams.merchandise(MERCHANDISE_ITEM),
    data: { itemId: MERCHANDISE_ITEM, facilityId: ids.facility, saleId: MERCHANDISE_SALE, quantity: 2, stockAfter: 7, reason: 'Sale not completed' },
  },
  unique_key_claimed: { stream: streams.uniqueKey('facility-name', 'secret-test-k'), data: { ownerStream: streams.customer(ids.customer) } },
  unique_key_released: { stream: streams.uniqueKey('facility-name', 'secret-test-k'), data: { ownerStream: streams.customer(ids.customer) } },
  lease_ended: { stream: streams.lease(ids.lease), data: { leaseId: ids.lease, customerId: ids.customer, unitId: ids.unit, endDate: '2026-06-30' } },
  lease_deposit_settled: {
    stream: streams.lease(ids.lease),
    data: { leaseId: ids.lease, customerId: ids.customer, amount: '50.00', disposition: 'returned', method: 'check' },
  },
  customer_lease_listed: { stream: streams.customer(ids.customer), data: { customerId: ids.customer, leaseId: ids.lease, unitId: ids.unit } },
  customer_archived: { stream: streams.customer(ids.customer), data: { customerId: ids.customer } },
  customer_restored: { stream: streams.customer(ids.customer), data: { customerId: ids.customer } },
  staff_registered: {
    stream: streams.staff(ids.staff),
    data: { staffId: ids.staff, email: 'sid@secret.test', firstName: 'Sid', lastName: 'Staff', role: 'clerk', credentialId: ids.credential },
  },
  staff_password_changed: { stream: streams.staff(ids.staff), data: { staffId: ids.staff, credentialId: ids.credential2 } },
  staff_role_changed: { stream: streams.staff(ids.staff), data: { staffId: ids.staff, role: 'manager' } },
  staff_deactivated: { stream: streams.staff(ids.staff), data: { staffId: ids.staff } },
  staff_reactivated: { stream: streams.staff(ids.staff), data: { staffId: ids.staff } },
  staff_two_factor_enabled: { stream: streams.staff(ids.staff), data: { staffId: ids.staff, factorId: ids.factor } },
  staff_two_factor_disabled: { stream: streams.staff(ids.staff), data: { staffId: ids.staff, factorId: ids.factor } },
  staff_two_factor_reset: { stream: streams.staff(ids.staff), data: { staffId: ids.staff, factorId: ids.factor } },
  security_settings_updated: { stream: streams.settings(ids.facility), data: { scope: ids.facility, twoFactorRequired: true } },
};

/** Every declared secret field of the sample holds the marker. */
function withSecretsMarked<T extends EventType>(type: T, data: Record<string, unknown>): Record<string, unknown> {
  const marked = { ...data };
  for (const field of (secretFields[type] ?? []) as readonly string[]) marked[field] = `${MARKER}-${type}-${field}`;
  return marked;
}

describe('no secret in any reading of the history', () => {
  let platform: TestPlatform;
  let owner: string;
  let auditor: string;
  let store: EventStore;

  beforeAll(async () => {
    platform = await startTestPlatform();
    store = platform.api.store;
    [owner, auditor] = [await platform.signIn('owner'), await platform.signIn('auditor')];
    const ctx = { store, actor: { type: 'system' } as const, correlationId: randomUUID(), now: new Date() };
    let last: Position | null = null;
    const revisions = new Map<string, bigint>();
    for (const type of Object.keys(samples) as EventType[]) {
      const { stream, data } = samples[type];
      const event = envelope(ctx, { type, data: withSecretsMarked(type, data) } as DomainEvent);
      const revision = revisions.get(stream);
      const result = await store.append(stream, [event], { expectedRevision: revision ?? 'no_stream' });
      revisions.set(stream, result.nextRevision);
      last = result.position;
    }
    // A staff member's history as stored before issue 9: v1 events carrying the hash.
    const legacy = (type: 'staff_registered' | 'staff_password_changed', data: Record<string, unknown>) => ({
      ...envelope(ctx, { type, data } as DomainEvent),
      data,
      metadata: { ...envelope(ctx, { type, data } as DomainEvent).metadata, schemaVersion: 1 },
    });
    const result = await store.append(
      streams.staff(ids.legacyStaff),
      [
        legacy('staff_registered', {
          staffId: ids.legacyStaff,
          email: 'lee@legacy.test',
          firstName: 'Lee',
          lastName: 'Legacy',
          role: 'manager',
          passwordHash: LEGACY_HASH,
        }),
        legacy('staff_password_changed', { staffId: ids.legacyStaff, passwordHash: `${LEGACY_HASH}-2` }),
      ],
      { expectedRevision: 'no_stream' },
    );
    last = result.position;
    expect(await platform.api.afterAppend(last!, 30_000)).toBe(true);
  }, 120_000);

  afterAll(async () => {
    await platform?.close();
  });

  it('has appended one event of every type, and the stored data does hold the markers (the test would see a leak)', async () => {
    const stored = await store.readAll({ after: null, limit: 10_000 });
    expect(new Set(stored.map((e) => e.type))).toEqual(new Set(eventTypes));
    expect(JSON.stringify(stored.map((e) => e.data))).toContain(MARKER);
  });

  const get = (url: string, cookie: string) => platform.api.app.inject({ method: 'GET', url, headers: { cookie } });

  it('per-entity history of every entity, with and without asOf, for owners and auditors', async () => {
    const entities: Record<HistoryStreamType, string[]> = {
      customer: [ids.customer],
      unit: [ids.unit],
      lease: [ids.lease],
      invoice: [ids.invoice],
      lock: [ids.lock],
      facility: [ids.facility],
      staff: [ids.staff, ids.legacyStaff],
    };
    expect(Object.keys(entities).sort()).toEqual([...HistoryStreamType.options].sort());
    const asOf = new Date(Date.now() + 60_000).toISOString();
    for (const cookie of [owner, auditor]) {
      for (const [streamType, entityIds] of Object.entries(entities)) {
        for (const entityId of entityIds) {
          for (const url of [`/api/history/${streamType}/${entityId}`, `/api/history/${streamType}/${entityId}?asOf=${encodeURIComponent(asOf)}`]) {
            const response = await get(url, cookie);
            expect(response.statusCode, url).toBe(200);
            expect(response.body, url).not.toContain(MARKER);
            expect(response.body, url).not.toContain('scrypt');
          }
        }
      }
      const invoiceHistory = await get(`/api/invoices/${ids.invoice}`, cookie);
      expect(invoiceHistory.body).not.toContain(MARKER);
    }
    // The legacy member's history still tells what happened.
    const legacy = await get(`/api/history/staff/${ids.legacyStaff}`, owner);
    expect(legacy.json().events.map((e: { type: string }) => e.type)).toEqual(['staff_registered', 'staff_password_changed']);
  });

  it('the audit log (JSON and CSV) for owners and auditors, with the secret fields shown as redacted', async () => {
    for (const cookie of [owner, auditor]) {
      const page = await get('/api/audit/events?pageSize=200', cookie);
      expect(page.statusCode).toBe(200);
      expect(page.body).not.toContain(MARKER);
      expect(page.body).not.toContain('scrypt');
      const events = page.json() as { type: string; data: Record<string, unknown> }[];
      expect(new Set(events.map((e) => e.type))).toEqual(new Set(eventTypes));
      expect(events.find((e) => e.type === 'gateway_key_rotated')!.data).toMatchObject({ keyHash: '[redacted]', keyPrefix: 'gk_1234' });
      for (const type of ['staff_registered', 'staff_password_changed']) {
        const filtered = await get(`/api/audit/events?type=${type}&pageSize=200`, cookie);
        expect(filtered.body).not.toContain(MARKER);
      }
      const csv = await get('/api/audit/events.csv', cookie);
      expect(csv.statusCode).toBe(200);
      expect(csv.body).toContain('gateway_key_rotated');
      expect(csv.body).not.toContain(MARKER);
      expect(csv.body).not.toContain('scrypt');
    }
  });

  /** Every row of every read table as text, but the gateway key lookup (a hash the gateways' keys are matched on, never shown). */
  async function readModelText(): Promise<string> {
    const tables = await platform.api.pool.anyFirst(sql.type(z.object({ table_name: z.string() }))`
      SELECT table_name::text FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name NOT IN ('staff_credentials', 'schema_migrations')`);
    const parts: string[] = [];
    for (const table of tables) {
      const rows = await platform.api.pool.anyFirst(
        sql.type(z.object({ row: z.unknown() }))`SELECT to_jsonb(t) - 'key_hash' AS row FROM ${sql.identifier(['public', table])} t`,
      );
      parts.push(`${table}: ${JSON.stringify(rows)}`);
    }
    return parts.join('\n');
  }

  it('the read model, the activity feed, a verify and a rebuild', async () => {
    expect(await readModelText()).not.toContain(MARKER);
    const activities = await get('/api/activities?pageSize=200', owner);
    expect(activities.body).not.toContain(MARKER);

    const verification = await verifyReadModel(platform.api.pool, store, readModelProjections);
    expect(verification.differences.map(describeDifference)).toEqual([]);
    expect(JSON.stringify(verification)).not.toContain(MARKER);

    const build = await rebuildReadModel(platform.api.pool, store, readModelProjections);
    expect(build.eventsApplied).toBeGreaterThan(eventTypes.length);
    expect(await readModelText()).not.toContain(MARKER);
  }, 120_000);
});

// The demo dataset of a first start: three facilities and six months of their history, written
// through the API's own command functions so that every event is one the product itself writes.

import { defaultBillingSettings } from '@storage/contracts/billing';
import type { CreateCustomerCommand } from '@storage/contracts/customers';
import type { PaymentMethod, UnitSize } from '@storage/contracts/enums';
import { recordRentBilled } from '@storage/domain/billing/lease-billing';
import type { CommandContext } from '@storage/domain/commands/handle';
import { addCustomer, updateCustomer } from '@storage/domain/customers/commands';
import { addFacility, updateFacility } from '@storage/domain/facilities/commands';
import { cancelInvoice, generateInvoice, markCustomerOverdue, markInvoiceOverdue, recordPayment, sendInvoice } from '@storage/domain/invoices/commands';
import { endLease, startLease } from '@storage/domain/leases/commands';
import { LOW_BATTERY_LEVEL } from '@storage/domain/locks/businessLogic';
import { assignLock, changeLockStatus, grantAccess, installLock, recordLockHeartbeat } from '@storage/domain/locks/commands';
import { updateBillingSettings, updateBusinessProfile } from '@storage/domain/settings/commands';
import { addUnit, changeUnitStatus } from '@storage/domain/units/commands';
import type { Actor, EventStore } from '@storage/eventstore/port';
import { EMAIL_DOMAINS, FIRST_NAMES, LAST_NAMES, STREETS } from './people.ts';
import { Dice, mulberry32 } from './random.ts';

export const DEMO_STAFF = { email: 'owner@demo.test', firstName: 'Olivia', lastName: 'Owner', role: 'owner' } as const;

/** The demo business as Settings → Business Profile shows it, and as renters are told to contact it. */
export const DEMO_BUSINESS = { name: 'Pacific Northwest Storage Co.', phone: '(503) 555-0199', email: 'office@pnw-storage.example' } as const;

const DEFAULT_SEED = 20_250_601;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const SYSTEM: Actor = { type: 'system' };
const LATE_FEE = '25.00';
const FIRMWARE_UPGRADE = '2.4.0';

type FormSize = Extract<UnitSize, '5x5' | '5x10' | '10x10' | '10x15' | '10x20' | '15x20' | '20x20'>;
const BASE_RATE: Record<FormSize, number> = { '5x5': 45, '5x10': 65, '10x10': 120, '10x15': 155, '10x20': 195, '15x20': 255, '20x20': 320 };

type BuildingKind = 'climate' | 'interior' | 'drive-up';
const BUILDINGS: Record<BuildingKind, { sizes: FormSize[]; description: string; pricePercent: number }> = {
  climate: {
    sizes: ['5x5', '5x5', '5x10', '5x10', '5x10', '10x10', '10x10', '10x15'],
    description: 'Climate controlled, interior hallway',
    pricePercent: 115,
  },
  interior: {
    sizes: ['5x10', '10x10', '10x10', '10x10', '10x15', '10x15', '10x20'],
    description: 'Interior access, ground floor',
    pricePercent: 100,
  },
  'drive-up': {
    sizes: ['10x15', '10x20', '10x20', '10x20', '15x20', '15x20', '20x20', '20x20'],
    description: 'Drive-up access',
    pricePercent: 100,
  },
};

interface Site {
  code: string;
  name: string;
  street: string;
  city: string;
  state: string;
  zip: number;
  areaCode: string;
  /** The IANA zone the site's days (and its billing) run in. */
  timeZone: string;
  managerName: string;
  /** Who took over as manager three months ago, if anyone did. */
  nextManagerName: string | null;
  /** Building A, B, C... in order. */
  buildings: BuildingKind[];
  pricePercent: number;
  /** Share of the rentable units leased today. */
  occupancy: number;
  unitsInMaintenance: number;
  firmware: string;
}

const SITES: Site[] = [
  {
    code: 'RS',
    name: 'Riverside Self Storage',
    street: '1200 River Rd',
    city: 'Portland',
    state: 'OR',
    zip: 97217,
    areaCode: '503',
    timeZone: 'America/Los_Angeles',
    managerName: 'Maria Gonzalez',
    nextManagerName: null,
    buildings: ['climate', 'interior', 'drive-up'],
    pricePercent: 100,
    occupancy: 0.92,
    unitsInMaintenance: 1,
    firmware: '2.3.1',
  },
  {
    code: 'OH',
    name: 'Oak Hill Storage Center',
    street: '455 Oak Hill Blvd',
    city: 'Austin',
    state: 'TX',
    zip: 78735,
    areaCode: '512',
    timeZone: 'America/Chicago',
    managerName: 'James Carter',
    nextManagerName: null,
    buildings: ['climate', 'drive-up', 'drive-up'],
    pricePercent: 95,
    occupancy: 0.78,
    unitsInMaintenance: 2,
    firmware: '2.3.1',
  },
  {
    code: 'HP',
    name: 'Harbor Point Storage',
    street: '88 Harbor Point Dr',
    city: 'Tacoma',
    state: 'WA',
    zip: 98402,
    areaCode: '253',
    timeZone: 'America/Los_Angeles',
    managerName: 'Priya Patel',
    nextManagerName: 'Daniel Kim',
    buildings: ['interior', 'climate', 'drive-up'],
    pricePercent: 110,
    occupancy: 0.6,
    unitsInMaintenance: 1,
    firmware: '2.2.8',
  },
];

const MAINTENANCE_REASONS = ['Roll-up door repair', 'Water leak inspection', 'Repainting', 'Pest control treatment', 'Light fixture replacement'];
const PAYMENT_METHODS: ReadonlyArray<readonly [PaymentMethod, number]> = [
  ['card', 50],
  ['bank_transfer', 25],
  ['cash', 15],
  ['check', 10],
];
const ACCESS_METHODS: ReadonlyArray<readonly [string, number]> = [
  ['keypad', 50],
  ['mobile_app', 35],
  ['bluetooth', 15],
];

interface Facility extends Site {
  facilityId: string;
  /** The fictional 555-01xx numbers of this area code not yet handed out. */
  freePhones: string[];
}

interface Unit {
  unitId: string;
  facility: Facility;
  unitNumber: string;
  monthlyRate: string;
}

interface Customer {
  customerId: string;
  fields: CreateCustomerCommand;
  method: PaymentMethod;
}

interface Lock {
  lockId: string;
  serial: string;
  facility: Facility;
  /** Each battery's life: from when, and how many percent it loses a day. */
  batteries: Array<{ since: Date; drainPerDay: number }>;
  upgradedAt: Date | null;
  /** When it was taken out of service and stopped reporting. */
  retiredAt: Date | null;
  maintenanceFrom: Date | null;
}

interface Tenancy {
  leaseId: string;
  unit: Unit;
  customer: Customer | null;
  startDay: Date;
  moveIn: Date;
  moveOut: Date | null;
  lock: Lock | null;
  payer: 'prompt' | 'late' | 'delinquent';
}

interface Action {
  at: Date;
  actor: Actor;
  correlationId: string;
  run: (ctx: CommandContext) => Promise<unknown>;
}

export async function seedDemoData(store: EventStore, options: { now: Date; random?: () => number }): Promise<void> {
  const plan = new DemoPlan(new Dice(options.random ?? mulberry32(DEFAULT_SEED)), options.now);
  for (const action of plan.actions()) {
    await action.run({ store, actor: action.actor, correlationId: action.correlationId, now: action.at });
  }
}

function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * DAY);
}

/** The same day of the month `months` later, or that month's last day when it is shorter. */
function addMonths(date: Date, months: number): Date {
  const target = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(date.getUTCDate(), lastDay));
  return target;
}

function startOfDay(date: Date): Date {
  return new Date(date.getTime() - (date.getTime() % DAY));
}

function atTime(day: Date, hour: number, minute = 0): Date {
  return new Date(day.getTime() + hour * HOUR + minute * MINUTE);
}

function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function monthName(date: Date): string {
  return date.toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** Plans the whole history up front (every draw happens here), then hands it out in time order. */
class DemoPlan {
  readonly #dice: Dice;
  readonly #now: Date;
  readonly #today: Date;
  readonly #actions: Action[] = [];
  readonly #facilities: Facility[] = [];
  readonly #usedNames = new Set<string>();
  #invoiceCount = 0;
  #lockCount = 0;

  constructor(dice: Dice, now: Date) {
    this.#dice = dice;
    this.#now = now;
    this.#today = startOfDay(now);
    this.#add(this.#daysAgo(185, 8), (ctx) => updateBusinessProfile(ctx, DEMO_BUSINESS));
    // The demo's history bills rent on each lease's anniversary, issued ten days before it is due.
    this.#add(this.#daysAgo(185, 8, 1), (ctx) =>
      updateBillingSettings(ctx, { ...defaultBillingSettings, billingDay: 'anniversary', issueDaysBefore: 10, lateFee: { kind: 'fixed', amount: LATE_FEE } }),
    );
    const tenancies = SITES.flatMap((site) => this.#planFacility(site));
    this.#planCustomers(tenancies);
    for (const facility of this.#facilities)
      this.#planLocks(
        facility,
        tenancies.filter((t) => t.unit.facility === facility),
      );
    for (const tenancy of tenancies) this.#planTenancy(tenancy);
  }

  actions(): Action[] {
    return [...this.#actions].sort((a, b) => a.at.getTime() - b.at.getTime());
  }

  /** One logical action: its commands share a correlation id. What would happen after now has not happened yet. */
  #add(at: Date, run: (ctx: CommandContext) => Promise<unknown>, actor: Actor = SYSTEM) {
    if (at > this.#now) return;
    this.#actions.push({ at, actor, correlationId: this.#dice.uuid(), run });
  }

  #daysAgo(days: number, hour = 0, minute = 0): Date {
    return atTime(addDays(this.#today, -days), hour, minute);
  }

  #wholeDaysAgo(day: Date): number {
    return Math.round((this.#today.getTime() - day.getTime()) / DAY);
  }

  #duringOpeningHours(day: Date): Date {
    return atTime(day, this.#dice.int(9, 17), this.#dice.int(0, 59));
  }

  #planFacility(site: Site): Tenancy[] {
    const dice = this.#dice;
    const facility: Facility = {
      ...site,
      facilityId: dice.uuid(),
      freePhones: dice.shuffle(Array.from({ length: 99 }, (_, i) => `(${site.areaCode}) 555-01${String(i + 1).padStart(2, '0')}`)),
    };
    this.#facilities.push(facility);
    const fields = {
      name: site.name,
      address: `${site.street}, ${site.city}, ${site.state} ${site.zip}`,
      phone: `(${site.areaCode}) 555-0100`,
      managerName: site.managerName,
      timeZone: site.timeZone,
    };
    this.#add(this.#daysAgo(185, 9), (ctx) => addFacility(ctx, fields, facility.facilityId));
    const { nextManagerName } = site;
    if (nextManagerName) {
      this.#add(this.#daysAgo(90, 9), (ctx) => updateFacility(ctx, facility.facilityId, { managerName: nextManagerName }));
    }

    const units = this.#planUnits(facility);
    for (const unit of units.slice(0, site.unitsInMaintenance)) {
      const reason = dice.pick(MAINTENANCE_REASONS);
      this.#add(this.#daysAgo(dice.int(2, 40), 10), (ctx) => changeUnitStatus(ctx, unit.unitId, 'maintenance', reason));
    }
    const rentable = units.slice(site.unitsInMaintenance);
    const leasedCount = Math.round(rentable.length * site.occupancy);
    const tenancies: Tenancy[] = [];
    for (const unit of rentable.slice(0, leasedCount)) {
      let earliestStart = 178;
      if (dice.chance(0.12)) {
        const previous = this.#endedTenancy(unit, dice.int(110, 180), this.#daysAgo(40));
        tenancies.push(previous);
        earliestStart = this.#wholeDaysAgo(previous.moveOut!) - dice.int(3, 25);
      }
      tenancies.push(this.#tenancy(unit, dice.int(2, earliestStart)));
    }
    const neverLeased: Unit[] = [];
    for (const unit of rentable.slice(leasedCount)) {
      if (dice.chance(0.4)) tenancies.push(this.#endedTenancy(unit, dice.int(45, 180), this.#daysAgo(3)));
      else neverLeased.push(unit);
    }
    const repaired = neverLeased[0];
    if (repaired) {
      const reason = dice.pick(MAINTENANCE_REASONS);
      this.#add(this.#daysAgo(130, 10), (ctx) => changeUnitStatus(ctx, repaired.unitId, 'maintenance', reason));
      this.#add(this.#daysAgo(118, 15), (ctx) => changeUnitStatus(ctx, repaired.unitId, 'available', 'Repairs completed'));
    }
    return tenancies;
  }

  /** The facility's units, shuffled so that which of them are leased or under repair is drawn too. */
  #planUnits(facility: Facility): Unit[] {
    const units = facility.buildings.flatMap((kind, index) => {
      const building = String.fromCharCode(65 + index);
      const { sizes, description, pricePercent } = BUILDINGS[kind];
      return sizes.map((size, i) => {
        const dollars = Math.round((BASE_RATE[size] * pricePercent * facility.pricePercent) / 10_000);
        const unit: Unit = { unitId: this.#dice.uuid(), facility, unitNumber: `${facility.code}-${building}${101 + i}`, monthlyRate: `${dollars}.00` };
        const fields = {
          facilityId: facility.facilityId,
          unitNumber: unit.unitNumber,
          building,
          size,
          monthlyRate: unit.monthlyRate,
          status: 'available' as const,
          description,
        };
        this.#add(this.#daysAgo(184, 10, i), (ctx) => addUnit(ctx, fields, unit.unitId));
        return unit;
      });
    });
    return this.#dice.shuffle(units);
  }

  #tenancy(unit: Unit, daysAgo: number): Tenancy {
    const startDay = this.#daysAgo(daysAgo);
    return {
      leaseId: this.#dice.uuid(),
      unit,
      customer: null,
      startDay,
      moveIn: this.#duringOpeningHours(startDay),
      moveOut: null,
      lock: null,
      payer: this.#dice.chance(0.75) ? 'prompt' : 'late',
    };
  }

  /** Tenants leave a few days before a billing date, after that month's invoice went out: it gets cancelled. */
  #endedTenancy(unit: Unit, daysAgo: number, latestEnd: Date): Tenancy {
    const tenancy = this.#tenancy(unit, daysAgo);
    let months = 1;
    while (addDays(addMonths(tenancy.startDay, months + 1), -3) <= latestEnd) months++;
    const endDay = addDays(addMonths(tenancy.startDay, this.#dice.int(1, months)), -this.#dice.int(3, 9));
    tenancy.moveOut = atTime(endDay, 16, this.#dice.int(0, 59));
    return tenancy;
  }

  /** A customer a tenancy, though some tenants rent a second unit; a few people sign up and rent nothing yet. */
  #planCustomers(tenancies: Tenancy[]) {
    const dice = this.#dice;
    const byMoveIn = [...tenancies].sort((a, b) => a.moveIn.getTime() - b.moveIn.getTime());
    for (const [index, tenancy] of byMoveIn.entries()) {
      const earlierTenants = byMoveIn
        .slice(0, index)
        .filter((t) => t.moveOut === null && t.unit.facility === tenancy.unit.facility && t.moveIn < addDays(tenancy.moveIn, -7));
      const secondUnit = tenancy.moveOut === null && earlierTenants.length > 0 && dice.chance(0.15);
      tenancy.customer = secondUnit ? dice.pick(earlierTenants).customer : this.#customer(tenancy.unit.facility, atTime(tenancy.moveIn, 0, -30));
    }
    const tenants = [...new Set(tenancies.filter((t) => t.moveOut === null).map((t) => t.customer!))];
    const movedOut = tenancies.filter((t) => t.moveOut !== null).length;
    // About 70% of customers hold an active lease.
    const prospects = Math.max(3, Math.round(tenants.length / 0.7) - tenants.length - movedOut);
    for (let i = 0; i < prospects; i++) {
      this.#customer(dice.pick(this.#facilities), this.#duringOpeningHours(this.#daysAgo(dice.int(1, 180))));
    }
    for (const customer of dice.shuffle(tenants).slice(0, 3)) {
      const tenancy = tenancies.find((t) => t.customer === customer)!;
      const address = this.#address(tenancy.unit.facility);
      const movedAt = this.#duringOpeningHours(addDays(tenancy.startDay, dice.int(10, 60)));
      this.#add(movedAt, (ctx) => updateCustomer(ctx, customer.customerId, { address }));
    }
    const longStanding = tenancies.filter((t) => t.moveOut === null && this.#wholeDaysAgo(t.startDay) >= 45);
    for (const tenancy of dice.shuffle(longStanding).slice(0, 4)) tenancy.payer = 'delinquent';
  }

  #customer(facility: Facility, joinedAt: Date): Customer {
    const dice = this.#dice;
    let firstName: string;
    let lastName: string;
    do {
      firstName = dice.pick(FIRST_NAMES);
      lastName = dice.pick(LAST_NAMES);
    } while (this.#usedNames.has(`${firstName} ${lastName}`));
    this.#usedNames.add(`${firstName} ${lastName}`);
    const emergencyLastName = dice.chance(0.6) ? lastName : dice.pick(LAST_NAMES);
    const customer: Customer = {
      customerId: dice.uuid(),
      method: dice.weighted(PAYMENT_METHODS),
      fields: {
        firstName,
        lastName,
        email: `${firstName}.${lastName}@${dice.pick(EMAIL_DOMAINS)}`.replace(/'/g, '').toLowerCase(),
        phone: this.#phone(facility),
        address: this.#address(facility),
        emergencyContact: `${dice.pick(FIRST_NAMES)} ${emergencyLastName}`,
        emergencyPhone: this.#phone(facility),
        status: 'active',
        facilityId: facility.facilityId,
      },
    };
    this.#add(joinedAt, (ctx) => addCustomer(ctx, customer.fields, customer.customerId));
    return customer;
  }

  #phone(facility: Facility): string {
    const phone = facility.freePhones.pop();
    if (!phone) throw new Error(`No fictional phone numbers left in area code ${facility.areaCode}`);
    return phone;
  }

  #address(facility: Facility): string {
    const dice = this.#dice;
    return `${dice.int(100, 9899)} ${dice.pick(STREETS)}, ${facility.city}, ${facility.state} ${facility.zip + dice.int(-8, 8)}`;
  }

  #planTenancy(tenancy: Tenancy) {
    const { leaseId, unit, lock, moveOut } = tenancy;
    const customer = tenancy.customer!;
    const terms = {
      customerId: customer.customerId,
      unitId: unit.unitId,
      startDate: isoDate(tenancy.startDay),
      monthlyRate: unit.monthlyRate,
      depositAmount: this.#dice.chance(0.8) ? unit.monthlyRate : null,
    };
    this.#add(tenancy.moveIn, async (ctx) => {
      // The seed writes the tenancy's invoices itself (below), so the lease starts without the engine's move-in invoice.
      await startLease(ctx, terms, leaseId, null, { bill: false });
      if (lock) await assignLock(ctx, lock.lockId, unit.unitId);
    });
    const cancelledAtMoveOut = this.#planInvoices(tenancy);
    if (moveOut === null) return;
    this.#add(moveOut, async (ctx) => {
      await endLease(ctx, leaseId, isoDate(moveOut));
      if (cancelledAtMoveOut) await cancelInvoice(ctx, cancelledAtMoveOut);
      if (lock) await assignLock(ctx, lock.lockId, null);
      await updateCustomer(ctx, customer.customerId, { status: 'inactive' });
    });
  }

  /**
   * Rent is billed monthly on the lease's start day: generated as a draft ten days before, sent
   * seven days before, paid around the due date; an unpaid one turns overdue ten days after it.
   * Returns the id of the invoice the move-out cancels.
   */
  #planInvoices(tenancy: Tenancy): string | null {
    const dice = this.#dice;
    const customer = tenancy.customer!;
    const { moveOut } = tenancy;
    const firstMissed = tenancy.payer === 'delinquent' ? Math.max(1, this.#lastMonthDueBy(tenancy, this.#daysAgo(11)) - dice.int(0, 1)) : Infinity;
    for (let month = 0; ; month++) {
      const dueDay = addMonths(tenancy.startDay, month);
      const generatedAt = month === 0 ? atTime(tenancy.moveIn, 0, 20) : atTime(addDays(dueDay, -10), 8);
      if (generatedAt > this.#now || (moveOut && generatedAt > moveOut)) return null;
      const description = month === 0 ? "First month's rent" : `Rent for ${monthName(dueDay)}`;
      const period = { start: isoDate(dueDay), end: isoDate(addDays(addMonths(tenancy.startDay, month + 1), -1)) };
      const invoiceId = this.#generateInvoice(
        generatedAt,
        tenancy,
        tenancy.unit.monthlyRate,
        dueDay,
        `${description}, unit ${tenancy.unit.unitNumber}`,
        period,
      );
      const sentAt = month === 0 ? atTime(tenancy.moveIn, 0, 21) : atTime(addDays(dueDay, -7), 8, 30);
      if (!moveOut || sentAt < moveOut) this.#add(sentAt, (ctx) => sendInvoice(ctx, invoiceId));
      if (moveOut && dueDay > moveOut) return invoiceId;
      if (month >= firstMissed) {
        this.#planOverdue(tenancy, invoiceId, atTime(addDays(dueDay, 10), 7), month === firstMissed);
        continue;
      }
      const paidAt =
        month === 0 ? atTime(tenancy.moveIn, 0, 25) : this.#duringOpeningHours(addDays(dueDay, tenancy.payer === 'late' ? dice.int(3, 9) : dice.int(-5, 2)));
      const payment = { amount: tenancy.unit.monthlyRate, method: customer.method, stripePaymentIntentId: null };
      const paymentId = dice.uuid();
      const payer: Actor = customer.method === 'card' ? { type: 'customer', id: customer.customerId } : SYSTEM;
      this.#add(paidAt, (ctx) => recordPayment(ctx, invoiceId, payment, paymentId), payer);
    }
  }

  /** The last billing month of the tenancy due on or before `day` (0 is the first). */
  #lastMonthDueBy(tenancy: Tenancy, day: Date): number {
    let month = 0;
    while (addMonths(tenancy.startDay, month + 1) <= day) month++;
    return month;
  }

  /** `period`: the rent period the invoice bills, recorded on the lease so the billing engine carries on after it. */
  #generateInvoice(at: Date, tenancy: Tenancy, amount: string, dueDay: Date, description: string, period?: { start: string; end: string }): string {
    const invoiceId = this.#dice.uuid();
    const fields = {
      customerId: tenancy.customer!.customerId,
      leaseId: tenancy.leaseId,
      amount,
      dueDate: isoDate(dueDay),
      status: 'draft' as const,
      description,
    };
    this.#add(at, async (ctx) => {
      // Numbered as generated, so numbers rise with time.
      const invoiceNumber = `INV-${isoDate(at).slice(0, 7).replace('-', '')}-${String(++this.#invoiceCount).padStart(4, '0')}`;
      await generateInvoice(ctx, { ...fields, invoiceNumber }, invoiceId);
      if (period) await recordRentBilled(ctx, tenancy.leaseId, invoiceId, period.start, period.end);
    });
    return invoiceId;
  }

  /** Ten days late the invoice turns overdue, and so does its customer; a late fee waits as a draft for the manager. */
  #planOverdue(tenancy: Tenancy, invoiceId: string, at: Date, firstMissed: boolean) {
    const customerId = tenancy.customer!.customerId;
    this.#add(at, async (ctx) => {
      await markInvoiceOverdue(ctx, invoiceId);
      if (firstMissed) await markCustomerOverdue(ctx, customerId, 'Rent is overdue');
    });
    this.#generateInvoice(atTime(at, 0, 5), tenancy, LATE_FEE, addDays(at, 20), `Late fee, unit ${tenancy.unit.unitNumber}`);
  }

  /**
   * Removable smart padlocks, bought in one batch per facility: most move-ins get one, it comes
   * off at move-out. Batteries drain at their own pace.
   */
  #planLocks(facility: Facility, tenancies: Tenancy[]) {
    const dice = this.#dice;
    const installedAt = this.#daysAgo(183, 11);
    const locked = tenancies.filter(() => dice.chance(0.88));
    const spareCount = 2;
    const locks = Array.from(
      { length: locked.length + spareCount },
      (): Lock => ({
        lockId: dice.uuid(),
        serial: `NK-${210_400 + ++this.#lockCount}`,
        facility,
        batteries: [{ since: installedAt, drainPerDay: dice.int(5, 30) / 100 }],
        upgradedAt: dice.chance(0.8) ? this.#daysAgo(60, dice.int(1, 4)) : null,
        retiredAt: null,
        maintenanceFrom: null,
      }),
    );
    for (const [i, tenancy] of locked.entries()) tenancy.lock = locks[i]!;

    const [serviced, replaced, ...running] = dice.shuffle(locked.filter((t) => t.moveOut === null).map((t) => t.lock!));
    const retired = locks.at(-1)!;
    if (!serviced || !replaced) throw new Error(`${facility.name} has too few tenants for the lock stories`);
    // The lock stories: one in for service, one battery run down and replaced, a few running low now, a spare retired.
    const maintenanceFrom = this.#daysAgo(dice.int(2, 10), 10);
    serviced.maintenanceFrom = maintenanceFrom;
    replaced.batteries[0]!.drainPerDay = (100 - LOW_BATTERY_LEVEL) / (183 - dice.int(95, 110));
    for (const lock of running.slice(0, dice.int(1, 2))) {
      lock.batteries[0]!.drainPerDay = (100 - LOW_BATTERY_LEVEL) / (183 - dice.int(3, 30));
    }
    const retiredAt = this.#daysAgo(dice.int(20, 60), 14);
    retired.retiredAt = retiredAt;

    for (const [index, lock] of locks.entries()) {
      const fields = { serial: lock.serial, unitId: null, status: 'active' as const, batteryLevel: 100, firmwareVersion: facility.firmware };
      this.#add(atTime(installedAt, 0, index), (ctx) => installLock(ctx, fields, lock.lockId));
      this.#planHeartbeats(lock, installedAt, lock === replaced);
    }
    this.#add(maintenanceFrom, (ctx) => changeLockStatus(ctx, serviced.lockId, 'maintenance'));
    this.#add(retiredAt, (ctx) => changeLockStatus(ctx, retired.lockId, 'inactive'));
    for (const tenancy of locked) this.#planAccess(tenancy);
  }

  /** Every two weeks, and once in the last hours unless taken out of service; a battery swap reports at once. */
  #planHeartbeats(lock: Lock, installedAt: Date, batteryReplaced: boolean) {
    const dice = this.#dice;
    const lastReport = lock.retiredAt ?? this.#now;
    const times: Date[] = [];
    for (let t = atTime(addDays(installedAt, dice.int(1, 14)), dice.int(0, 5)); t < lastReport; t = addDays(t, 14)) times.push(t);
    if (!lock.retiredAt) times.push(new Date(this.#now.getTime() - dice.int(1, 20) * HOUR));
    if (batteryReplaced) {
      // Replaced two days after the first report of a low battery.
      const lowReport = times.find((t) => this.#batteryLevel(lock, t) < LOW_BATTERY_LEVEL)!;
      const since = atTime(addDays(startOfDay(lowReport), 2), 10);
      lock.batteries.push({ since, drainPerDay: dice.int(5, 30) / 100 });
      times.push(since);
    }
    for (const t of times) {
      const heartbeat = {
        batteryLevel: this.#batteryLevel(lock, t),
        firmwareVersion: lock.upgradedAt && t >= lock.upgradedAt ? FIRMWARE_UPGRADE : lock.facility.firmware,
      };
      this.#add(t, (ctx) => recordLockHeartbeat(ctx, lock.lockId, heartbeat));
    }
  }

  #batteryLevel(lock: Lock, at: Date): number {
    const battery = lock.batteries.findLast((b) => b.since <= at)!;
    const days = (at.getTime() - battery.since.getTime()) / DAY;
    return Math.max(0, Math.min(100, Math.floor(100 - battery.drainPerDay * days)));
  }

  /** A few visits while the tenancy lasts and the lock works. */
  #planAccess(tenancy: Tenancy) {
    const dice = this.#dice;
    const lock = tenancy.lock!;
    const customerId = tenancy.customer!.customerId;
    const ends = [tenancy.moveOut ?? this.#now, lock.maintenanceFrom ?? this.#now].map((d) => d.getTime());
    const until = Math.min(...ends) - HOUR;
    const spanDays = Math.floor((until - tenancy.startDay.getTime()) / DAY);
    if (spanDays < 1) return;
    const visits = tenancy.moveOut ? dice.int(1, 2) : dice.int(1, 4);
    for (let i = 0; i < visits; i++) {
      const at = atTime(addDays(tenancy.startDay, dice.int(1, spanDays)), dice.int(7, 21), dice.int(0, 59));
      if (at.getTime() >= until) continue;
      const access = { customerId, method: dice.weighted(ACCESS_METHODS) };
      this.#add(at, (ctx) => grantAccess(ctx, lock.lockId, access), { type: 'customer', id: customerId });
    }
  }
}

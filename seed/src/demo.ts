// The demo dataset of a first start: three facilities and six months of their history, written
// through the product's own command functions so that every event is one the product itself
// writes. Rent is billed by the billing engine: staff move-ins bill the move-in invoice, and the
// billing day runs for every day of the history (rent issued ahead of the 1st, overdue standing,
// late fees after the grace days); renters pay through the desk and the portal's commands. Most
// leases carry a protection plan (chosen at the move-in, or the default the billing day enrols them
// in), a few recent ones a promotion, and some renters buy merchandise as they move in.

import type { AccessHours } from '@storage/contracts/access-hours';
import { type BillingSettings, defaultBillingSettings, noSalesTax } from '@storage/contracts/billing';
import type { CreateCustomerCommand } from '@storage/contracts/customers';
import type { DeskPaymentMethod, PaymentMethod, UnitSize } from '@storage/contracts/enums';
import { streams } from '@storage/contracts/events';
import type { LeaseTerms } from '@storage/contracts/lease-terms';
import { fromCents, toCents } from '@storage/contracts/money';
import type { UnitFeatures } from '@storage/contracts/unit-features';
import { addDays as addIsoDays } from '@storage/domain/billing/calendar';
import { leaseInvoiceId } from '@storage/domain/billing/lease-billing';
import type { RentalChoices } from '@storage/domain/billing/offers';
import { type BillingPeriod, lateFeeDay, moveInPeriod, nextRentPeriod } from '@storage/domain/billing/periods';
import { runBillingDay } from '@storage/domain/billing/run';
import { type CommandContext, loadAggregate } from '@storage/domain/commands/handle';
import { addCustomer, changeCustomerStanding, updateCustomer } from '@storage/domain/customers/commands';
import { addFacility, updateFacility } from '@storage/domain/facilities/commands';
import { afterPaymentRecorded, cancelInvoice, generateInvoice, recordPayment, sendInvoice, writeOffInvoice } from '@storage/domain/invoices/commands';
import { invoiceAggregate, openBalance } from '@storage/domain/invoices/invoice';
import { endLease, startLease } from '@storage/domain/leases/commands';
import { recordInsuranceProof } from '@storage/domain/leases/protection';
import { LOW_BATTERY_LEVEL } from '@storage/domain/locks/businessLogic';
import { assignLock, changeLockStatus, grantAccess, installLock, recordLockHeartbeat } from '@storage/domain/locks/commands';
import { addMerchandiseItem, merchandiseSaleInvoiceId, restockMerchandiseItem, sellMerchandiseAtDesk } from '@storage/domain/merchandise/commands';
import { giveCredit, recordDeskPayment } from '@storage/domain/payments/desk';
import { updateBillingSettings, updateBusinessProfile, updateLeaseTerms, updatePromotions, updateProtectionSettings } from '@storage/domain/settings/commands';
import { addUnit, changeUnitStatus } from '@storage/domain/units/commands';
import { type Actor, comparePositions, type EventStore, type Position } from '@storage/eventstore/port';
import type { DatabasePool } from 'slonik';
import { cachedStreams } from './cached-store.ts';
import { DEMO_MERCHANDISE, DEMO_MERCHANDISE_TAX, DEMO_PLANS, demoPromotions, demoProtectionSettings, HALF_OFF_SIZES } from './offers.ts';
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
/** The billing day's hour (UTC): just after midnight in the demo's zones (Pacific and Central), before any desk opens. */
const BILLING_HOUR_UTC = 8;

/** The demo business's billing: the spec's lease terms (rent due on the 1st, 25.00 late fee after the 10th), prorated move-ins with an admin fee. */
export const DEMO_BILLING_SETTINGS: BillingSettings = {
  ...defaultBillingSettings,
  issueDaysBefore: 5,
  graceDays: 10,
  lateFee: { kind: 'fixed', amount: '25.00' },
  adminFee: '20.00',
};
/** The demo business's own lease term, printed in every agreement after the generated ones. */
export const DEMO_LEASE_TERMS: LeaseTerms = { additionalTerms: ['The tenant must keep the unit locked with a lock of their own when not present.'] };
const FIRMWARE_UPGRADE = '2.4.0';

type FormSize = Extract<UnitSize, '5x5' | '5x10' | '10x10' | '10x15' | '10x20' | '15x20' | '20x20'>;
const BASE_RATE: Record<FormSize, number> = { '5x5': 45, '5x10': 65, '10x10': 120, '10x15': 155, '10x20': 195, '15x20': 255, '20x20': 320 };

type BuildingKind = 'climate' | 'interior' | 'drive-up';
const BUILDINGS: Record<BuildingKind, { sizes: FormSize[]; description: string; pricePercent: number; features: UnitFeatures }> = {
  climate: {
    sizes: ['5x5', '5x5', '5x10', '5x10', '5x10', '10x10', '10x10', '10x15'],
    description: 'Climate controlled, interior hallway',
    pricePercent: 115,
    features: { climateControlled: true, driveUp: false, floor: 2, lockType: 'smart' },
  },
  interior: {
    sizes: ['5x10', '10x10', '10x10', '10x10', '10x15', '10x15', '10x20'],
    description: 'Interior access, ground floor',
    pricePercent: 100,
    features: { climateControlled: false, driveUp: false, floor: 1, lockType: 'smart' },
  },
  'drive-up': {
    sizes: ['10x15', '10x20', '10x20', '10x20', '15x20', '15x20', '20x20', '20x20'],
    description: 'Drive-up access',
    pricePercent: 100,
    features: { climateControlled: false, driveUp: true, floor: 1, lockType: 'disc' },
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
  /** The gate's hours; null: 24-hour access. */
  accessHours: AccessHours | null;
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
    accessHours: null,
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
    accessHours: { opensAt: '06:00', closesAt: '22:00' },
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
    accessHours: null,
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
  size: FormSize;
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
  /** Prompt payers pay before the due date; late ones after it (some in two parts); delinquent ones stop paying. */
  payer: 'prompt' | 'late' | 'delinquent';
  /** Once, a desk payment of more than was owed: the rest is credit the next invoice uses. */
  overpays: boolean;
  /** Left without paying the last invoice, which the manager writes off. */
  skips: boolean;
  /** The protection plan and the promotion chosen at the move-in (planned after the rest of the tenancy). */
  choices: RentalChoices;
}

/** An invoice the billing engine issues for a tenancy, as the planner foresees it (the same pure rules the engine bills by). */
interface PlannedInvoice {
  invoiceId: string;
  periodStart: string;
  dueDate: string;
  /** The facility's date it is issued on: its issue day, or the move-in for what is due already then. */
  issuedOn: string;
}

/** What the seed's actions may use besides the command context. */
interface SeedEnv {
  pool: DatabasePool;
  /** Lets the read model catch up with every append so far (the billing day nominates leases and invoices from it). */
  catchUp(): Promise<void>;
  newId(): string;
}

interface Action {
  at: Date;
  actor: Actor;
  correlationId: string;
  run: (ctx: CommandContext, env: SeedEnv) => Promise<unknown>;
}

export interface DemoSeedDeps {
  store: EventStore;
  /** The read model's database, which the billing day and the desk read. */
  pool: DatabasePool;
  /**
   * Brings the read model up to `position` (the projector's catch-up, run in-process: the seed is
   * not the projector's to import), or fails.
   */
  catchUpTo(position: Position): Promise<void>;
}

/**
 * Writes the demo's six months of history up to `now`, action by action in time order, each at its
 * own time. Returns with the read model caught up with it.
 */
export async function seedDemoData(deps: DemoSeedDeps, options: { now: Date; random?: () => number }): Promise<void> {
  const dice = new Dice(options.random ?? mulberry32(DEFAULT_SEED));
  const plan = new DemoPlan(dice, options.now);
  const { pool } = deps;
  const store = cachedStreams(deps.store);
  let caughtUp: Position | null = null;
  const env: SeedEnv = {
    pool,
    newId: () => dice.uuid(),
    async catchUp() {
      const head = await store.newestPosition();
      if (head === null || (caughtUp !== null && comparePositions(head, caughtUp) <= 0)) return;
      await deps.catchUpTo(head);
      caughtUp = head;
    },
  };
  for (const action of plan.actions()) {
    await action.run({ store, actor: action.actor, correlationId: action.correlationId, now: action.at }, env);
  }
  await env.catchUp();
}

/** The invoice's open balance, or null when it is not open (paid, cancelled, not issued). */
async function openAmount(ctx: CommandContext, invoiceId: string): Promise<string | null> {
  const { state } = await loadAggregate(ctx.store, streams.invoice(invoiceId), invoiceAggregate);
  if (state.status !== 'current' || (state.fields.status !== 'sent' && state.fields.status !== 'overdue')) return null;
  const open = openBalance(state);
  return toCents(open) > 0n ? open : null;
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

function dayOf(iso: string): Date {
  return new Date(`${iso}T00:00:00.000Z`);
}

/** Half of an amount, in whole dollars (at least one). */
function halfInDollars(amount: string): string {
  const half = toCents(amount) / 200n;
  return fromCents((half > 0n ? half : 1n) * 100n);
}

function deskMethod(method: PaymentMethod): DeskPaymentMethod {
  if (method === 'cash' || method === 'check' || method === 'bank_transfer' || method === 'card_present') return method;
  return 'card_present';
}

/** Plans the whole history up front (every draw happens here), then hands it out in time order. */
class DemoPlan {
  readonly #dice: Dice;
  readonly #now: Date;
  readonly #today: Date;
  readonly #actions: Action[] = [];
  readonly #facilities: Facility[] = [];
  readonly #usedNames = new Set<string>();
  /** The days the billing day acts on the demo's invoices: each one's issue day, the day after it is due, its late-fee day. */
  readonly #billingDates = new Set<string>();
  #lockCount = 0;

  constructor(dice: Dice, now: Date) {
    this.#dice = dice;
    this.#now = now;
    this.#today = startOfDay(now);
    this.#add(this.#daysAgo(185, 8), (ctx) => updateBusinessProfile(ctx, DEMO_BUSINESS));
    this.#add(this.#daysAgo(185, 8, 1), (ctx) => updateBillingSettings(ctx, DEMO_BILLING_SETTINGS));
    this.#add(this.#daysAgo(185, 8, 3), (ctx) => updateLeaseTerms(ctx, DEMO_LEASE_TERMS, null));
    const tenancies = SITES.flatMap((site) => this.#planFacility(site));
    this.#planCustomers(tenancies);
    for (const facility of this.#facilities)
      this.#planLocks(
        facility,
        tenancies.filter((t) => t.unit.facility === facility),
      );
    for (const tenancy of tenancies) this.#planTenancy(tenancy);
    this.#planDeskExtras(tenancies);
    for (let days = 184; days >= 0; days--) this.#planBillingDay(this.#daysAgo(days, BILLING_HOUR_UTC));
    // Drawn after everything else, so the rest of the history is the one the seed wrote before the business sold more than rent.
    this.#planProtection(tenancies);
    this.#planPromotions(tenancies);
    this.#planMerchandise(tenancies);
  }

  /**
   * The billing day, as the scheduler runs it: every facility on its own date (just after its
   * midnight). On a day it has something to do (an invoice to issue, to mark overdue, to charge
   * its late fee) the read model it nominates leases and invoices from is caught up first; on the
   * others it finds nothing either way, and catching up would only slow the seed. It is caught up
   * again when the run marked something overdue: a payment later that day restores the renter's
   * standing by it.
   */
  #planBillingDay(at: Date) {
    const fresh = this.#billingDates.has(isoDate(at));
    this.#add(at, async (ctx, env) => {
      if (fresh) await env.catchUp();
      const day = await runBillingDay({ store: ctx.store, pool: env.pool }, at, { newId: env.newId, concurrency: 1 });
      if (day.runs.some((run) => run.invoicesOverdue > 0)) await env.catchUp();
    });
  }

  /**
   * What staff do at the desk besides taking rent: charges typed by hand (one paid, one sent and
   * not yet due, one still a draft), and a rare goodwill credit.
   */
  #planDeskExtras(tenancies: Tenancy[]) {
    const dice = this.#dice;
    const tenants = dice.shuffle(tenancies.filter((t) => t.moveOut === null && t.payer === 'prompt' && this.#wholeDaysAgo(t.startDay) >= 30));
    const charges = [
      { daysAgo: dice.int(25, 60), description: 'Lock cut service', amount: '35.00', paidAfterDays: dice.int(2, 6) as number | null, send: true },
      { daysAgo: dice.int(3, 12), description: 'Replacement key fob', amount: '15.00', paidAfterDays: null, send: true },
      { daysAgo: 1, description: 'Cleaning fee, unit left with debris', amount: '50.00', paidAfterDays: null, send: false },
    ];
    for (const [i, charge] of charges.entries()) {
      const tenancy = tenants[i];
      if (!tenancy) continue;
      const customerId = tenancy.customer!.customerId;
      const invoiceId = dice.uuid();
      const at = this.#duringOpeningHours(this.#daysAgo(this.#sinceMoveIn(tenancy, charge.daysAgo)));
      // As the console's New Invoice form fills it in: INV- and the time, due in 30 days, a draft.
      const fields = {
        invoiceNumber: `INV-${at.getTime()}`,
        customerId,
        leaseId: null,
        amount: charge.amount,
        dueDate: isoDate(addDays(startOfDay(at), 30)),
        status: 'draft' as const,
        description: `${charge.description}, unit ${tenancy.unit.unitNumber}`,
      };
      this.#add(at, (ctx) => generateInvoice(ctx, fields, invoiceId));
      this.#billingDatesOf(isoDate(at), fields.dueDate);
      if (charge.send) this.#add(atTime(at, 0, 10), (ctx) => sendInvoice(ctx, invoiceId));
      if (charge.paidAfterDays !== null) {
        const invoice = { invoiceId, periodStart: fields.dueDate, dueDate: fields.dueDate, issuedOn: isoDate(at) };
        this.#planPayment(this.#duringOpeningHours(addDays(startOfDay(at), charge.paidAfterDays)), tenancy, invoice, 'whole');
      }
    }
    const credited = tenants[charges.length];
    if (credited) {
      const creditId = dice.uuid();
      const reason = `Goodwill: unit ${credited.unit.unitNumber} door repair took a week`;
      this.#add(this.#duringOpeningHours(this.#daysAgo(this.#sinceMoveIn(credited, dice.int(15, 50)))), async (ctx, env) => {
        // A credit pays the open invoices the read model lists, which it waits to be caught up.
        await env.catchUp();
        await giveCredit(ctx, credited.customer!.customerId, '15.00', reason, creditId);
      });
    }
  }

  /**
   * Protection plans from the start, Basic the default a month after the move-in. Some renters
   * choose a plan at the move-in, one shows their own insurance instead, and the billing day
   * enrols the rest: most leases carry a premium from the first period billed after that.
   */
  #planProtection(tenancies: Tenancy[]) {
    const dice = this.#dice;
    const settings = demoProtectionSettings(DEMO_PLANS.map(() => dice.uuid()));
    this.#add(this.#daysAgo(185, 8, 2), (ctx) => updateProtectionSettings(ctx, settings));
    const candidates = tenancies.filter((t) => t.moveOut === null && this.#wholeDaysAgo(t.startDay) >= 45 && this.#wholeDaysAgo(t.startDay) <= 170);
    const insured = candidates.length > 0 ? dice.pick(candidates) : null;
    const weights = settings.plans.map((plan, i) => [plan.planId, [50, 35, 15][i] ?? 10] as const);
    for (const tenancy of tenancies) {
      if (tenancy !== insured && dice.chance(0.45)) tenancy.choices.protectionPlanId = dice.weighted(weights);
    }
    if (!insured) return;
    // Shown at the desk in the first weeks, before the default plan would have been given.
    const proof = {
      carrier: 'Cascade Mutual Insurance',
      policyNumber: `HO-${dice.int(1_000_000, 9_999_999)}`,
      expiresOn: isoDate(addMonths(insured.startDay, 12)),
    };
    this.#add(this.#duringOpeningHours(addDays(insured.startDay, dice.int(3, 20))), (ctx) => recordInsuranceProof(ctx, insured.leaseId, proof));
  }

  /** The business's two offers, two months ago; one or two renters of a large unit since took half off at the desk. */
  #planPromotions(tenancies: Tenancy[]) {
    const dice = this.#dice;
    const since = 60;
    const promotions = demoPromotions(dice.uuid(), dice.uuid());
    const halfOff = promotions.find((p) => p.channel === 'both')!;
    this.#add(this.#daysAgo(since, 8, 30), (ctx) => updatePromotions(ctx, promotions));
    const recent = tenancies.filter(
      (t) => t.moveOut === null && HALF_OFF_SIZES.includes(t.unit.size) && this.#wholeDaysAgo(t.startDay) < since && this.#wholeDaysAgo(t.startDay) >= 2,
    );
    for (const tenancy of dice.shuffle(recent).slice(0, 2)) tenancy.choices.promotionId = halfOff.promotionId;
  }

  /**
   * The desk's shelf at every facility for four months (Oak Hill taxes what it sells): a few
   * renters buy a lock, boxes or tape as they move in and pay for them with the move-in; the disc
   * locks were restocked once. Each item starts with what is on the shelf today, plus what was
   * sold, less the restock.
   */
  #planMerchandise(tenancies: Tenancy[]) {
    const dice = this.#dice;
    const since = 120;
    const opened = this.#daysAgo(since, 9);
    const taxed = this.#facilities.find((f) => f.code === DEMO_MERCHANDISE_TAX.facilityCode);
    if (taxed) {
      const settings: BillingSettings = { ...DEMO_BILLING_SETTINGS, salesTax: { ...noSalesTax, merchandise: DEMO_MERCHANDISE_TAX.rate } };
      this.#add(opened, (ctx) => updateBillingSettings(ctx, settings, taxed.facilityId));
    }
    for (const facility of this.#facilities) {
      const items = DEMO_MERCHANDISE.map((item) => ({ ...item, itemId: dice.uuid(), sold: 0 }));
      const movedIn = tenancies.filter((t) => t.unit.facility === facility && this.#wholeDaysAgo(t.startDay) < since && this.#wholeDaysAgo(t.startDay) >= 1);
      for (const tenancy of dice.shuffle(movedIn).slice(0, 4)) {
        const lines = dice
          .shuffle(items)
          .slice(0, dice.int(1, 3))
          .map((item) => {
            const quantity = dice.int(item.perSale[0], item.perSale[1]);
            item.sold += quantity;
            return { itemId: item.itemId, quantity };
          });
        const saleId = dice.uuid();
        const sale = { customerId: tenancy.customer!.customerId, facilityId: facility.facilityId, lines };
        this.#add(atTime(tenancy.moveIn, 0, 10), (ctx) => sellMerchandiseAtDesk(ctx, sale, saleId));
        this.#planDeskPayment(atTime(tenancy.moveIn, 0, 11), tenancy, [merchandiseSaleInvoiceId(saleId)], 'whole');
      }
      const restockedAt = this.#daysAgo(dice.int(20, 40), 10);
      for (const [index, item] of items.entries()) {
        const details = { name: item.name, price: item.price, taxable: item.taxable };
        const stock = item.stockToday + item.sold - item.restock;
        this.#add(atTime(opened, 0, 5 + index), (ctx) => addMerchandiseItem(ctx, facility.facilityId, details, stock, item.itemId));
        if (item.restock > 0) this.#add(restockedAt, (ctx) => restockMerchandiseItem(ctx, item.itemId, item.restock));
      }
    }
  }

  actions(): Action[] {
    return [...this.#actions].sort((a, b) => a.at.getTime() - b.at.getTime());
  }

  /** One logical action: its commands share a correlation id. What would happen after now has not happened yet. */
  #add(at: Date, run: (ctx: CommandContext, env: SeedEnv) => Promise<unknown>, actor: Actor = SYSTEM) {
    if (at > this.#now) return;
    this.#actions.push({ at, actor, correlationId: this.#dice.uuid(), run });
  }

  #daysAgo(days: number, hour = 0, minute = 0): Date {
    return atTime(addDays(this.#today, -days), hour, minute);
  }

  /**
   * `daysAgo`, or the day after the tenancy's move-in when that is later: what staff do for a
   * renter happens after the renter exists (their customer record is made just before the move-in).
   */
  #sinceMoveIn(tenancy: Tenancy, daysAgo: number): number {
    return Math.min(daysAgo, this.#wholeDaysAgo(tenancy.startDay) - 1);
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
      accessHours: site.accessHours,
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
      const { sizes, description, pricePercent, features } = BUILDINGS[kind];
      return sizes.map((size, i) => {
        const dollars = Math.round((BASE_RATE[size] * pricePercent * facility.pricePercent) / 10_000);
        const unit: Unit = { unitId: this.#dice.uuid(), facility, unitNumber: `${facility.code}-${building}${101 + i}`, size, monthlyRate: `${dollars}.00` };
        const fields = {
          facilityId: facility.facilityId,
          unitNumber: unit.unitNumber,
          building,
          size,
          monthlyRate: unit.monthlyRate,
          status: 'available' as const,
          description,
          features,
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
      overpays: false,
      skips: false,
      choices: { protectionPlanId: null, promotionId: null },
    };
  }

  /** Tenants who left paid what they owed; a move-out after the next month's rent went out cancels that invoice. */
  #endedTenancy(unit: Unit, daysAgo: number, latestEnd: Date): Tenancy {
    const tenancy = this.#tenancy(unit, daysAgo);
    tenancy.payer = 'prompt';
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
    const cashPayers = tenancies.filter((t) => t.moveOut === null && t.payer === 'prompt' && t.customer!.method === 'cash');
    for (const tenancy of dice.shuffle(cashPayers).slice(0, 2)) tenancy.overpays = true;
    // One renter left owing their last month, long enough ago for the manager to have written it off.
    const leftOwing = tenancies.filter((t) => t.moveOut !== null && this.#wholeDaysAgo(t.moveOut) >= 45);
    if (leftOwing.length > 0) dice.pick(leftOwing).skips = true;
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
    const dice = this.#dice;
    const { leaseId, unit, lock, moveOut } = tenancy;
    const customer = tenancy.customer!;
    const terms = {
      customerId: customer.customerId,
      unitId: unit.unitId,
      startDate: isoDate(tenancy.startDay),
      monthlyRate: unit.monthlyRate,
      depositAmount: dice.chance(0.8) ? unit.monthlyRate : null,
    };
    const invoices = this.#invoicesOf(tenancy, terms.depositAmount);
    const endDate = moveOut ? isoDate(moveOut) : null;
    // A staff move-in: the engine bills the move-in invoice (and rent already due), which the renter pays at the desk.
    this.#add(tenancy.moveIn, async (ctx) => {
      await startLease(ctx, terms, leaseId, null, { choices: tenancy.choices, channel: 'desk' });
      if (lock) await assignLock(ctx, lock.lockId, unit.unitId);
    });
    const atMoveIn = invoices.filter((i) => i.issuedOn === terms.startDate);
    this.#planDeskPayment(
      atTime(tenancy.moveIn, 0, 5),
      tenancy,
      atMoveIn.map((i) => i.invoiceId),
      'whole',
    );
    const rent = invoices.filter((i) => i.issuedOn !== terms.startDate && (endDate === null || i.periodStart <= endDate));
    const lastDueBy = rent.filter((i) => i.dueDate <= isoDate(this.#daysAgo(11))).length - 1;
    const firstMissed = tenancy.payer === 'delinquent' ? Math.max(0, lastDueBy - dice.int(0, 1)) : Infinity;
    const overpaid = tenancy.overpays ? dice.int(0, rent.length - 1) : -1;
    for (const [index, invoice] of rent.entries()) {
      const due = dayOf(invoice.dueDate);
      if (tenancy.skips && index === rent.length - 1) {
        this.#add(atTime(addDays(due, 40), 11), async (ctx) => {
          if (await openAmount(ctx, invoice.invoiceId)) await writeOffInvoice(ctx, invoice.invoiceId, 'Moved out without paying; sent to collections');
        });
        continue;
      }
      if (index >= firstMissed) {
        // A delinquent renter's first missed month: some pay a part of it, then nothing more.
        if (index === firstMissed && dice.chance(0.5)) this.#planPayment(this.#duringOpeningHours(addDays(due, dice.int(3, 8))), tenancy, invoice, 'half');
        continue;
      }
      const issued = dayOf(invoice.issuedOn);
      if (tenancy.payer === 'late') {
        if (dice.chance(0.3)) {
          this.#planPayment(this.#duringOpeningHours(addDays(due, dice.int(1, 4))), tenancy, invoice, 'half');
          this.#planPayment(this.#duringOpeningHours(addDays(due, dice.int(9, 18))), tenancy, invoice, 'whole');
        } else this.#planPayment(this.#duringOpeningHours(addDays(due, dice.int(3, 16))), tenancy, invoice, 'whole');
        continue;
      }
      const day = addDays(due, dice.int(-4, 1));
      this.#planPayment(this.#duringOpeningHours(day < issued ? issued : day), tenancy, invoice, index === overpaid ? 'more' : 'whole');
    }
    if (moveOut === null || endDate === null) return;
    // Rent issued for a period after the move-out is cancelled; what was owed before it stays owed.
    const after = invoices.filter((i) => i.periodStart > endDate).map((i) => i.invoiceId);
    this.#add(moveOut, async (ctx) => {
      await endLease(ctx, leaseId, endDate);
      for (const invoiceId of after) if (await openAmount(ctx, invoiceId)) await cancelInvoice(ctx, invoiceId, 'Moved out before this period');
      if (lock) await assignLock(ctx, lock.lockId, null);
      await changeCustomerStanding(ctx, customer.customerId, 'inactive', 'Moved out');
    });
  }

  /**
   * The invoices the engine issues for the tenancy up to its move-out (or today), by the rules it
   * bills by: the move-in invoice, then each month's rent, issued ahead of the 1st.
   */
  #invoicesOf(tenancy: Tenancy, depositAmount: string | null): PlannedInvoice[] {
    const startDate = isoDate(tenancy.startDay);
    const today = isoDate(this.#today);
    const last = tenancy.moveOut && isoDate(tenancy.moveOut) < today ? isoDate(tenancy.moveOut) : today;
    const lease = { startDate, monthlyRate: tenancy.unit.monthlyRate, depositAmount, billedThrough: null, endDate: null };
    const planned: PlannedInvoice[] = [];
    for (let period: BillingPeriod | null = moveInPeriod(lease, DEMO_BILLING_SETTINGS); period; ) {
      const issuedOn = period.kind === 'move-in' || period.issueDate < startDate ? startDate : period.issueDate;
      if (issuedOn > last) break;
      planned.push({ invoiceId: leaseInvoiceId(tenancy.leaseId, period.periodStart), periodStart: period.periodStart, dueDate: period.dueDate, issuedOn });
      // The move-in invoice is issued by the move-in and paid there and then.
      if (period.kind === 'rent') this.#billingDatesOf(issuedOn, period.dueDate);
      period = nextRentPeriod({ ...lease, billedThrough: period.periodEnd }, DEMO_BILLING_SETTINGS);
    }
    return planned;
  }

  #billingDatesOf(issuedOn: string, dueDate: string) {
    this.#billingDates.add(issuedOn);
    this.#billingDates.add(addIsoDays(dueDate, 1));
    this.#billingDates.add(lateFeeDay(dueDate, DEMO_BILLING_SETTINGS));
  }

  /**
   * A renter paying an invoice: by card in the portal (the renter's own act), else at the desk.
   * 'half': a part of it, in whole dollars; 'more': a round sum above it, the rest kept as credit.
   */
  #planPayment(at: Date, tenancy: Tenancy, invoice: PlannedInvoice, part: 'whole' | 'half' | 'more') {
    const customer = tenancy.customer!;
    if (customer.method !== 'card') {
      this.#planDeskPayment(at, tenancy, [invoice.invoiceId], part);
      return;
    }
    const paymentId = this.#dice.uuid();
    const renter: Actor = { type: 'customer', id: customer.customerId };
    this.#add(
      at,
      async (ctx) => {
        const open = await openAmount(ctx, invoice.invoiceId);
        if (!open) return;
        const amount = part === 'half' ? halfInDollars(open) : open;
        await recordPayment(ctx, invoice.invoiceId, { amount, method: 'card', stripePaymentIntentId: null }, paymentId);
        await afterPaymentRecorded(ctx, customer.customerId);
      },
      renter,
    );
  }

  /** A payment taken at the desk for these invoices (a card there is a card present). */
  #planDeskPayment(at: Date, tenancy: Tenancy, invoiceIds: string[], part: 'whole' | 'half' | 'more') {
    const dice = this.#dice;
    const customer = tenancy.customer!;
    const method: DeskPaymentMethod = customer.method === 'card' || customer.method === 'card_present' ? 'card_present' : deskMethod(customer.method);
    const reference = method === 'check' ? String(dice.int(1001, 4999)) : method === 'bank_transfer' ? `ACH-${dice.int(100_000, 999_999)}` : null;
    const receiptId = dice.uuid();
    this.#add(at, async (ctx) => {
      const open: string[] = [];
      let owed = 0n;
      for (const invoiceId of invoiceIds) {
        const amount = await openAmount(ctx, invoiceId);
        if (amount === null) continue;
        open.push(invoiceId);
        owed += toCents(amount);
      }
      if (open.length === 0) return;
      const amount = part === 'half' ? halfInDollars(fromCents(owed)) : part === 'more' ? fromCents(((owed + 5_000n) / 5_000n) * 5_000n) : fromCents(owed);
      await recordDeskPayment(ctx, { customerId: customer.customerId, amount, method, reference, invoiceIds: open }, receiptId);
    });
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

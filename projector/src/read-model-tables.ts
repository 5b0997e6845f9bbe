// The read tables as the projections hold their rows in memory: column → value, in the shapes
// the database pool parses them into (uuids, text, money and dates as strings; timestamps as
// ISO-8601 strings; counts as numbers). Columns the database computes (identity numbers,
// generated search text) may be read but are never written.

type Timestamp = string;
type Money = string;
type IsoDate = string;

export interface ReadTables {
  staff: {
    id: string;
    email: string;
    first_name: string | null;
    last_name: string | null;
    profile_image_url?: string | null;
    role: string;
    /** The credential (write side's staff_credentials) the member signs in with. */
    credential_id: string;
    /** The two-factor factor (write side's staff_two_factor) the member signs in with; null: two-factor sign-in is off. */
    two_factor_id?: string | null;
    /** 'active' or 'deactivated': a deactivated member cannot sign in and has no session. */
    status: string;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  settings: {
    scope: string;
    business_name: string | null;
    business_phone: string | null;
    business_email: string | null;
    overdue_payment_alerts: boolean;
    low_battery_alerts: boolean;
    new_customer_alerts: boolean;
    automatic_charging: boolean;
    late_fee_amount: Money;
    /** BillingSettings (contracts/src/billing.ts), or null: the defaults (business) or the business's (facility). */
    billing: unknown;
    /** DelinquencyStep[] (contracts/src/delinquency.ts), or null: the default (business) or the business's (facility). */
    delinquency?: unknown;
    /** Every staff member must sign in with two factors (the business's scope). */
    two_factor_required?: boolean;
    /** ProtectionSettings (contracts/src/protection.ts), or null: none (business) or the business's (facility). */
    protection?: unknown;
    /** Promotion[] (contracts/src/promotions.ts): the business's; empty on a facility's row. */
    promotions?: unknown;
    updated_at: Timestamp;
  };
  facilities: {
    id: string;
    name: string;
    address: string;
    phone: string | null;
    manager_name: string | null;
    total_units: number;
    occupied_units: number;
    time_zone: string;
    /** AccessHours (contracts/src/access-hours.ts), or null: 24-hour access. */
    access_hours?: unknown;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  units: {
    id: string;
    unit_number: string;
    building: string;
    facility_id: string | null;
    size: string;
    /**
     * The unit's asking (street) rate, set when it is added: no event changes it, so the rent roll
     * as of an earlier day reads it as that day's. An event that changes it must keep its history.
     */
    monthly_rate: Money;
    status: string;
    description: string | null;
    climate_controlled: boolean;
    drive_up: boolean;
    floor: number | null;
    lock_type: string | null;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  customers: {
    id: string;
    first_name: string;
    last_name: string;
    email: string;
    phone: string | null;
    address: string | null;
    emergency_contact: string | null;
    emergency_phone: string | null;
    status: string;
    facility_id: string | null;
    archived: boolean;
    /** Credit on the renter's account that no invoice has taken yet. */
    credit_balance: Money;
    search_text: string;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  leases: {
    id: string;
    customer_id: string;
    unit_id: string;
    start_date: IsoDate;
    end_date: IsoDate | null;
    monthly_rate: Money;
    deposit_amount: Money | null;
    is_active: boolean;
    billed_through: IsoDate | null;
    /** The day a scheduled move-out ends the lease (null: none); kept once the lease ended on it. */
    move_out_date: IsoDate | null;
    /** The newest signature of the agreement (lease_signed); null: not signed electronically. */
    signed_at: Timestamp | null;
    signer_name: string | null;
    signature_channel: 'desk' | 'online' | null;
    /** The promotion given at the move-in (lease_promotion_applied), by its name then; null: none. */
    promotion_name: string | null;
    search_text: string;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  lease_rent_changes: {
    /** The change's id. */
    id: string;
    lease_id: string;
    customer_id: string;
    current_rate: Money;
    new_rate: Money;
    notice_date: IsoDate;
    effective_date: IsoDate;
    reason: string | null;
    cancelled: boolean;
    cancel_reason: string | null;
    /** The staff member who scheduled it (null: the system). */
    created_by: string | null;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  customer_notes: {
    id: string;
    customer_id: string;
    text: string;
    /** The staff member who wrote it; null when the system did. */
    author_id: string | null;
    created_at: Timestamp;
  };
  invoices: {
    id: string;
    invoice_number: string;
    customer_id: string;
    lease_id: string | null;
    amount: Money;
    /** Paid so far: the open balance is amount - amount_paid. */
    amount_paid: Money;
    due_date: IsoDate;
    paid_date: IsoDate | null;
    status: string;
    /** The status's place in contracts' InvoiceStatus (1 for the first): the list's "status" order. */
    status_rank: number;
    description: string | null;
    /** InvoiceLine[] (contracts/src/billing.ts). */
    lines: unknown;
    facility_id: string | null;
    search_text: string;
    /** The customer's name as the list sorts by customer (copied from the customer, following renames). */
    customer_last_name: string;
    customer_first_name: string;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  billing_runs: {
    id: string;
    facility_id: string | null;
    billing_date: IsoDate;
    ran_at: Timestamp;
    invoices_issued: number;
    late_fees_charged: number;
    invoices_overdue: number;
    skipped: unknown;
  };
  customer_delinquency: {
    customer_id: string;
    facility_id: string | null;
    /** Steps taken since the schedule last cleared: > 0 is a delinquent renter. */
    steps_since_clear: number;
    last_step_kind: string | null;
    last_step_date: IsoDate | null;
    paused_until: IsoDate | null;
    pause_reason: string | null;
    updated_at: Timestamp;
  };
  ledger_entries: {
    /** The event the entry records. */
    id: string;
    customer_id: string;
    facility_id: string | null;
    entry_date: IsoDate;
    recorded_at: Timestamp;
    /** The event's place in the history, (hi << 64) + lo, as a decimal string. */
    position: string;
    /** LedgerEntryKind (contracts/src/ledger.ts). */
    kind: string;
    description: string;
    invoice_id: string | null;
    invoice_number: string | null;
    /** Signed: charges +, payments, credits and write-offs −. */
    amount: Money;
    /** PaymentMethod of money that moved (a payment, desk credit, a refund that names one); null otherwise. */
    method: string | null;
    /** The desk receipt the entry is part of. */
    receipt_id: string | null;
    /** The payment it is about: a payment's own id; a refund's, the payment it gives back. */
    payment_id: string | null;
  };
  /** Each renter's ledger balance: the sum of their ledger entries. */
  customer_balances: {
    customer_id: string;
    balance: Money;
  };
  /** A lease's rent periods: a rent line (with a period) of its invoices; `counts` unless the invoice is a draft or cancelled. */
  lease_rent_periods: {
    /** The invoice's id ':' the line's number (from 1). */
    key: string;
    lease_id: string;
    invoice_id: string;
    period_start: IsoDate;
    period_end: IsoDate;
    counts: boolean;
  };
  /** What was charged per facility and month (YYYY-MM), by invoice line kind ('line'), and the voids and write-offs. */
  charge_type_months: {
    /** facility ('-': none) '|' month '|' entry '|' line kind. */
    key: string;
    facility_id: string | null;
    month: string;
    entry: string;
    line_kind: string | null;
    amount: Money;
  };
  /** Money in per scope (a facility's id, '-' for none, '*' for all) and month: revenue less refunds, and how many payments. */
  money_months: {
    /** scope '|' month. */
    key: string;
    scope: string;
    month: string;
    revenue: Money;
    payments: number;
  };
  /** The desk receipts already counted as a payment in a scope's month: scope '|' month '|' receipt. */
  money_receipt_months: {
    key: string;
    receipt_id: string;
  };
  payments: {
    id: string;
    customer_id: string;
    invoice_id: string | null;
    amount: Money;
    method: string;
    status: string;
    stripe_payment_intent_id: string | null;
    transaction_id?: string | null;
    /** How much of the payment staff have given back. */
    amount_refunded: Money;
    /** A refund's row: the payment it gives back (null for payments, and the provider's own refunds). */
    refund_of: string | null;
    created_at: Timestamp;
  };
  locks: {
    id: string;
    lock_id: string;
    unit_id: string | null;
    unit_number: string | null;
    facility_id: string | null;
    status: string;
    battery_level: number | null;
    last_seen: Timestamp | null;
    firmware_version: string | null;
    created_at: Timestamp;
    updated_at: Timestamp;
    /** LockDesiredState: what the lock should be. */
    desired_state?: string;
    desired_changed_at?: Timestamp | null;
    /** What its gateway last reported; null: never. */
    reported_state?: string | null;
    reported_at?: Timestamp | null;
    /** Since when desired and reported differ (never reported counts as normal); null: they agree. */
    differs_since?: Timestamp | null;
  };
  /** Each lease's gate code without the code (a secret, kept in its stream); status 'active' or 'suspended' (suspended_reason: lockout, move_out). */
  gate_codes: {
    lease_id: string;
    customer_id: string;
    facility_id: string | null;
    unit_id: string | null;
    status: string;
    suspended_reason: string | null;
    assigned_at: Timestamp;
    updated_at: Timestamp;
  };
  /** What a facility's gateway must learn, numbered per facility (kind 'lock' or 'gate_code'). */
  gateway_changes: {
    /** The event the change records. */
    id: string;
    facility_id: string;
    sequence: number;
    kind: string;
    lock_id: string | null;
    desired: string | null;
    lease_id: string | null;
    active: boolean | null;
    recorded_at: Timestamp;
  };
  gateway_sequences: {
    facility_id: string;
    last_sequence: number;
  };
  /** The attempts gateways reported (never the code tried). */
  access_attempts: {
    id: string;
    facility_id: string;
    lock_id: string | null;
    unit_number: string | null;
    lease_id: string | null;
    customer_id: string | null;
    via: string;
    granted: boolean;
    reason: string;
    attempted_at: Timestamp;
  };
  gateway_keys: {
    facility_id: string;
    key_hash: string;
    key_prefix: string;
    created_at: Timestamp;
  };
  reservations: {
    id: string;
    unit_id: string;
    customer_id: string | null;
    /** What the renter typed (first_name … emergency_phone as in the event); null for reservations made before it was kept. */
    contact: Record<string, unknown> | null;
    move_in_date: IsoDate;
    special_requests: string | null;
    status: string;
    lease_id: string | null;
    /** The renter's online payment: 'paying' (under way), 'refunded' (the rental could not be made), null (none); as of online_checkout_at. */
    online_checkout: 'paying' | 'refunded' | null;
    online_checkout_at: Timestamp | null;
    submitted_at: Timestamp;
    updated_at: Timestamp;
  };
  waitlist_entries: {
    id: string;
    first_name: string;
    last_name: string;
    email: string;
    phone: string;
    size: string | null;
    facility_id: string | null;
    joined_at: Timestamp;
  };
  metrics_units: {
    unit_id: string;
    facility_id: string | null;
    building: string;
    status: string;
    vacant_since: Timestamp | null;
    vacant_seconds: number;
  };
  metrics_customers: {
    customer_id: string;
    facility_id: string | null;
  };
  activities: {
    id: string;
    type: string;
    /** The tab besides All that shows it (activityTabOf), or null. */
    tab: string | null;
    description: string;
    customer_id: string | null;
    unit_id: string | null;
    lock_id: string | null;
    invoice_id: string | null;
    user_id: string | null;
    facility_id: string | null;
    metadata: Record<string, unknown>;
    search_text: string;
    created_at: Timestamp;
    /** Identity: the order rows were written in; absent until the row is stored. */
    recorded_order?: number;
  };
  /** The auditors' event log: one row per event, as its screen shows it (nothing secret). */
  audit_log: {
    /** The event's place in the log, (hi << 64) + lo, as a decimal string. */
    position: string;
    event_id: string;
    type: string;
    /** As shown: a gate code's claim without the code. */
    stream_name: string;
    /** The facility its entity belonged to when it happened. */
    facility_id: string | null;
    actor_type: string;
    actor_id: string | null;
    occurred_at: Timestamp;
    recorded_at: Timestamp;
    schema_version: number;
    /** The request (or process run) that appended it, and the event that caused it (migration 057). */
    correlation_id?: string | null;
    causation_id?: string | null;
    /** Its 0-based place in its stream, as a decimal string. */
    stream_revision?: string | null;
    /** In its current shape, redacted. */
    data: Record<string, unknown>;
  };
  notifications: {
    id: string;
    type: string;
    title: string;
    message: string;
    read: boolean;
    facility_id: string | null;
    created_at: Timestamp;
  };
  notification_read_marks: {
    /** A facility's id, or 'all'. */
    scope: string;
    read_before: Timestamp;
  };
  /** A renter's saved cards (never a number); a removed card keeps its row. */
  payment_methods: {
    id: string;
    customer_id: string;
    provider: string;
    brand: string;
    last4: string;
    exp_month: number;
    exp_year: number;
    removed: boolean;
    created_at: Timestamp;
  };
  autopay_enrollments: {
    customer_id: string;
    enabled: boolean;
    payment_method_id: string | null;
    updated_at: Timestamp;
  };
  /** The latest autopay attempt of each invoice. */
  autopay_charges: {
    invoice_id: string;
    customer_id: string;
    facility_id: string | null;
    attempt_id: string;
    attempt: number;
    amount: Money;
    date: IsoDate;
    status: 'attempted' | 'succeeded' | 'failed';
    reason: string | null;
    requires_action: boolean;
    next_attempt_on: IsoDate | null;
    updated_at: Timestamp;
  };
  /** What each facility sells at the desk (migration 058). stock null: not counted (a service fee). */
  merchandise_items: {
    id: string;
    facility_id: string;
    name: string;
    price: Money;
    taxable: boolean;
    stock: number | null;
    active: boolean;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
}

export type TableName = keyof ReadTables;
export type RowOf<T extends TableName> = ReadTables[T];

/** Each table's key column: rows are fetched, cached and written back by it. */
export const keyColumn: { [T in TableName]: keyof RowOf<T> & string } = {
  staff: 'id',
  settings: 'scope',
  facilities: 'id',
  units: 'id',
  customers: 'id',
  leases: 'id',
  invoices: 'id',
  lease_rent_changes: 'id',
  customer_notes: 'id',
  billing_runs: 'id',
  customer_delinquency: 'customer_id',
  payments: 'id',
  ledger_entries: 'id',
  customer_balances: 'customer_id',
  lease_rent_periods: 'key',
  charge_type_months: 'key',
  money_months: 'key',
  money_receipt_months: 'key',
  locks: 'id',
  gateway_keys: 'facility_id',
  gate_codes: 'lease_id',
  gateway_changes: 'id',
  gateway_sequences: 'facility_id',
  access_attempts: 'id',
  reservations: 'id',
  waitlist_entries: 'id',
  metrics_units: 'unit_id',
  metrics_customers: 'customer_id',
  activities: 'id',
  audit_log: 'position',
  notifications: 'id',
  notification_read_marks: 'scope',
  payment_methods: 'id',
  autopay_enrollments: 'customer_id',
  autopay_charges: 'invoice_id',
  merchandise_items: 'id',
};

/** Figures added up per key (never read back by the projections), such as the daily metrics. */
export interface CounterTables {
  metrics_daily: {
    key: { facility_id: string | null; day: IsoDate };
    figures: 'customers_added' | 'move_ins' | 'move_outs' | 'units_filled' | 'vacant_seconds_filled' | 'units_change' | 'occupied_units_change';
    /** The unique constraint the key is, by name (the shadow copies keep it). */
    constraint: 'metrics_daily_key';
  };
  /** The units and occupied units of each building (of a facility), as changes per day. */
  metrics_building_daily: {
    key: { facility_id: string | null; building: string; day: IsoDate };
    figures: 'units_change' | 'occupied_units_change';
    constraint: 'metrics_building_daily_key';
  };
  /** The audit log's entries per day they occurred on (left(occurred_at, 10)): where a page by number starts (migration 043). */
  audit_log_days: { key: { day: string }; figures: 'entries'; constraint: 'audit_log_days_key' };
  /** The activity feed's entries per UTC day of created_at (the day's start, ISO-8601): where a page by number starts. */
  activity_days: { key: { day: string }; figures: 'entries'; constraint: 'activity_days_key' };
}

export type ReadTableName = TableName | keyof CounterTables;

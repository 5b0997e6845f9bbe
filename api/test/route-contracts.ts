// What each route reads from a request, as the contracts it validates with (handlers call
// parseInput with these schemas). The generative test drives every registered route from this
// map and fails when a route is missing: adding a route means adding its line here.
import { ActivitiesFilter, ListActivitiesQuery } from '@storage/contracts/activities';
import { LoginRequest } from '@storage/contracts/auth';
import { CreateCustomerRequest, ListCustomersQuery, UpdateCustomerRequest } from '@storage/contracts/customers';
import { DashboardMetricsQuery, RecentCustomersQuery } from '@storage/contracts/dashboard';
import { CreateFacilityRequest, ListFacilitiesQuery, UpdateFacilityRequest } from '@storage/contracts/facilities';
import { Id } from '@storage/contracts/fields';
import { AuditEventsFilter, HistoryParams, HistoryQuery, ListAuditEventsQuery } from '@storage/contracts/history';
import { CreateInvoiceRequest, ListInvoicesQuery } from '@storage/contracts/invoices';
import { EndLeaseRequest, LeaseCountsQuery, LeaseDocumentQuery, LeasesFilter, ListLeasesQuery, StartLeaseRequest } from '@storage/contracts/leases';
import { CreateLockRequest, ListLocksQuery, LockHeartbeatRequest, UpdateLockRequest } from '@storage/contracts/locks';
import { ListNotificationsQuery, MarkAllNotificationsReadRequest } from '@storage/contracts/notifications';
import { ConfirmTestPaymentRequest, CreatePaymentIntentRequest, PaymentIntentId, SimulateWebhookRequest } from '@storage/contracts/payments';
import { CustomerPortalQuery, VerifyCustomerRequest } from '@storage/contracts/portal';
import { AvailableUnitsQuery, JoinWaitlistRequest, SubmitReservationRequest } from '@storage/contracts/public';
import { ReadModelJobParams } from '@storage/contracts/read-model';
import { ReportsQuery } from '@storage/contracts/reports';
import { CancelReservationRequest, ConvertReservationRequest, ListReservationsQuery } from '@storage/contracts/reservations';
import { SearchQuery } from '@storage/contracts/search';
import { BusinessProfile, ChangePasswordRequest, NotificationPreferences, PaymentSettingsRequest } from '@storage/contracts/settings';
import { AddStaffRequest, ChangeStaffRoleRequest, StaffParams } from '@storage/contracts/staff';
import { ChangeUnitStatusRequest, CreateUnitRequest, ListUnitsQuery, UnitsFilter } from '@storage/contracts/units';
import { z } from 'zod';

export interface RouteContract {
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** Fewer runs for a route whose every success is costly (a read-model rebuild). */
  runs?: number;
  /** The route ends the caller's session: driven with a throwaway session of the same kind. */
  endsSession?: boolean;
}

const IdParams = z.strictObject({ id: Id });

/** `METHOD /pattern` → what the route reads. */
export const ROUTE_CONTRACTS: Record<string, RouteContract> = {
  'GET /api/health/live': {},
  'GET /api/health/ready': {},

  'POST /api/auth/login': { body: LoginRequest },
  'GET /api/auth/user': {},
  'GET /api/login': {},
  'GET /api/logout': { endsSession: true },
  'POST /api/auth/logout': { endsSession: true },
  'POST /api/logout': { endsSession: true },
  'PUT /api/auth/password': { body: ChangePasswordRequest },

  'GET /api/facilities': { query: ListFacilitiesQuery },
  'POST /api/facilities': { body: CreateFacilityRequest },
  'PATCH /api/facilities/:id': { params: IdParams, body: UpdateFacilityRequest },
  'GET /api/facilities/:id/gateway-key': { params: IdParams },
  'POST /api/facilities/:id/gateway-key': { params: IdParams },

  'GET /api/customers': { query: ListCustomersQuery },
  'GET /api/customers/:id': { params: IdParams },
  'POST /api/customers': { body: CreateCustomerRequest },
  'PATCH /api/customers/:id': { params: IdParams, body: UpdateCustomerRequest },
  'DELETE /api/customers/:id': { params: IdParams },

  'GET /api/notifications': { query: ListNotificationsQuery },
  'PUT /api/notifications/:id/read': { params: IdParams },
  'POST /api/notifications/read-all': { body: MarkAllNotificationsReadRequest },

  'GET /api/units': { query: ListUnitsQuery },
  'GET /api/units/buildings': { query: UnitsFilter },
  'GET /api/units/:id': { params: IdParams },
  'POST /api/units': { body: CreateUnitRequest },
  'PUT /api/units/:id/status': { params: IdParams, body: ChangeUnitStatusRequest },

  'GET /api/locks': { query: ListLocksQuery },
  'GET /api/locks/:id': { params: IdParams },
  'POST /api/locks': { body: CreateLockRequest },
  'PATCH /api/locks/:id': { params: IdParams, body: UpdateLockRequest },
  'POST /api/locks/:id/heartbeat': { params: IdParams, body: LockHeartbeatRequest },

  'GET /api/invoices': { query: ListInvoicesQuery },
  'GET /api/invoices/:id': { params: IdParams },
  'POST /api/invoices': { body: CreateInvoiceRequest },
  'POST /api/invoices/:id/send': { params: IdParams },

  'GET /api/leases': { query: ListLeasesQuery },
  'GET /api/leases/counts': { query: LeaseCountsQuery },
  'GET /api/leases/export.csv': { query: LeasesFilter },
  'POST /api/leases': { body: StartLeaseRequest },
  'POST /api/leases/:id/end': { params: IdParams, body: EndLeaseRequest },
  'GET /api/leases/:id/document': { params: IdParams, query: LeaseDocumentQuery },
  'GET /api/leases/:id/document.pdf': { params: IdParams, query: LeaseDocumentQuery },

  'GET /api/reservations': { query: ListReservationsQuery },
  'GET /api/waitlist': { query: ListReservationsQuery },
  'POST /api/reservations/:id/convert': { params: IdParams, body: ConvertReservationRequest },
  'POST /api/reservations/:id/cancel': { params: IdParams, body: CancelReservationRequest },

  'GET /api/activities': { query: ListActivitiesQuery },
  'GET /api/activities/counts': { query: ActivitiesFilter },
  'GET /api/dashboard/metrics': { query: DashboardMetricsQuery },
  'GET /api/dashboard/recent-customers': { query: RecentCustomersQuery },
  'GET /api/reports/overview': { query: ReportsQuery },
  'GET /api/reports/rent-roll.csv': { query: ReportsQuery },
  'GET /api/reports/occupancy.csv': { query: ReportsQuery },
  'GET /api/reports/aging.csv': { query: ReportsQuery },
  'GET /api/reports/revenue.csv': { query: ReportsQuery },

  'GET /api/staff': {},
  'POST /api/staff': { body: AddStaffRequest },
  'PUT /api/staff/:id/role': { params: StaffParams, body: ChangeStaffRoleRequest },
  'POST /api/staff/:id/deactivate': { params: StaffParams },
  'POST /api/staff/:id/reactivate': { params: StaffParams },

  'GET /api/settings': {},
  'PUT /api/settings/business-profile': { body: BusinessProfile },
  'PUT /api/settings/notifications': { body: NotificationPreferences },
  'PUT /api/settings/payments': { body: PaymentSettingsRequest },

  'GET /api/public/units/available': { query: AvailableUnitsQuery },
  'POST /api/public/waitlist': { body: JoinWaitlistRequest },
  'POST /api/public/reservations': { body: SubmitReservationRequest },

  'GET /api/search': { query: SearchQuery },
  'GET /api/customer/session': {},
  'POST /api/customer/verify': { body: VerifyCustomerRequest },
  'POST /api/customer/sign-out': { endsSession: true },
  'GET /api/customer/profile': { query: CustomerPortalQuery },
  'GET /api/customer/account': { query: CustomerPortalQuery },
  'GET /api/customer/invoices': { query: CustomerPortalQuery },
  'GET /api/customer/units': { query: CustomerPortalQuery },
  'GET /api/customer/access-logs': { query: CustomerPortalQuery },
  'GET /api/customer/contact': { query: CustomerPortalQuery },

  'GET /api/payments/config': {},
  'POST /api/create-payment-intent': { body: CreatePaymentIntentRequest },
  'POST /api/test-provider/payment-intents/:id/confirm': { params: z.strictObject({ id: PaymentIntentId }), body: ConfirmTestPaymentRequest },
  'POST /api/stripe/webhook/simulate': { body: SimulateWebhookRequest },
  'POST /api/stripe/webhook': {},

  'GET /api/history/:streamType/:id': { params: HistoryParams, query: HistoryQuery },
  'GET /api/audit/events': { query: ListAuditEventsQuery },
  'GET /api/audit/events.csv': { query: AuditEventsFilter },

  'POST /api/read-model/rebuild': { runs: 1 },
  'POST /api/read-model/verify': { runs: 1 },
  'GET /api/read-model/jobs/:id': { params: ReadModelJobParams },
};
